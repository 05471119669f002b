import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import * as ContextPack from "../src/domain/ContextPack.ts"
import { LexicalIndex } from "../src/ports/LexicalIndex.ts"
import * as Recall from "../layers/Recall.ts"
import * as RerankerMemory from "../layers/reference/RerankerMemory.ts"
import * as TokenCounterApproximate from "../layers/tokens/TokenCounterApproximate.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { corpus } from "../test/support/Corpus.ts"
import { chunk } from "../test/support/Fixtures.ts"
import * as DedupStage from "../src/retrieval/dedup.ts"
import { createRecall } from "./api.ts"
import { recall } from "./recall.ts"

const QUESTION = { text: "how do I roll back a deploy?", explain: true }
const full = Recall.reference(corpus)
const legStatus = (pack: ContextPack.ContextPack, name: string) =>
  pack.diagnostics?.legs.find((leg) => leg.name === name)?.status

describe("recall over the reference layers", () => {
  it.effect("answers from the note that holds the answer, with every leg reported", () =>
    Effect.gen(function*() {
      const pack = yield* recall(QUESTION)
      assert.strictEqual(pack.claims[0]?.note, "runbooks/rollback.md")
      assert.deepStrictEqual(pack.diagnostics?.legs.map((leg) => leg.name), ["lexical", "dense", "title_path", "symbol", "graph", "rerank"])
      assert.strictEqual(legStatus(pack, "lexical"), "ok")
      assert.strictEqual(legStatus(pack, "dense"), "ok")
      assert.isAtMost(pack.usedTokens, pack.budgetTokens)
      // The relations-only chunk is never a claim.
      assert.isFalse(pack.claims.some((claim) => claim.note === "notes/relations-only.md"))
    }).pipe(Effect.provide(full)), 30_000) // builds the reference layers over the test corpus and recalls

  it.effect("a graph neighbour says which relation admitted it and scores below its seed", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: "deployctl", explain: true })
      const seed = pack.claims.find((claim) => claim.note === "runbooks/rollback.md")
      const neighbours = pack.claims.filter((claim) => claim.components!.hopPenalty !== 1)
      assert.isDefined(seed)
      // depends_on (weight 1) and relates_to (0.6) both lead out of the runbook; supersedes is never followed.
      assert.deepStrictEqual(
        neighbours.map((claim) => [claim.note, claim.components!.relationWeight, claim.components!.hopPenalty]).sort(),
        [
          ["architecture/release-pipeline.md", 1, 0.6],
          ["architecture/release-pipeline.md", 1, 0.6],
          ["decisions/blue-green.md", 0.6, 0.6],
          ["decisions/blue-green.md", 0.6, 0.6]
        ]
      )
      for (const neighbour of neighbours) assert.isBelow(neighbour.score, seed!.score)
      assert.deepStrictEqual(seed!.related, ["architecture/release-pipeline.md", "decisions/blue-green.md"])
    }).pipe(Effect.provide(Recall.reference(corpus, { dense: "none" }))))

  it.effect("every note's first claim is published before any note's second, and the claims are the ones the budget admitted", () =>
    Effect.gen(function*() {
      const spread = yield* recall({ text: "deployctl", explain: true }).pipe(Effect.provide(Recall.reference(corpus, { dense: "none" })))
      const filled = yield* recall({ text: "deployctl", explain: true }).pipe(
        Effect.provide(Recall.reference(corpus, { dense: "none", config: { publishCapPerNote: 1_000 } }))
      )
      const notes = spread.claims.map((claim) => claim.note)
      const distinct = new Set(notes).size
      assert.isBelow(distinct, notes.length) // some note has two claims, so the order is tested
      assert.strictEqual(new Set(notes.slice(0, distinct)).size, distinct)
      assert.notDeepEqual(filled.claims.map((claim) => claim.note), notes)
      assert.deepStrictEqual(spread.claims.map((claim) => claim.ref).sort(), filled.claims.map((claim) => claim.ref).sort())
      assert.strictEqual(spread.usedTokens, filled.usedTokens)
    }))

  it.effect("with note signals, explain shows the canonicality factor and related follows canonicality", () =>
    Effect.gen(function*() {
      const canonicality = new Map([["decisions/blue-green.md", 1], ["architecture/release-pipeline.md", 0.2], ["runbooks/rollback.md", 0.5]])
      const on = yield* recall({ text: "deployctl", explain: true }).pipe(
        Effect.provide(Recall.reference({ ...corpus, canonicality }, { dense: "none", config: { canonicalityFloor: 0.8 } }))
      )
      const seed = on.claims.find((claim) => claim.note === "runbooks/rollback.md" && claim.components!.hopPenalty === 1)!
      assert.closeTo(seed.components!.canonicality, 0.8 + 0.2 * 0.5, 1e-12)
      // Most canonical first, the reverse of id order here.
      assert.deepStrictEqual(seed.related, ["decisions/blue-green.md", "architecture/release-pipeline.md"])
      const factorOf = (note: string) => on.claims.filter((claim) => claim.note === note).map((claim) => claim.components!.canonicality)
      // A neighbour borrows at most its seed's canonicality.
      assert.isAbove(factorOf("decisions/blue-green.md").length, 0)
      assert.isAbove(factorOf("architecture/release-pipeline.md").length, 0)
      for (const factor of factorOf("decisions/blue-green.md")) assert.closeTo(factor, 0.9, 1e-12)
      for (const factor of factorOf("architecture/release-pipeline.md")) assert.closeTo(factor, 0.8 + 0.2 * 0.2, 1e-12)
      const wire = ContextPack.toWire(on).claims.find((claim) => claim.ref === seed.ref)!
      assert.closeTo(wire.components!.canonicality, 0.9, 1e-12)

      // The default floor keeps the factor off while related still follows the signals.
      const off = yield* recall({ text: "deployctl", explain: true }).pipe(
        Effect.provide(Recall.reference({ ...corpus, canonicality }, { dense: "none" }))
      )
      assert.isTrue(off.claims.every((claim) => claim.components!.canonicality === 1))
      assert.deepStrictEqual(off.claims.find((claim) => claim.ref === seed.ref)!.related, seed.related)
    }))

  it.effect("explain publishes components that multiply out to each score", () =>
    Effect.gen(function*() {
      const pack = yield* recall(QUESTION)
      for (const claim of pack.claims) {
        const c = claim.components!
        const product = (c.rerank ?? c.rrf) * c.typeWeight * c.relationWeight * c.hopPenalty * c.noteSupport *
          c.termCoverage * c.noteCoverage * c.linkConsensus * c.freshness * c.verification * c.authorKind * c.canonicality
        assert.strictEqual(claim.score, Number(product.toPrecision(3)))
      }
      assert.isDefined(pack.diagnostics?.timingsMs?.["fuse"])
    }).pipe(Effect.provide(full)))

  it.effect("a hostile query gets a typed error or an honest pack, and an empty corpus a gap", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(recall({ text: "q", budgetTokens: -5 }))
      assert.strictEqual(error._tag, "InvalidInput")
      for (const text of ["a".repeat(50_000), "検索".repeat(2_000), "word ".repeat(3_300), ""]) {
        const pack = yield* recall({ text })
        assert.isAtMost(pack.usedTokens, pack.budgetTokens)
        assert.isTrue(pack.claims.length > 0 || pack.gaps.length > 0)
      }
    }).pipe(Effect.provide(full)))

  it.effect("an empty knowledge base answers with a gap and no claim", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: "how do I roll back?" })
      assert.deepStrictEqual(pack.claims, [])
      assert.isAbove(pack.gaps.length, 0)
    }).pipe(Effect.provide(Recall.reference({ chunks: [], edges: [] }, { dense: "none" }))))
})

