/**
 * Every storage port's contract on PostgreSQL, and the Embedder's for the models restored from it:
 * PGlite in this process by default, the server that `CAIRN_TEST_PG_URL` names when set (CI starts
 * a real one). Each test writes under a repository key of its own. PGlite serves one session, so a
 * second connection waits while a transaction is open on the first: the ConsistentRead contract (a
 * reader's transaction open while another writer commits) needs a real server and runs only there.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import type { Embedder } from "../../src/ports/Embedder.ts"
import { IndexStore, type IndexWrite, type IndexWriteError, type VectorModel } from "../../src/ports/IndexStore.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { contract as candidateContract } from "../contracts/CandidateStore.contract.ts"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import { contract as consistentContract, OtherWriter } from "../contracts/ConsistentRead.contract.ts"
import { contract as embedderContract } from "../contracts/Embedder.contract.ts"
import { contract as graphContract } from "../contracts/GraphStore.contract.ts"
import { contract as healthContract } from "../contracts/IndexHealth.contract.ts"
import { contract as storeContract } from "../contracts/IndexStore.contract.ts"
import { contract as symbolContract } from "../contracts/SymbolIndex.contract.ts"
import { contract as lexicalContract } from "../contracts/LexicalIndex.contract.ts"
import { contract as vectorContract, type VectorEntry } from "../contracts/VectorIndex.contract.ts"
import { SOFTWARE_QUERIES, softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as LexicalIndexMemory from "../reference/LexicalIndexMemory.ts"
import * as VectorIndexMemory from "../reference/VectorIndexMemory.ts"
import { coldBuild, MANIFEST } from "../sqlite/testing/Fixtures.ts"
import * as CandidateStorePg from "./CandidateStorePg.ts"
import * as SymbolIndexPg from "./SymbolIndexPg.ts"
import * as ConsistentReadPg from "./ConsistentReadPg.ts"
import * as EmbedderPg from "./EmbedderPg.ts"
import * as GraphStorePg from "./GraphStorePg.ts"
import * as IndexHealthPg from "./IndexHealthPg.ts"
import * as IndexStorePg from "./IndexStorePg.ts"
import * as LexicalIndexPg from "./LexicalIndexPg.ts"
import * as PgHnsw from "./PgHnsw.ts"
import * as PgIndex from "./PgIndex.ts"
import { abandonable } from "./Reconnecting.ts"
import { freshRepository, start } from "./testing/PgServer.ts"
import * as VectorIndexPg from "./VectorIndexPg.ts"

const server = await start()
afterAll(() => server.stop(), 30_000)

/** A connection pool over a repository key of its own. */
const pgIndex = (repository = freshRepository(), hnswMinVectors?: number) =>
  PgIndex.layer({ url: server.url, repository, maxConnections: server.inProcess ? 1 : 2, ...(hnswMinVectors === undefined ? {} : { hnswMinVectors }) })

/** A PgIndex whose repository holds `batch`; with `hnswMinVectors` 1, its vectors get an HNSW index where pgvector is. */
const seeded = (batch: IndexWrite, repository = freshRepository(), hnswMinVectors?: number): Layer.Layer<PgIndex.PgIndex, unknown> =>
  Layer.effect(PgIndex.PgIndex, Effect.gen(function*() {
    const pg = yield* PgIndex.PgIndex
    const store = yield* IndexStorePg.make.pipe(Effect.provideService(PgIndex.PgIndex, pg))
    yield* store.write(batch)
    return pg
  })).pipe(Layer.provide(pgIndex(repository, hnswMinVectors)))

const asLexicalError = (error: unknown) =>
  error instanceof LexicalIndexError ? error : new LexicalIndexError({
    reason: (error as IndexWriteError).reason === "duplicate_chunk" ? "duplicate_chunk" : "unavailable",
    detail: String((error as IndexWriteError).detail)
  })

const asVectorError = (error: unknown) => {
  if (error instanceof VectorIndexError) return error
  const { reason, detail } = error as IndexWriteError
  return new VectorIndexError({
    reason: reason === "duplicate_chunk" || reason === "dimension_mismatch" || reason === "invalid_vector" ? reason : "unavailable",
    detail: String(detail)
  })
}

const MODEL = { id: "test/fixed", version: "1" }
const vectorBatch = (dimension: number, entries: ReadonlyArray<VectorEntry>): IndexWrite =>
  coldBuild(entries.map((entry) => entry.chunk), {
    vectors: { model: { ...MODEL, dimension }, entries: entries.map((entry) => ({ chunkId: entry.chunk.id, vector: entry.vector })) }
  })

