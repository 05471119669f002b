/**
 * bench:hnsw — where pgvector's HNSW index starts to pay on the vector leg: the same synthetic
 * chunks (bench/syntheticIndex.ts, hashing-model vectors) written twice to one server, once searched
 * exactly and once through the index (`hnswMinVectors` 1), with each write's time, the leg's
 * p50/p95 for the nearest 50 of each question, and how many of the exact nearest 10 and 50 the
 * index finds. The server is `CAIRN_BENCH_PG_URL` when it offers pgvector, else PGlite in process
 * (PostgreSQL compiled to WebAssembly, one session: slower than a server, alike for both ways).
 * Prints figures; asserts nothing. `BENCH_SIZES` (default 10000,50000,100000) and `BENCH_QUERIES`
 * (default 60) limit the run.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { performance } from "node:perf_hooks"
import * as IndexStorePg from "../layers/postgres/IndexStorePg.ts"
import * as PgHnsw from "../layers/postgres/PgHnsw.ts"
import * as PgIndex from "../layers/postgres/PgIndex.ts"
import { start } from "../layers/postgres/testing/PgServer.ts"
import * as VectorIndexPg from "../layers/postgres/VectorIndexPg.ts"
import * as Hashing from "../src/index/HashingEmbedder.ts"
import { IndexStore, type IndexWrite } from "../src/ports/IndexStore.ts"
import { VectorIndex } from "../src/ports/VectorIndex.ts"
import { syntheticChunks, vocabulary } from "./syntheticIndex.ts"

const SIZES = (process.env.BENCH_SIZES ?? "10000,50000,100000").split(",").map(Number)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 60)
const NEAREST = 50

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const ms = (value: number) => `${value.toFixed(1)} ms`

const encoder = Hashing.make()
const model = { id: encoder.id, version: encoder.version, dimension: encoder.dimension }
const questions = Array.from({ length: QUERIES }, (_, i) =>
  encoder.embedOne(Array.from({ length: 3 + (i % 4) }, (_, w) => vocabulary[(i * 37 + w * 101) % 2_000]!).join(" ")))

const withPgvector = async () => {
  const configured = process.env.CAIRN_BENCH_PG_URL
  if (configured !== undefined && configured !== "") {
    const runtime = ManagedRuntime.make(PgIndex.layer({ url: configured, repository: "bench-probe@main", maxConnections: 1 }))
    const vectors = await runtime.runPromise(Effect.map(Effect.service(PgIndex.PgIndex), (pg) => pg.vectors))
    await runtime.dispose()
    if (vectors === "pgvector") return { url: configured, label: "PostgreSQL server with pgvector", stop: async () => {} }
  }
  const local = await start()
  return { url: local.url, label: "PGlite in process with its vector extension (one session; not a server's figures)", stop: local.stop }
}

const server = await withPgvector()
console.log(`bench:hnsw — ${server.label}, ${QUERIES} questions, nearest ${NEAREST}, hashing vectors of ${model.dimension}, Node ${process.version}`)
console.log(`size | write exact / with HNSW | exact p50 / p95 | HNSW p50 / p95 | HNSW finds of the exact nearest 10 / ${NEAREST}`)
for (const size of SIZES) {
  const chunks = syntheticChunks(size)
  const notes = [...new Set(chunks.map((c) => c.noteId))]
  const batch: IndexWrite = {
    replaceAll: true,
    chunks,
    notes: notes.map((id) => ({ id, contentHash: id })),
    vectors: { model, entries: chunks.map((c) => ({ chunkId: c.id, vector: encoder.embedOne(c.text) })) },
    manifest: { snapshotHash: "synthetic", builtAt: "2026-01-01T00:00:00Z" }
  }
  const ways = [["exact", Number.POSITIVE_INFINITY], ["hnsw", 1]] as const
  const results = new Map<string, { write: number; times: Array<number>; hits: Array<ReadonlyArray<string>> }>()
  for (const [way, hnswMinVectors] of ways) {
    const repository = `bench-hnsw-${way}-${size}@main`
    const runtime = ManagedRuntime.make(Layer.mergeAll(IndexStorePg.layer, VectorIndexPg.layer).pipe(
      Layer.provideMerge(PgIndex.layer({ url: server.url, repository, maxConnections: 1, hnswMinVectors }))
    ))
    const started = performance.now()
    // The index of the repository is the write's: the reader opens after it.
    const writer = ManagedRuntime.make(IndexStorePg.layer.pipe(Layer.provide(PgIndex.layer({ url: server.url, repository, maxConnections: 1, hnswMinVectors }))))
    await writer.runPromise(Effect.flatMap(Effect.service(IndexStore), (store) => store.write(batch)))
    const write = performance.now() - started
    await writer.dispose()
    const built = await runtime.runPromise(Effect.flatMap(Effect.service(PgIndex.PgIndex), (pg) => PgHnsw.present(pg.sql, repository)))
    if ((way === "hnsw") !== (built !== undefined)) throw new Error(`${way}: expected ${way === "hnsw" ? "an" : "no"} HNSW index, found ${built ?? "none"}`)
    const times: Array<number> = []
    const hits: Array<ReadonlyArray<string>> = []
    await runtime.runPromise(Effect.flatMap(Effect.service(VectorIndex), (index) => index.nearest(questions[0]!, NEAREST, {})))
    for (const question of questions) {
      const asked = performance.now()
      const found = await runtime.runPromise(Effect.flatMap(Effect.service(VectorIndex), (index) => index.nearest(question, NEAREST, {})))
      times.push(performance.now() - asked)
      hits.push(found.map((hit) => hit.id))
    }
    // Rows of one size go before the next size's are written.
    await runtime.runPromise(Effect.flatMap(Effect.service(IndexStore), (store) => store.write({ replaceAll: true, manifest: batch.manifest })))
    await runtime.dispose()
    results.set(way, { write, times, hits })
  }
  const exact = results.get("exact")!
  const hnsw = results.get("hnsw")!
  const found = (k: number) => {
    let shared = 0
    let total = 0
    exact.hits.forEach((ids, q) => {
      const got = new Set(hnsw.hits[q]!.slice(0, k))
      for (const id of ids.slice(0, k)) if (got.has(id)) shared++
      total += Math.min(k, ids.length)
    })
    return (shared / Math.max(1, total)).toFixed(3)
  }
  console.log(`${size} | ${ms(exact.write)} / ${ms(hnsw.write)} | ${ms(percentile(exact.times, 50))} / ${ms(percentile(exact.times, 95))} | ` +
    `${ms(percentile(hnsw.times, 50))} / ${ms(percentile(hnsw.times, 95))} | ${found(10)} / ${found(NEAREST)}`)
}
await server.stop()
