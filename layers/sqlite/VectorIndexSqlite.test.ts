import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import fc from "fast-check"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import type { VectorEntry } from "../contracts/VectorIndex.contract.ts"
import { contract } from "../contracts/VectorIndex.contract.ts"
import * as VectorIndexMemory from "../reference/VectorIndexMemory.ts"
import { Database } from "./Database.ts"
import type { IndexWrite, IndexWriteError } from "../../src/ports/IndexStore.ts"
import * as VectorIndexSqlite from "./VectorIndexSqlite.ts"
import { coldBuild, MANIFEST, openSeeded, write } from "./testing/Fixtures.ts"

const MODEL = { id: "test/fixed", version: "1" }

const batchOf = (dimension: number, entries: ReadonlyArray<VectorEntry>): IndexWrite =>
  coldBuild(entries.map((entry) => entry.chunk), {
    vectors: { model: { ...MODEL, dimension }, entries: entries.map((entry) => ({ chunkId: entry.chunk.id, vector: entry.vector })) }
  })

// A refused build is the port's own error, as the contract expects of any backend.
const asVectorError = (error: unknown) => {
  if (error instanceof VectorIndexError) return error
  const { reason, detail } = error as IndexWriteError
  return new VectorIndexError({
    reason: reason === "duplicate_chunk" || reason === "dimension_mismatch" || reason === "invalid_vector" ? reason : "unavailable",
    detail
  })
}

const sqliteLayer = (options: VectorIndexSqlite.Options) => (dimension: number, entries: ReadonlyArray<VectorEntry>): Layer.Layer<VectorIndex, VectorIndexError> =>
  VectorIndexSqlite.layerWith(options).pipe(Layer.provide(Layer.effect(Database, openSeeded(batchOf(dimension, entries)).pipe(Effect.mapError(asVectorError)))))

// From the second question on a layer answers from memory; the baseline leaves every one to vec0.
contract("sqlite", sqliteLayer({}))
contract("sqlite, vec0 alone", sqliteLayer({ holdInMemory: false }))

/** Both indexes over one corpus; the reference gets the float32 values the file stores. */
const bothIndexes = (dimension: number, entries: ReadonlyArray<VectorEntry>, options: VectorIndexSqlite.Options = {}) =>
  Effect.gen(function*() {
    const stored = entries.map((entry) => ({ chunk: entry.chunk, vector: Array.from(Float32Array.from(entry.vector)) }))
    const memory = yield* VectorIndexMemory.make(dimension, stored)
    const context = yield* Layer.build(VectorIndexSqlite.layerWith(options).pipe(Layer.provide(Layer.effect(Database, openSeeded(batchOf(dimension, entries))))))
    return { memory, sqlite: Context.get(context, VectorIndex) }
  })

/** A seeded generator, so the corpora are the same on every run. */
const generator = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  }
}

const TYPES = ["decision", "convention", "state", "reference", "note", "code"] as const

const corpus = (size: number, dimension: number, seed: number): Array<VectorEntry> => {
  const next = generator(seed)
  return Array.from({ length: size }, (_, i) => ({
    chunk: makeChunk({
      id: `dir${i % 7}/n${String(i).padStart(5, "0")}.md#b`,
      noteType: TYPES[i % TYPES.length]!,
      status: i % 9 === 0 ? "superseded" : "current",
      provenance: { createdAt: i % 5 === 0 ? null : `2024-${String(1 + (i % 12)).padStart(2, "0")}-15T00:00:00Z` }
    }),
    vector: Array.from({ length: dimension }, next)
  }))
}

const FILTERS: ReadonlyArray<RetrievalFilter> = [
  {},
  { includeSuperseded: true },
  { types: ["code", "decision"] },
  { since: "2024-06-01" },
  { paths: ["dir3", "dir5/"] },
  { types: ["note"], since: "2024-03-01", paths: ["dir1"], includeSuperseded: true }
]

const MODES: ReadonlyArray<readonly [string, VectorIndexSqlite.Options]> = [["held in memory", {}], ["vec0 alone", { holdInMemory: false }]]