describe("layer swaps change one thing each", () => {
  it.effect("dense leg removed: reported skipped, and the lexical answer stands", () =>
    Effect.gen(function*() {
      const pack = yield* recall(QUESTION)
      assert.strictEqual(legStatus(pack, "dense"), "skipped")
      assert.strictEqual(pack.claims[0]?.note, "runbooks/rollback.md")
    }).pipe(Effect.provide(Recall.reference(corpus, { dense: "none" }))))

  it.effect("reranker swapped in: the lexical-overlap model scores the list", () =>
    Effect.gen(function*() {
      const pack = yield* recall(QUESTION)
      assert.strictEqual(legStatus(pack, "rerank"), "ok")
      assert.isTrue(pack.claims.every((claim) => claim.components?.rerank !== null))
    }).pipe(Effect.provide(Layer.merge(Recall.reference(corpus, { config: { rerankMinCorpus: 0 } }), RerankerMemory.layerLexicalOverlap))))

  it.effect("the identity reranker gives the same bytes as a skipped rerank", () =>
    Effect.gen(function*() {
      const withIdentity = yield* recall({ text: QUESTION.text }).pipe(
        Effect.provide(Layer.merge(Recall.reference(corpus, { config: { rerankMinCorpus: 0 } }), RerankerMemory.layerIdentity))
      )
      const skipped = yield* recall({ text: QUESTION.text }).pipe(
        Effect.provide(Recall.reference(corpus, { config: { rerankMinCorpus: 0 } }))
      )
      assert.strictEqual(ContextPack.serialise(withIdentity), ContextPack.serialise(skipped))
    }))

  it.effect("the approximate counter prices claims at four characters a token", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: QUESTION.text })
      const expected = pack.claims.reduce(
        (sum, claim) => sum + TokenCounterApproximate.counter.count(JSON.stringify(ContextPack.claimToWire(claim))),
        0
      )
      assert.strictEqual(pack.usedTokens, expected)
    }).pipe(Effect.provide(Recall.reference(corpus, { tokenCounter: TokenCounterApproximate.layer }))))
})

