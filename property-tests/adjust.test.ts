/**
 * Recall II invariants: the score identity for arbitrary component values, freshness and
 * canonicality within [floor, 1], no gap naming a term a claim contains, and an empty knowledge
 * base answering every question with a gap and no claim.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import * as Candidate from "../src/domain/Candidate.ts"
import * as ScoreComponents from "../src/domain/ScoreComponents.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { adjust } from "../src/retrieval/adjust.ts"
import { classify } from "../src/retrieval/intent.ts"
import { coveredTerms, namedTerms, passageStems } from "../src/retrieval/terms.ts"
import * as Recall from "../layers/Recall.ts"
import { recall } from "../pipelines/recall.ts"
import { chunk } from "../test/support/Fixtures.ts"

const RUNS = { numRuns: 200, seed: 20261130 }
const NOW = Date.UTC(2026, 9, 1)
const positive = fc.double({ min: 1e-6, max: 10, noNaN: true })

describe("score identity and bounds", () => {
  it("score equals the base times every component, for any component values", () => {
    fc.assert(fc.property(
      fc.record({
        rrf: positive, rerank: fc.option(positive, { nil: null }), typeWeight: positive, relationWeight: positive, hopPenalty: positive,
        noteSupport: positive, termCoverage: positive, noteCoverage: positive, linkConsensus: positive, freshness: positive,
        verification: positive, authorKind: positive, canonicality: positive
      }),
      (components) => {
        const c = Candidate.withComponents(Candidate.make(chunk({ id: "a.md#0", text: "x" }), 1), components)
        const expected = (components.rerank ?? components.rrf) * components.typeWeight * components.relationWeight *
          components.hopPenalty * components.noteSupport * components.termCoverage * components.noteCoverage *
          components.linkConsensus * components.freshness * components.verification * components.authorKind *
          components.canonicality
        assert.strictEqual(c.score, expected)
        assert.strictEqual(c.score, ScoreComponents.score(c.components))
      }
    ), RUNS)
  })

  it("freshness stays within [freshnessFloor, 1] for any age, type, bias and floor", () => {
    fc.assert(fc.property(
      fc.integer({ min: -1_000, max: 100_000 }),
      fc.constantFrom("decision", "convention", "state", "reference", "note", "code" as const),
      fc.constantFrom("why", "what is the current status", "originally", "plain"),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (ageDays, noteType, question, floor) => {
        const config = { ...RetrievalConfig.defaults, freshnessFloor: floor }
        const createdAt = new Date(NOW - ageDays * 86_400_000).toISOString()
        const [adjusted] = adjust([Candidate.make(chunk({ id: "a.md#0", text: "x", noteType, createdAt }), 0.03)], {
          query: question, intent: classify(question), now: NOW, edges: [], chunkCounts: new Map(), config
        })
        const freshness = adjusted!.components.freshness
        assert.isAtLeast(freshness, floor)
        assert.isAtMost(freshness, 1)
        assert.isAbove(freshness, 0)
      }
    ), RUNS)
  })
})

const VOCAB = ["deploy", "rollback", "cache", "token", "budget", "graph", "incident", "owner", "queue", "retry", "schema", "index"] as const
const Word = Schema.Literals(VOCAB)
const Corpus = Schema.Array(Schema.Array(Word).check(Schema.isMaxLength(10))).check(Schema.isMaxLength(16))
const Question = Schema.Array(Schema.Literals([...VOCAB, "missingword", "absentterm", "how", "long"])).check(Schema.isMaxLength(6))

describe("canonicality as a factor", () => {
  it("stays within [canonicalityFloor, 1], never reverses the signal's order, and a neighbour never exceeds its seed's", () => {
    fc.assert(fc.property(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.array(fc.double({ min: -1, max: 2, noNaN: true }), { minLength: 1, maxLength: 8 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (floor, raw, neighbourScore) => {
        const config = { ...RetrievalConfig.defaults, canonicalityFloor: floor, rerankLimit: 100 }
        const notes = raw.map((_, i) => `n${i}.md`)
        const canonicality = new Map([...notes.map((note, i) => [note, Math.min(1, Math.max(0, raw[i]!))] as const), ["hub.md", neighbourScore]])
        const seeds = notes.map((note) => Candidate.make(chunk({ id: `${note}#0`, text: "x" }), 0.03))
        const base = Candidate.make(chunk({ id: "hub.md#0", text: "x" }), 0.03)
        const neighbour = {
          ...Candidate.withComponents(base, { ...base.components, relationWeight: 1, hopPenalty: 0.6 }),
          graph: { hops: 1, relation: "depends_on", from: "n0.md" }
        }
        const adjusted = adjust([...seeds, neighbour], {
          query: "x", intent: classify("x"), now: NOW, edges: [], chunkCounts: new Map(), canonicality, config
        })
        const factor = (note: string) => adjusted.find((c) => c.chunk.noteId === note)!.components.canonicality
        for (const c of adjusted) {
          assert.isAtLeast(c.components.canonicality, floor)
          assert.isAtMost(c.components.canonicality, 1)
          assert.strictEqual(c.score, ScoreComponents.score(c.components))
        }
        for (const a of notes) {
          for (const b of notes) {
            if (canonicality.get(a)! > canonicality.get(b)!) assert.isAtLeast(factor(a), factor(b))
          }
        }
        assert.isAtMost(factor("hub.md"), factor("n0.md"))
      }
    ), RUNS)
  })
})

describe("gaps never contradict claims", () => {
  it.effect.prop("no gap names a term that a claim contains", { corpus: Corpus, question: Question }, ({ corpus, question }) =>
    Effect.gen(function*() {
      const chunks = corpus.map((body, i) => chunk({ id: `n${i}.md#0`, text: `n${i} > h\n${body.join(" ")}` }))
      const text = question.join(" ")
      const pack = yield* recall({ text }).pipe(Effect.provide(Recall.reference({ chunks, edges: [] }, { dense: "none" })))
      const terms = namedTerms(text, RetrievalConfig.defaults)
      for (const gap of pack.gaps) {
        const named = /^No claims found about "(.*)"\.$/u.exec(gap.text)?.[1]
        if (named === undefined) continue
        const term = terms.find((t) => t.display === named)!
        assert.isDefined(term)
        for (const claim of pack.claims) {
          const stems = passageStems(chunk({ id: "x.md#0", text: claim.text }))
          assert.strictEqual(coveredTerms(stems, [term]).size, 0, `${named} in ${claim.ref}`)
        }
      }
    }), { timeout: 60_000, arbitrary: { runs: 200, seed: 20261130 } })

  it.effect.prop("an empty knowledge base answers every question with a gap and no claim", { question: Schema.String }, ({ question }) =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: question }).pipe(Effect.provide(Recall.reference({ chunks: [], edges: [] }, { dense: "none" })))
      assert.deepStrictEqual(pack.claims, [])
      assert.isAbove(pack.gaps.length, 0)
    }), { timeout: 60_000, arbitrary: { runs: 200, seed: 20261130 } })
})