const lexicalLayer = (chunks: ReadonlyArray<Chunk>, weights?: ColumnWeights): Layer.Layer<LexicalIndex, LexicalIndexError> =>
  LexicalIndexPg.layer(weights === undefined ? {} : { weights }).pipe(
    Layer.provide(seeded(coldBuild(chunks))),
    Layer.catchCause((cause) => Layer.effect(LexicalIndex, Effect.fail(asLexicalError(cause.reasons[0] !== undefined && "error" in cause.reasons[0] ? cause.reasons[0].error : cause))))
  )

const EMBEDDED = softwareChunks()
const LSA_MODEL = Lsa.train(EMBEDDED.map((chunk) => chunk.text), { latentDimension: 48, seed: 7 })
const LSA_ENCODER = Lsa.encoder(LSA_MODEL)
const HASHING = Hashing.make(64)

/** The Embedder restored from a repository of its own whose every chunk `embed` wrote under `model`. */
const restoredEmbedder = (model: VectorModel, embed: (text: string) => ReadonlyArray<number>): Layer.Layer<Embedder, unknown> =>
  // Unwrapped at each build, so each test seeds a repository key of its own.
  Layer.unwrap(Effect.sync(() =>
    EmbedderPg.layer.pipe(
      Layer.provide(IndexStorePg.layer),
      Layer.provide(seeded(coldBuild(EMBEDDED, { vectors: { model, entries: EMBEDDED.map((chunk) => ({ chunkId: chunk.id, vector: embed(chunk.text) })) } })))
    )))

describe("postgres", () => {
  storeContract("postgres", () => IndexStorePg.layer.pipe(Layer.provide(pgIndex())))
  lexicalContract("postgres", lexicalLayer)
  for (const [name, hnswMinVectors] of [["postgres", undefined], ["postgres through an HNSW index", 1]] as const) {
    vectorContract(name, (dimension, entries) =>
      VectorIndexPg.layer.pipe(
        Layer.provide(seeded(vectorBatch(dimension, entries), freshRepository(), hnswMinVectors)),
        Layer.catchCause((cause) => Layer.effect(VectorIndex, Effect.fail(asVectorError(cause.reasons[0] !== undefined && "error" in cause.reasons[0] ? cause.reasons[0].error : cause))))
      ))
  }
  candidateContract("postgres", (chunks) => CandidateStorePg.layer.pipe(Layer.provide(seeded(coldBuild(chunks)))))
  symbolContract("postgres", (chunks) => SymbolIndexPg.layer.pipe(Layer.provide(seeded(coldBuild(chunks)))))
  graphContract("postgres", (edges) => {
    const from = [...new Set(edges.map((edge) => edge.from))]
    const chunks = from.map((note) => makeChunk({ id: `${note}#lead` }))
    return GraphStorePg.layer.pipe(Layer.provide(seeded(coldBuild(chunks, { relations: { from, edges } }))))
  })
  healthContract("postgres", (build) => {
    const chunks = Array.from({ length: build.chunkCount }, (_, i) => makeChunk({ id: `notes/n${i}.md#a` }))
    const vectors = build.embeddedCount === undefined
      ? {}
      : { vectors: { model: { id: "test/a", version: "1", dimension: 2 }, entries: chunks.slice(0, build.embeddedCount).map((chunk, i) => ({ chunkId: chunk.id, vector: [1, i] })) } }
    return IndexHealthPg.layer.pipe(Layer.provide(seeded(coldBuild(chunks, { ...vectors, manifest: { ...MANIFEST, builtAt: build.builtAt } }))))
  })
  embedderContract(
    "postgres, latent semantic model stored in the index",
    restoredEmbedder({ id: LSA_ENCODER.id, version: LSA_ENCODER.version, dimension: LSA_ENCODER.dimension, model: Lsa.encodeModel(LSA_MODEL) }, LSA_ENCODER.embedOne)
  )
  embedderContract("postgres, hashing", restoredEmbedder({ id: HASHING.id, version: HASHING.version, dimension: HASHING.dimension }, HASHING.embedOne))
})

if (!server.inProcess) {
  consistentContract("postgres", Layer.unwrap(Effect.sync(() => {
    const repository = freshRepository()
    const writer = Layer.effect(OtherWriter, Effect.service(IndexStore)).pipe(Layer.provide(Layer.fresh(IndexStorePg.layer)), Layer.provide(Layer.fresh(pgIndex(repository))))
    const reading = Layer.mergeAll(ConsistentReadPg.layer, IndexStorePg.layer).pipe(Layer.provide(Layer.fresh(pgIndex(repository))))
    return reading.pipe(Layer.provideMerge(writer))
  })))
}

const FILTERS: ReadonlyArray<RetrievalFilter> = [
  {},
  { types: ["decision", "convention"] },
  { paths: ["notes/caching.md", "notes/retries.md", "notes/secrets.md"] },
  { includeSuperseded: true }
]