describe.each(MODES)("VectorIndexSqlite, %s", (_, options) => {
  it.effect("nearest - the same hits and scores as exact cosine over the stored values, for every filter and limit", () =>
    Effect.gen(function*() {
      const dimension = 24
      const entries = corpus(3_000, dimension, 11)
      const { memory, sqlite } = yield* bothIndexes(dimension, entries, options)
      const next = generator(99)
      for (let q = 0; q < 12; q++) {
        const query = Array.from({ length: dimension }, next)
        for (const filter of FILTERS) {
          for (const limit of [1, 10, 50, 400]) {
            assert.deepStrictEqual(yield* sqlite.nearest(query, limit, filter), yield* memory.nearest(query, limit, filter), `${q} ${JSON.stringify(filter)} ${limit}`)
          }
        }
      }
    }), 60_000) // builds two indexes and compares every filter at every limit

  it.effect("nearest - near-ties that float32 cannot separate still come back in exact order, ties by id", () =>
    Effect.gen(function*() {
      // Directions that differ below float32's resolution of the cosine, around the cut.
      const entries = Array.from({ length: 300 }, (_, i) => ({
        chunk: makeChunk({ id: `t/${String((i * 37) % 300).padStart(3, "0")}.md#x` }),
        vector: [1, (i % 10) * 1e-5, i % 3 === 0 ? 1e-4 : 0]
      }))
      const { memory, sqlite } = yield* bothIndexes(3, entries, options)
      for (const limit of [1, 7, 30, 100]) {
        assert.deepStrictEqual(yield* sqlite.nearest([1, 0, 0], limit, {}), yield* memory.nearest([1, 0, 0], limit, {}))
        assert.deepStrictEqual(yield* sqlite.nearest([1, 3e-5, 5e-5], limit, {}), yield* memory.nearest([1, 3e-5, 5e-5], limit, {}))
      }
    }))

  it.effect("nearest - a limit beyond what vec0 serves in one query still returns every passing chunk in order", () =>
    Effect.gen(function*() {
      const entries = corpus(5_000, 4, 5)
      const { memory, sqlite } = yield* bothIndexes(4, entries, options)
      const everything = yield* sqlite.nearest([0.5, -0.2, 0.1, 0.3], Number.POSITIVE_INFINITY, { includeSuperseded: true })
      assert.strictEqual(everything.length, 5_000)
      assert.deepStrictEqual(everything, yield* memory.nearest([0.5, -0.2, 0.1, 0.3], Number.POSITIVE_INFINITY, { includeSuperseded: true }))
      assert.deepStrictEqual(yield* sqlite.nearest([0.1, 0.2, 0.3, 0.4], 4_500, {}), yield* memory.nearest([0.1, 0.2, 0.3, 0.4], 4_500, {}))
    }), 30_000) // stores and reads back thousands of vectors

  it.effect("nearest - a tie wider than vec0 serves at the cut still answers k hits of the tied score, in id order", () =>
    Effect.gen(function*() {
      // 5,000 identical vectors and one apart: every top-5 answer is a tie at cosine 1.
      const entries = Array.from({ length: 5_001 }, (_, i) => ({
        chunk: makeChunk({ id: `t/${String(i).padStart(4, "0")}.md#x` }),
        vector: i === 5_000 ? [0, 1, 0] : [1, 0, 0]
      }))
      const { sqlite } = yield* bothIndexes(3, entries, options)
      const hits = yield* sqlite.nearest([1, 0, 0], 5, {})
      assert.strictEqual(hits.length, 5)
      for (const hit of hits) assert.strictEqual(hit.score, 1)
      assert.isTrue(hits.every((hit) => hit.id !== "t/5000.md#x"))
      // Ties are still ordered by id among what was fetched, and a second call answers the same.
      assert.deepStrictEqual(hits.map((hit) => hit.id), [...hits.map((hit) => hit.id)].sort())
      assert.deepStrictEqual(yield* sqlite.nearest([1, 0, 0], 5, {}), hits)
    }), 30_000) // stores and reads back thousands of tied vectors

  it.effect("nearest - over generated corpora and filters, equal to the reference (200 seeded cases)", () =>
    Effect.gen(function*() {
      const entryArb = fc.record({
        n: fc.integer({ min: 0, max: 40 }),
        dir: fc.constantFrom("a", "b", "a/b"),
        type: fc.constantFrom(...TYPES),
        superseded: fc.boolean(),
        month: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
        vector: fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 3, maxLength: 3 })
      })
      const filterArb = fc.record({
        types: fc.subarray([...TYPES]),
        since: fc.constantFrom("2024-04-01", "2024-09-30T12:00:00+02:00"),
        paths: fc.subarray(["a", "a/b", "b/"]),
        includeSuperseded: fc.boolean()
      }, { requiredKeys: [] })
      const caseArb = fc.tuple(fc.uniqueArray(entryArb, { selector: (e) => `${e.dir}/${e.n}`, maxLength: 30 }), filterArb, fc.integer({ min: 1, max: 12 }))
      // Sampled with a fixed seed and checked inside the effect, so every case runs on a real file.
      for (const [raw, filter, limit] of fc.sample(caseArb, { seed: 20250301, numRuns: 200 })) {
        const entries = raw
          .filter((e) => e.vector.some((x) => x !== 0))
          .map((e): VectorEntry => ({
            chunk: makeChunk({
              id: `${e.dir}/${e.n}.md#x`,
              noteType: e.type,
              status: e.superseded ? "superseded" : "current",
              provenance: { createdAt: e.month === null ? null : `2024-${String(e.month).padStart(2, "0")}-01T00:00:00Z` }
            }),
            vector: e.vector
          }))
        yield* Effect.scoped(Effect.gen(function*() {
          const { memory, sqlite } = yield* bothIndexes(3, entries, options)
          assert.deepStrictEqual(yield* sqlite.nearest([1, 2, -1], limit, filter), yield* memory.nearest([1, 2, -1], limit, filter), JSON.stringify([raw, filter, limit]))
        }))
      }
    }), 60_000) // 200 generated corpora, each indexed in memory and in SQLite

  it.effect("vectorsOf - the stored float32 values of known ids, in the order asked", () =>
    Effect.gen(function*() {
      const entries = corpus(20, 3, 3)
      const { sqlite } = yield* bothIndexes(3, entries, options)
      const asked = [entries[7]!.chunk.id, "nowhere.md#x" as ChunkId, entries[2]!.chunk.id]
      const found = yield* sqlite.vectorsOf(asked)
      assert.deepStrictEqual([...found.keys()], [entries[7]!.chunk.id, entries[2]!.chunk.id])
      assert.deepStrictEqual(found.get(entries[2]!.chunk.id), Array.from(Float32Array.from(entries[2]!.vector)))
    }))

  it.effect("layer - an index built without vectors has no vector index, and says so", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Layer.build(VectorIndexSqlite.layer.pipe(Layer.provide(Layer.effect(Database, openSeeded(coldBuild(corpus(3, 2, 1).map((e) => e.chunk))))))))
      assert.isTrue(error instanceof VectorIndexError && error.reason === "unavailable")
    }))

  it.effect("nearest - a reader that has asked before sees a write at once: added, changed and deleted vectors", () =>
    Effect.gen(function*() {
      const entries = corpus(40, 3, 5)
      const database = yield* openSeeded(batchOf(3, entries))
      const index = yield* VectorIndexSqlite.makeWith(options).pipe(Effect.provideService(Database, database))
      const reference = (current: ReadonlyArray<VectorEntry>) =>
        VectorIndexMemory.make(3, current.map((entry) => ({ chunk: entry.chunk, vector: Array.from(Float32Array.from(entry.vector)) })))
      const query = [0.3, -0.2, 0.9]
      // Asked three times, so a layer that holds vectors holds them now.
      for (let i = 0; i < 3; i++) assert.deepStrictEqual(yield* index.nearest(query, 10, {}), yield* (yield* reference(entries)).nearest(query, 10, {}))
      const added = { chunk: makeChunk({ id: "new/one.md#x", noteId: "new/one.md" }), vector: query }
      const moved = { ...entries[0]!, chunk: { ...entries[0]!.chunk, contentSha: "changed" }, vector: [-0.3, 0.2, -0.9] }
      const gone = entries[1]!
      yield* write(database, {
        chunks: [added.chunk, moved.chunk],
        deleteChunks: [gone.chunk.id],
        notes: [{ id: "new/one.md", contentHash: "hash:new" }],
        vectors: { model: { ...MODEL, dimension: 3 }, entries: [added, moved].map((e) => ({ chunkId: e.chunk.id, vector: e.vector })) },
        manifest: MANIFEST
      })
      const now = [added, moved, ...entries.slice(2)]
      for (let i = 0; i < 3; i++) {
        const hits = yield* index.nearest(query, 10, {})
        assert.deepStrictEqual(hits, yield* (yield* reference(now)).nearest(query, 10, {}))
        assert.strictEqual(hits[0]!.id, "new/one.md#x")
      }
    }))

  it.effect("nearest - after the model changes under a live layer, queries fail instead of mixing spaces", () =>
    Effect.gen(function*() {
      const entries = corpus(10, 3, 2)
      const database = yield* openSeeded(batchOf(3, entries))
      const index = yield* VectorIndexSqlite.make.pipe(Effect.provideService(Database, database))
      assert.strictEqual((yield* index.nearest([1, 0, 0], 3, {})).length, 3)
      yield* write(database, {
        vectors: { model: { id: "test/other", version: "2", dimension: 3 }, entries: entries.map((e) => ({ chunkId: e.chunk.id, vector: e.vector })), replace: true },
        manifest: MANIFEST
      })
      const error = yield* Effect.flip(index.nearest([1, 0, 0], 3, {}))
      assert.isTrue(error instanceof VectorIndexError && error.reason === "unavailable")
    }))
})