describe("soft deadline", () => {
  const stalledLexical = Layer.succeed(LexicalIndex, {
    search: () => Effect.sleep(Duration.seconds(10)).pipe(Effect.as([])),
    documentFrequencies: (words) => Effect.succeed(words.map(() => 0))
  })

  it.effect("a leg that sleeps past the deadline yields a partial pack at the deadline", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(recall(QUESTION))
      yield* TestClock.adjust(1_500)
      const pack = yield* Fiber.join(fiber)
      assert.strictEqual(legStatus(pack, "lexical"), "timed_out")
      assert.isTrue(pack.partial)
      assert.isTrue(pack.gaps.some((gap) => gap.reason === "leg_failed" && gap.text.includes("lexical")))
      // The dense leg still found the answer.
      assert.isTrue(pack.claims.some((claim) => claim.note === "runbooks/rollback.md"))
    }).pipe(Effect.provide(Layer.merge(Recall.reference(corpus), stalledLexical))))
})

describe("Promise API", () => {
  it("answers, and rejects a bad query with the tagged error", async () => {
    const api = createRecall(Recall.reference(corpus, { dense: "none" }))
    const pack = await api.recall("how do I roll back a deploy?", { budgetTokens: 2_000 })
    assert.strictEqual(pack.claims[0]?.note, "runbooks/rollback.md")
    const rejected = await api.recall("q", { budgetTokens: 99_999 }).then(() => undefined, (error: unknown) => error)
    assert.strictEqual((rejected as { _tag?: string })._tag, "InvalidInput")
    await api.close()
  })
})

// Keep the unused-import checker honest about Option and the default counter being reachable here.
void Option.none
void TokenCounterDefault.counter

describe("recall II end to end", () => {
  const at = (month: number) => new Date(Date.UTC(2026, month, 10)).toISOString()
  const note = (path: string, body: string, month: number) =>
    chunk({ id: `${path}#b0`, noteId: path, title: path, text: `${path} > Tokens\n${body}`, createdAt: at(month) })
  const kb = {
    chunks: [
      note("auth/session.md", "Password reset links expire after 24 hours for every account.", 2),
      note("auth/session-copy.md", "Password reset links expire after 24 hours for every account.", 2),
      note("auth/hardening.md", "Password reset links expire after 1 hour for every account.", 5),
      note("ops/unrelated.md", "The deploy pipeline runs the contract suite before a promote.", 4)
    ],
    edges: []
  }

  it.effect("a near-duplicate collapses, and the 24h/1h clash it would hide is still reported with every side", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: "when do password reset links expire?" })
      const notes = pack.claims.map((c) => c.note)
      // One of the two identical notes survives; the other is folded into it.
      assert.strictEqual(notes.filter((n) => n === "auth/session.md" || n === "auth/session-copy.md").length, 1)
      assert.strictEqual(pack.conflicts.length, 1)
      const conflict = pack.conflicts[0]!
      assert.deepStrictEqual(conflict.refs.map((r) => r.split(":")[0]).sort(), ["auth/hardening.md", "auth/session-copy.md", "auth/session.md"])
      assert.strictEqual(conflict.note, "24h (Mar) vs 1h (Jun). Neither superseded.")
    }).pipe(Effect.provide(Recall.reference(kb, { dense: "none" }))))

  it.effect("swapping the dedup stage's layer, and nothing else, leaves both copies in the pack", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: "when do password reset links expire?" })
      const notes = pack.claims.map((c) => c.note)
      assert.isTrue(notes.includes("auth/session.md") && notes.includes("auth/session-copy.md"))
    }).pipe(Effect.provide(Recall.reference(kb, { dense: "none", stages: DedupStage.layerOff }))))

  it.effect("a supersedes edge is a recorded resolution: no conflict", () =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: "when do password reset links expire?" })
      assert.deepStrictEqual(pack.conflicts, [])
    }).pipe(Effect.provide(Recall.reference({
      ...kb,
      edges: [
        { from: "auth/hardening.md", to: "auth/session.md", verb: "supersedes" },
        { from: "auth/hardening.md", to: "auth/session-copy.md", verb: "supersedes" }
      ]
    }, { dense: "none" }))))
})
