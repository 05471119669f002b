import { assert, describe, it } from "@effect/vitest"
import * as Candidate from "../domain/Candidate.ts"
import type { Chunk } from "../domain/Chunk.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { chunk } from "../../test/support/Fixtures.ts"
import { detectGaps, type GapInput } from "./gaps.ts"
import { classify } from "./intent.ts"

const NOW = Date.UTC(2026, 9, 1)
const config = RetrievalConfig.defaults

const passage = (id: string, body: string, extra: { noteType?: Chunk["noteType"]; age?: number; heading?: string } = {}) =>
  Candidate.make(chunk({
    id,
    text: `${id} > ${extra.heading ?? "h"}\n${body}`,
    noteType: extra.noteType ?? "note",
    headingPath: [extra.heading ?? "h"],
    createdAt: extra.age === undefined ? null : new Date(NOW - extra.age * 86_400_000).toISOString()
  }), 0.03)

const input = (query: string, candidates: Array<Candidate.Candidate>, overrides: Partial<GapInput> = {}): GapInput => ({
  query,
  intent: classify(query),
  candidates,
  found: candidates,
  filteredOut: 0,
  filterSummary: "",
  indexHealth: { embeddingCoverage: 1, lagSeconds: 0 },
  now: NOW,
  config,
  ...overrides
})

const reasons = (gaps: ReadonlyArray<{ reason: string }>) => gaps.map((g) => g.reason)

