/**
 * Recall I invariants over generated knowledge bases: corpus and edge insertion order change no byte
 * of the pack; the identity reranker equals a skipped rerank; every claim's published score is its
 * components' product; fusion is order-free and, with an infinite offset, textbook RRF.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import fc from "fast-check"
import { shuffle } from "./arbitraries.ts"
import type { ChunkId } from "../src/domain/Chunk.ts"
import * as ContextPack from "../src/domain/ContextPack.ts"
import { fuse, type RankedList } from "../src/retrieval/fuse.ts"
import { toSignificant } from "../src/retrieval/pack.ts"
import * as Recall from "../layers/Recall.ts"
import * as RerankerMemory from "../layers/reference/RerankerMemory.ts"
import { recall } from "../pipelines/recall.ts"
import { chunk } from "../test/support/Fixtures.ts"

const VOCAB = ["deploy", "rollback", "cache", "token", "budget", "graph", "incident", "owner", "queue", "retry", "schema", "index"] as const
const NOTES = ["a.md", "b.md", "docs/c.md", "docs/d.md", "e.md", "src/f.ts"] as const
const VERBS = ["depends_on", "implements", "relates_to", "supersedes", "links-to"] as const

const Word = Schema.Literals(VOCAB)
const Corpus = Schema.Struct({
  sections: Schema.Array(Schema.Struct({ note: Schema.Literals(NOTES), words: Schema.Array(Word).check(Schema.isMaxLength(12)) }))
    .check(Schema.isMaxLength(24)),
  edges: Schema.Array(Schema.Struct({ from: Schema.Literals(NOTES), to: Schema.Literals(NOTES), verb: Schema.Literals(VERBS) }))
    .check(Schema.isMaxLength(10))
})
const Question = Schema.Array(Word).check(Schema.isMaxLength(5))
const Seed = Schema.Int

// 200 generated cases take seconds on a loaded machine.
const RUNS = { timeout: 60_000, arbitrary: { runs: 200, seed: 20261130 } }

const build = (corpus: typeof Corpus.Type) => ({
  chunks: corpus.sections.map((section, i) =>
    chunk({
      id: `${section.note}#s${i}`,
      noteId: section.note,
      title: section.note,
      lineStart: 1 + i * 10,
      text: `${section.note} > s${i}\n${section.words.join(" ")}`,
      noteType: section.note.endsWith(".ts") ? "code" : "note"
    })),
  edges: corpus.edges.map((edge) => ({ ...edge }))
})

describe("recall invariants", () => {
  it.effect.prop("corpus and edge insertion order change no byte of the pack", { corpus: Corpus, question: Question, seed: Seed }, ({ corpus, question, seed }) =>
    Effect.gen(function*() {
      const kb = build(corpus)
      const permuted = { chunks: shuffle(kb.chunks, seed), edges: shuffle(kb.edges, seed + 1) }
      const text = question.join(" ")
      const a = yield* recall({ text, explain: false }).pipe(Effect.provide(Recall.reference(kb)))
      const b = yield* recall({ text, explain: false }).pipe(Effect.provide(Recall.reference(permuted)))
      assert.strictEqual(ContextPack.serialise(b), ContextPack.serialise(a))
    }), RUNS)

  it.effect.prop("the identity reranker gives the same bytes as a skipped rerank", { corpus: Corpus, question: Question }, ({ corpus, question }) =>
    Effect.gen(function*() {
      const kb = build(corpus)
      const text = question.join(" ")
      const config = { rerankMinCorpus: 0 }
      const skipped = yield* recall({ text }).pipe(Effect.provide(Recall.reference(kb, { dense: "none", config })))
      const identity = yield* recall({ text }).pipe(
        Effect.provide(Layer.merge(Recall.reference(kb, { dense: "none", config }), RerankerMemory.layerIdentity))
      )
      assert.strictEqual(ContextPack.serialise(identity), ContextPack.serialise(skipped))
    }), RUNS)

  it.effect.prop("every claim's score is the product of its components", { corpus: Corpus, question: Question }, ({ corpus, question }) =>
    Effect.gen(function*() {
      const pack = yield* recall({ text: question.join(" "), explain: true }).pipe(
        Effect.provide(Layer.merge(Recall.reference(build(corpus), { config: { rerankMinCorpus: 0 } }), RerankerMemory.layerLexicalOverlap))
      )
      for (const claim of pack.claims) {
        const c = claim.components!
        const product = (c.rerank ?? c.rrf) * c.typeWeight * c.relationWeight * c.hopPenalty * c.noteSupport *
          c.termCoverage * c.noteCoverage * c.linkConsensus * c.freshness * c.verification * c.authorKind * c.canonicality
        assert.strictEqual(claim.score, toSignificant(product))
      }
    }), RUNS)
})

const idList = fc.uniqueArray(fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `c${i}`)), { maxLength: 30 })
const lists = fc.array(fc.tuple(idList, fc.integer({ min: 0, max: 60 })), { minLength: 1, maxLength: 4 }).map((raw) =>
  raw.map(([ids, requested], i): RankedList => ({ leg: `leg${i}`, ids: ids as Array<ChunkId>, requested })))

describe("fusion invariants", () => {
  it("permuting the input lists changes nothing", () => {
    fc.assert(fc.property(lists, fc.integer(), (input, seed) => {
      const options = { rrfK: 60, rrfAbsentRankOffset: 1, fusedLimit: 60 }
      assert.deepStrictEqual(fuse(shuffle(input, seed), options), fuse(input, options))
    }), { numRuns: 200, seed: 20261130 })
  })

  it("an infinite absent offset is textbook RRF", () => {
    fc.assert(fc.property(lists, (input) => {
      const fused = fuse(input, { rrfK: 60, rrfAbsentRankOffset: Infinity, fusedLimit: 1_000 })
      const textbook = new Map<string, number>()
      for (const list of [...input].sort((a, b) => (a.leg < b.leg ? -1 : 1))) {
        list.ids.forEach((id, index) => textbook.set(id, (textbook.get(id) ?? 0) + 1 / (60 + index + 1)))
      }
      assert.strictEqual(fused.length, textbook.size)
      for (const entry of fused) assert.strictEqual(entry.rrf, textbook.get(entry.id))
      for (let i = 1; i < fused.length; i++) assert.isTrue(fused[i - 1]!.rrf >= fused[i]!.rrf)
    }), { numRuns: 200, seed: 20261130 })
  })
})
