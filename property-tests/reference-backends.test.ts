/**
 * Invariants of the reference retrieval backends over generated corpora: results do not depend on
 * the order chunks arrive in; the filter acts inside the index exactly as filtering a complete
 * ranking would; every embedding is a unit vector; the latent semantic model is a function of its
 * texts and seed alone.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import type { Chunk, NoteStatus, NoteType, TrustState } from "../src/domain/Chunk.ts"
import * as Hashing from "../src/index/HashingEmbedder.ts"
import * as Lsa from "../src/index/LatentSemanticEmbedder.ts"
import { assertVectors } from "../src/ports/Embedder.ts"
import type { RetrievalFilter } from "../src/ports/RetrievalFilter.ts"
import { matchesFilter } from "../src/ports/RetrievalFilter.ts"
import { makeChunk } from "../layers/contracts/ChunkFixtures.ts"
import * as LexicalIndexMemory from "../layers/reference/LexicalIndexMemory.ts"
import { TopK } from "../src/domain/TopK.ts"
import * as VectorIndexMemory from "../layers/reference/VectorIndexMemory.ts"

const RUNS = { seed: 20_240_605, numRuns: 200 } as const

const WORDS = [
  "cache", "caching", "retry", "retries", "backoff", "token", "tokens", "queue", "deploy", "deployment",
  "schema", "migration", "getUserName", "max_retry_count", "HTTPServer", "café", "index", "indexes", "lock",
  "flag", "trace", "span", "limit", "rate", "version", "secret", "vault", "event", "ledger", "v2"
]
const TYPES: ReadonlyArray<NoteType> = ["decision", "convention", "state", "reference", "note", "code"]
const STATUSES: ReadonlyArray<NoteStatus> = ["current", "current", "superseded", "deprecated"]
const STATES: ReadonlyArray<TrustState> = ["verified", "accepted", "unverified", "stale", "superseded"]
const DIRS = ["docs", "docs/adr", "src", "notes"]
const DATES = [null, "2023-01-01T00:00:00Z", "2024-03-15T08:30:00Z", "2024-09-30T23:59:59Z", "not a date"]

const words = (max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: max }).map((list) => list.join(" "))

const chunkArb = (n: number): fc.Arbitrary<Chunk> =>
  fc.record({
    dir: fc.constantFrom(...DIRS),
    text: words(12),
    title: words(3),
    tags: fc.subarray(WORDS, { maxLength: 3 }),
    noteType: fc.constantFrom(...TYPES),
    status: fc.constantFrom(...STATUSES),
    state: fc.constantFrom(...STATES),
    createdAt: fc.constantFrom(...DATES)
  }).map((r) =>
    makeChunk({
      id: `${r.dir}/n${n}.md#b${n}`,
      path: `${r.dir}/n${n}.md`,
      title: r.title,
      text: r.text,
      tags: r.tags,
      noteType: r.noteType,
      status: r.status,
      provenance: { state: r.state, createdAt: r.createdAt }
    })
  )

const corpusArb: fc.Arbitrary<Array<Chunk>> = fc
  .integer({ min: 0, max: 24 })
  .chain((n) => (n === 0 ? fc.constant([]) : fc.tuple(...Array.from({ length: n }, (_, i) => chunkArb(i)))))

const filterArb: fc.Arbitrary<RetrievalFilter> = fc.record(
  {
    types: fc.subarray([...TYPES]),
    since: fc.constantFrom("2023-06-01", "2024-03-15T08:30:00Z", "2025-01-01"),
    paths: fc.subarray(DIRS, { maxLength: 2 }),
    includeSuperseded: fc.boolean()
  },
  { requiredKeys: [] }
)

/** A corpus and a second copy of it in another order. */
const shuffledCorpusArb = corpusArb.chain((chunks) => fc.tuple(fc.constant(chunks), fc.shuffledSubarray(chunks, { minLength: chunks.length })))

const vectorOf = (chunk: Chunk, dimension: number): Array<number> =>
  Array.from({ length: dimension }, (_, j) => Math.sin((chunk.text.length + 1) * (j + 1) + chunk.id.length) + (j === 0 ? 1.5 : 0))