describe("postgres against the reference", () => {
  it.effect("lexical - the reference's top 10, scores and order, on the fixed query set under every filter", () =>
    Effect.gen(function*() {
      const chunks = softwareChunks()
      const memory = yield* LexicalIndexMemory.make(chunks)
      const context = yield* Layer.build(lexicalLayer(chunks))
      const postgres = Context.get(context, LexicalIndex)
      for (const filter of FILTERS) {
        for (const query of SOFTWARE_QUERIES) {
          const expected: ReadonlyArray<LexicalHit> = yield* memory.search(query, 10, filter)
          const actual = yield* postgres.search(query, 10, filter)
          assert.deepStrictEqual(actual, expected, `${query} ${JSON.stringify(filter)}`)
        }
      }
      const words = ["cache", "retries", "secret", "zzzunheard", "the"]
      assert.deepStrictEqual(yield* postgres.documentFrequencies(words, 3), yield* memory.documentFrequencies(words, 3))
    }), 120_000)

  it.effect.each([["exact", undefined], ["through an HNSW index where pgvector is", 1]] as const)("vector - the reference's nearest, exact scores, under every filter, %s", ([, hnswMinVectors]) =>
    Effect.gen(function*() {
      const chunks = softwareChunks().slice(0, 60)
      let state = 7
      const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5
      const entries = chunks.map((chunk) => ({ chunk, vector: Array.from(Float32Array.from({ length: 8 }, next)) }))
      const memory = yield* VectorIndexMemory.make(8, entries.map((entry) => ({ chunk: entry.chunk, vector: entry.vector })))
      const context = yield* Layer.build(VectorIndexPg.layer.pipe(Layer.provide(seeded(vectorBatch(8, entries), freshRepository(), hnswMinVectors))))
      const postgres = Context.get(context, VectorIndex)
      for (const filter of FILTERS) {
        for (let q = 0; q < 5; q++) {
          const query = Array.from({ length: 8 }, next)
          assert.deepStrictEqual(yield* postgres.nearest(query, 10, filter), yield* memory.nearest(query, 10, filter))
        }
      }
    }), 120_000)

  it.effect("vector - an HNSW index from hnswMinVectors on, in the space's dimension, read by a question, gone below it", () =>
    Effect.gen(function*() {
      const repository = freshRepository()
      const entriesOf = (count: number, dimension: number) =>
        softwareChunks().slice(0, count).map((chunk, i) => ({ chunk, vector: Array.from({ length: dimension }, (_, j) => Math.cos(i * 7 + j)) }))
      const pg = Context.get(yield* Layer.build(pgIndex(repository, 20)), PgIndex.PgIndex)
      const store = yield* IndexStorePg.make.pipe(Effect.provideService(PgIndex.PgIndex, pg))
      yield* store.write(vectorBatch(8, entriesOf(19, 8)))
      assert.isUndefined(yield* PgHnsw.present(pg.sql, repository), "below the size, search stays exact")
      const twenty = entriesOf(20, 8)
      yield* store.write(vectorBatch(8, twenty))
      const built = yield* PgHnsw.present(pg.sql, repository)
      if (pg.vectors === "real[]") {
        assert.isUndefined(built, "a server without pgvector builds none")
        return
      }
      assert.strictEqual(built, PgHnsw.indexName(repository, 8))
      const vectors = Context.get(yield* Layer.build(VectorIndexPg.layer.pipe(Layer.provideMerge(Layer.succeed(PgIndex.PgIndex, pg)))), VectorIndex)
      const hits = yield* vectors.nearest(twenty[3]!.vector, 5, {})
      assert.strictEqual(hits[0]!.id, twenty[3]!.chunk.id)
      // The question's form matches the index (its expression and predicate): with scans and sorts
      // priced out, as at a size where they cost more than the index, the plan reads it.
      const [plan] = yield* pg.sql.withTransaction(Effect.andThen(
        pg.sql.unsafe("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true)"),
        pg.sql.unsafe<{ plan: string }>(
        `EXPLAIN (FORMAT JSON) SELECT v.chunk_id FROM cairn_vectors v JOIN cairn_chunks c ON c.repository = v.repository AND c.id = v.chunk_id ` +
          `WHERE ${PgHnsw.predicate("v.", repository, 8)} ORDER BY ${PgHnsw.distance("v.embedding", `'[${twenty[3]!.vector.join(",")}]'`, 8)} LIMIT 21`
      ))).pipe(Effect.map((rows) => rows.map((row) => ({ plan: JSON.stringify(row) }))))
      assert.include(plan!.plan, built!)
      // Another space's dimension: the index follows it; fewer vectors than the size: none.
      yield* store.write({ ...vectorBatch(4, entriesOf(20, 4)), replaceAll: true })
      assert.strictEqual(yield* PgHnsw.present(pg.sql, repository), PgHnsw.indexName(repository, 4))
      yield* store.write({ ...vectorBatch(4, entriesOf(5, 4)), replaceAll: true })
      assert.isUndefined(yield* PgHnsw.present(pg.sql, repository))
    }), 120_000)

  it.effect("vector - a live layer refuses to search once another writer re-embeds the repository with another model", () =>
    Effect.gen(function*() {
      const entries = softwareChunks().slice(0, 6).map((chunk, i) => ({ chunk, vector: Array.from({ length: 4 }, (_, j) => Math.cos(i * 3 + j)) }))
      const pg = Context.get(yield* Layer.build(pgIndex()), PgIndex.PgIndex)
      const store = yield* IndexStorePg.make.pipe(Effect.provideService(PgIndex.PgIndex, pg))
      yield* store.write(vectorBatch(4, entries))
      const vectors = Context.get(yield* Layer.build(VectorIndexPg.layer.pipe(Layer.provideMerge(Layer.succeed(PgIndex.PgIndex, pg)))), VectorIndex)
      assert.strictEqual((yield* vectors.nearest(entries[2]!.vector, 3, {}))[0]!.id, entries[2]!.chunk.id)
      // Same dimension, another model: its vectors are not the question's space.
      yield* store.write({
        ...coldBuild(entries.map((entry) => entry.chunk), {
          vectors: { model: { id: "test/other", version: "2", dimension: 4 }, entries: entries.map((entry) => ({ chunkId: entry.chunk.id, vector: [...entry.vector].reverse() })) }
        }),
        replaceAll: true
      })
      const error = yield* Effect.flip(vectors.nearest(entries[2]!.vector, 3, {}))
      assert.include(error.message, "the vector model changed from test/fixed@1")
      const again = yield* Effect.flip(vectors.vectorsOf([entries[0]!.chunk.id]))
      assert.include(again.message, "changed")
    }), 120_000)

  it.effect.each(["succeeds", "fails"] as const)("legs - one question's legs end in any order on its transaction, the first %s, and it reads on", (first) =>
    Effect.gen(function*() {
      const { sql } = Context.get(yield* Layer.build(pgIndex()), PgIndex.PgIndex)
      const guard = abandonable(sql)
      const read = sql<{ one: number }>`SELECT 1 AS one`
      const gates = yield* Effect.all([Deferred.make<void>(), Deferred.make<void>(), Deferred.make<void>(), Deferred.make<void>()])
      const [aStarted, bStarted, aGo, bGo] = gates
      const leg = (started: Deferred.Deferred<void>, go: Deferred.Deferred<void>, fail: boolean) =>
        guard(Effect.gen(function*() {
          yield* Deferred.succeed(started, undefined)
          yield* Deferred.await(go)
          // A statement the server refuses aborts the transaction, as a cancelled one does.
          if (fail) yield* sql`SELECT 1 / 0`
          return (yield* read)[0]!.one
        }))
      const outcome = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`
        // A sets its savepoint, then B its own after it; A ends first, then B.
        const a = yield* Effect.forkChild(Effect.exit(leg(aStarted, aGo, first === "fails")))
        yield* Deferred.await(aStarted)
        const b = yield* Effect.forkChild(Effect.exit(leg(bStarted, bGo, false)))
        yield* Deferred.await(bStarted)
        yield* Deferred.succeed(aGo, undefined)
        const aExit = yield* Fiber.join(a)
        yield* Deferred.succeed(bGo, undefined)
        const bExit = yield* Fiber.join(b)
        return { aExit, bExit, after: (yield* read)[0]!.one }
      }))
      assert.strictEqual(outcome.aExit._tag, first === "fails" ? "Failure" : "Success")
      assert.deepStrictEqual(outcome.bExit, Exit.succeed(1))
      assert.strictEqual(outcome.after, 1)
    }), 60_000)

  it.effect("schema - repositories share one database and never each other's rows", () =>
    Effect.gen(function*() {
      const a = yield* Layer.build(CandidateStorePg.layer.pipe(Layer.provide(seeded(coldBuild([makeChunk({ id: "docs/a.md#x", text: "alpha" })]), "shared@main"))))
      const b = yield* Layer.build(CandidateStorePg.layer.pipe(Layer.provide(seeded(coldBuild([makeChunk({ id: "docs/b.md#x", text: "beta" })]), "shared@feature"))))
      const { CandidateStore } = yield* Effect.promise(() => import("../../src/ports/CandidateStore.ts"))
      assert.deepStrictEqual((yield* Context.get(a, CandidateStore).notes({})).map((note) => note.id), ["docs/a.md"])
      assert.deepStrictEqual((yield* Context.get(b, CandidateStore).notes({})).map((note) => note.id), ["docs/b.md"])
    }), 60_000)
})