describe("gaps", () => {
  it("nothing retrieved: one no_results gap quoting the query", () => {
    assert.deepStrictEqual(detectGaps(input("token rotation policy", [])), [
      { reason: "no_results", text: `No claims found for "token rotation policy".` }
    ])
  })

  it("a named term no claim contains is reported; a covered one never is", () => {
    const gaps = detectGaps(input("webhook signature rotation", [passage("a.md#0", "Every webhook carries a signature header.")]))
    assert.deepStrictEqual(gaps, [{ reason: "no_results", text: `No claims found about "rotation".` }])
  })

  it("with index counts, only a term that carries the question is reported missing", () => {
    const claims = [passage("a.md#0", "The fraud team reviews payments flagged by the ledger.")]
    const query = "how is fraud detected in payments for the ledger and treasury?"
    // "detected" is the commonest word of the question in the index: the claims do without it.
    const common = new Map([["fraud", 3], ["detected", 400], ["payments", 20], ["ledger", 5], ["treasury", 0]])
    assert.deepStrictEqual(detectGaps(input(query, claims, { wordFrequencies: common })), [
      { reason: "no_results", text: `No claims found about "treasury".` }
    ])
    // The same question over an index where "detected" is rare and "treasury" common: the other way round.
    const rare = new Map([["fraud", 3], ["detected", 1], ["payments", 20], ["ledger", 5], ["treasury", 400]])
    assert.deepStrictEqual(detectGaps(input(query, claims, { wordFrequencies: rare })), [
      { reason: "no_results", text: `No claims found about "detected".` }
    ])
    // Without counts every absent term is reported, as before.
    assert.strictEqual(detectGaps(input(query, claims)).length, 2)
  })

  it("answerability below the floor is a low_confidence gap; at the floor it is none", () => {
    const claims = [passage("a.md#0", "Webhook signatures rotate monthly.")]
    const floor = config.gapAnswerabilityFloor
    const below = detectGaps(input("webhook rotation", claims, { answerability: { score: floor - 0.01, missing: [] } }))
    assert.deepStrictEqual(below.filter((g) => g.reason === "low_confidence"), [
      { reason: "low_confidence", text: `The best passage holds ${Math.floor((floor - 0.01) * 100)}% of what the question asks about; the knowledge base may not answer it.` }
    ])
    const at = detectGaps(input("webhook rotation", claims, { answerability: { score: floor, missing: [] } }))
    assert.isFalse(at.some((g) => g.reason === "low_confidence"))
    // Not computed: no gap follows from it.
    assert.isFalse(detectGaps(input("webhook rotation", claims)).some((g) => g.reason === "low_confidence"))
  })

  it("a function word is never reported missing", () => {
    const claims = [passage("a.md#0", "Webhook signatures rotate monthly.")]
    const gaps = detectGaps(input("does every webhook signature rotate itself?", claims, { wordFrequencies: new Map([["every", 0], ["webhook", 2], ["signature", 2], ["rotate", 2], ["itself", 0]]) }))
    assert.deepStrictEqual(gaps, [])
  })

  it("per-term gaps are capped; the rarest fifth of the terms is pinned ahead of query order", () => {
    const found = [passage("a.md#0", "alpha"), passage("b.md#0", "bravo charlie"), passage("c.md#0", "bravo")]
    const gaps = detectGaps(input("alpha bravo charlie delta echoes", [found[0]!], { found }))
    // Five terms pin ceil(0.2 × 5) = 1: of the absent terms, delta and echoes appear in nothing found,
    // and the longer wins the tie. Then query order resumes with bravo; the cap is two.
    assert.deepStrictEqual(gaps.map((g) => g.text), [`No claims found about "echoes".`, `No claims found about "bravo".`])
  })

  it("a how-long question whose subject no claim quantifies", () => {
    const without = detectGaps(input("how long do we keep audit logs", [passage("a.md#0", "Audit logs are kept in cold storage.")]))
    assert.include(reasons(without), "low_confidence")
    assert.isTrue(without.some((g) => g.text === `No claim about "audit" says how long.` || g.text === `No claim about "logs" says how long.`))
    const withDuration = detectGaps(input("how long do we keep audit logs", [passage("a.md#0", "Audit logs are kept for 400 days.")]))
    assert.notInclude(reasons(withDuration), "low_confidence")
  })

  it("a retrieved open question that is this question", () => {
    const gaps = detectGaps(input("who approves schema migrations on weekends", [
      passage("q.md#0", "- [question] Who approves schema migrations on weekends?")
    ]))
    assert.deepStrictEqual(gaps.filter((g) => g.reason === "low_confidence"), [
      { reason: "low_confidence", text: "q.md records this as an open question." }
    ])
    const different = detectGaps(input("who approves schema migrations", [
      passage("q.md#0", "- [question] Should schema migrations run during the freeze, and who signs off on weekends?")
    ]))
    assert.notInclude(reasons(different), "low_confidence")
  })

  it("both halves present and nothing joins them", () => {
    const split = detectGaps(input("billing retries and ledger snapshots", [
      passage("a.md#0", "Billing retries back off exponentially."),
      passage("b.md#0", "Ledger snapshots are taken hourly.")
    ]))
    assert.include(reasons(split), "low_confidence")
    const joined = detectGaps(input("billing retries and ledger snapshots", [
      passage("a.md#0", "Billing retries read the ledger snapshots before charging again.")
    ]))
    assert.notInclude(reasons(joined), "low_confidence")
  })

  it("the demanded type: absent is implied_type, heavily decayed is low_confidence", () => {
    const absent = detectGaps(input("why did we choose postgres", [passage("a.md#0", "Postgres runs on three nodes.", { noteType: "reference" })]))
    assert.include(reasons(absent), "implied_type")
    const stale = detectGaps(input("what is the current status of the migration", [
      passage("s.md#0", "The migration is half done.", { noteType: "state", age: 120 })
    ]))
    assert.isTrue(stale.some((g) => g.reason === "low_confidence" && g.text.startsWith("The freshest status note here is 120 days old")))
  })

  it("index health and the caller's own filters", () => {
    const gaps = detectGaps(input("anything at all", [], {
      indexHealth: { embeddingCoverage: 0.5, lagSeconds: 3_600 },
      filteredOut: 4,
      filterSummary: "types: decision"
    }))
    assert.deepStrictEqual(reasons(gaps), ["index_incomplete", "index_incomplete", "filtered_out"])
    assert.strictEqual(gaps[2]!.text, "Your filters (types: decision) removed 4 matching passages.")
  })

  it("a long query is quoted bounded", () => {
    const [gap] = detectGaps(input("x".repeat(5_000), []))
    assert.isAtMost(gap!.text.length, config.gapMaxQueryChars + 30)
  })
})