describe("reference backends - properties", () => {
  it.effect("lexical search - chunk insertion order changes no byte of any result", () =>
    Effect.gen(function*() {
      const samples = fc.sample(fc.tuple(shuffledCorpusArb, words(4), filterArb, fc.integer({ min: 0, max: 12 })), RUNS)
      for (const [[chunks, shuffled], query, filter, limit] of samples) {
        const a = yield* LexicalIndexMemory.make(chunks)
        const b = yield* LexicalIndexMemory.make(shuffled)
        assert.strictEqual(JSON.stringify(yield* b.search(query, limit, filter)), JSON.stringify(yield* a.search(query, limit, filter)))
      }
    }), 60_000)

  it.effect("lexical search - the filter inside the index equals filtering the complete ranking, then cutting", () =>
    Effect.gen(function*() {
      const samples = fc.sample(fc.tuple(corpusArb, words(4), filterArb, fc.integer({ min: 1, max: 8 })), RUNS)
      for (const [chunks, query, filter, limit] of samples) {
        const index = yield* LexicalIndexMemory.make(chunks)
        const byId = new Map(chunks.map((chunk) => [chunk.id as string, chunk]))
        const everything = yield* index.search(query, chunks.length + 1, { includeSuperseded: true })
        const expected = everything.filter((hit) => matchesFilter(byId.get(hit.id)!, filter)).slice(0, limit)
        assert.deepStrictEqual(yield* index.search(query, limit, filter), expected)
      }
    }))

  it.effect("vector search - insertion order changes no byte, and the filter acts before the cut", () =>
    Effect.gen(function*() {
      const samples = fc.sample(fc.tuple(shuffledCorpusArb, filterArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 })), RUNS)
      for (const [[chunks, shuffled], filter, limit, salt] of samples) {
        const dimension = 5
        const a = yield* VectorIndexMemory.make(dimension, chunks.map((chunk) => ({ chunk, vector: vectorOf(chunk, dimension) })))
        const b = yield* VectorIndexMemory.make(dimension, shuffled.map((chunk) => ({ chunk, vector: vectorOf(chunk, dimension) })))
        const query = Array.from({ length: dimension }, (_, j) => Math.cos(salt + j))
        const hits = yield* a.nearest(query, limit, filter)
        assert.strictEqual(JSON.stringify(yield* b.nearest(query, limit, filter)), JSON.stringify(hits))
        const byId = new Map(chunks.map((chunk) => [chunk.id as string, chunk]))
        const everything = yield* a.nearest(query, chunks.length + 1, { includeSuperseded: true })
        assert.deepStrictEqual(hits, everything.filter((hit) => matchesFilter(byId.get(hit.id)!, filter)).slice(0, limit))
      }
    }))

  it("TopK - keeps exactly the head of the full (score desc, row asc) order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 })), fc.integer({ min: 0, max: 10 }), (scores, k) => {
        const top = new TopK(k)
        scores.forEach((score, row) => top.push(score, row))
        const expected = scores
          .map((score, row) => ({ row, score }))
          .sort((x, y) => (y.score - x.score) || (x.row - y.row))
          .slice(0, k)
        assert.deepStrictEqual(top.drain(), expected)
      }),
      RUNS
    )
  })

  it.effect("embedders - every vector of any text is finite, of the declared length and of unit norm", () =>
    Effect.gen(function*() {
      const lsa = Lsa.encoder(Lsa.train(fc.sample(words(12), { seed: 5, numRuns: 60 }), { latentDimension: 8, seed: 3 }))
      const hashing = Hashing.make(64)
      const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 80 }), words(20), fc.string({ unit: "binary", maxLength: 40 }))
      for (const batch of fc.sample(fc.array(text, { maxLength: 6 }), RUNS)) {
        for (const encoder of [lsa, hashing]) {
          yield* assertVectors(encoder, batch.length, batch.map(encoder.embedOne))
        }
      }
    }))

  it("latent semantic - one seed and one multiset of texts give one model, in any order", () => {
    fc.assert(
      fc.property(fc.array(words(10), { minLength: 1, maxLength: 20 }), fc.nat(), fc.nat(), (texts, seed, shuffleSeed) => {
        const shuffled = fc.sample(fc.shuffledSubarray(texts, { minLength: texts.length }), { seed: shuffleSeed, numRuns: 1 })[0]!
        const options = { latentDimension: 6, seed, oversampling: 4, powerIterations: 2 }
        const first = Lsa.encodeModel(Lsa.train(texts, options))
        assert.strictEqual(Lsa.encodeModel(Lsa.train(shuffled, options)), first)
        assert.strictEqual(Lsa.encodeModel(Lsa.train(texts, options)), first)
      }),
      RUNS
    )
  })
})
