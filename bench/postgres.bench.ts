/**
 * bench:postgres — the shared PostgreSQL index beside the embedded SQLite file, in one run, over
 * the same synthetic chunks (bench/syntheticIndex.ts) with hashing-model vectors: build time, recall
 * p50/p95 at each size, and p95 of 8 concurrent readers while a refresh rewrites 5% of the chunks.
 * The server is `CAIRN_BENCH_PG_URL` (a real one: `.ci/postgres` shows how to start a throwaway
 * cluster), else PGlite in process, which is PostgreSQL compiled to WebAssembly, serves one session
 * at a time and so says little about a server. Prints figures; asserts nothing. `BENCH_SIZES`
 * (default 10000,100000) and `BENCH_QUERIES` (default 60) limit the run.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import * as Embedded from "../layers/Embedded.ts"
import * as Postgres from "../layers/Postgres.ts"
import * as IndexStorePg from "../layers/postgres/IndexStorePg.ts"
import * as PgIndex from "../layers/postgres/PgIndex.ts"
import { start } from "../layers/postgres/testing/PgServer.ts"
import * as Database from "../layers/sqlite/Database.ts"
import * as IndexStoreSqlite from "../layers/sqlite/IndexStoreSqlite.ts"
import type { RecallServices } from "../pipelines/indexLocation.ts"
import { recall } from "../pipelines/recall.ts"
import type { Chunk } from "../src/domain/Chunk.ts"
import * as Hashing from "../src/index/HashingEmbedder.ts"
import { IndexStore, type IndexWrite } from "../src/ports/IndexStore.ts"
import { syntheticChunks, vocabulary } from "./syntheticIndex.ts"

const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 60)
const READERS = 8
const BUILT_AT = "2026-01-01T00:00:00Z"

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const ms = (value: number) => `${value.toFixed(1)} ms`

const encoder = Hashing.make()
const model = { id: encoder.id, version: encoder.version, dimension: encoder.dimension }

const batchOf = (chunks: ReadonlyArray<Chunk>): IndexWrite => {
  const notes = [...new Set(chunks.map((c) => c.noteId))]
  return {
    replaceAll: true,
    chunks,
    notes: notes.map((id) => ({ id, contentHash: id })),
    relations: { from: notes, edges: notes.slice(1).map((id, i) => ({ from: id, to: notes[i]!, verb: "links-to" })) },
    vectors: { model, entries: chunks.map((c) => ({ chunkId: c.id, vector: encoder.embedOne(c.text) })) },
    manifest: { snapshotHash: "synthetic", builtAt: BUILT_AT }
  }
}

/** A refresh: 5% of the chunks rewritten with other words, their notes re-recorded. */
const refreshOf = (chunks: ReadonlyArray<Chunk>): IndexWrite => {
  const changed = chunks.filter((_, i) => i % 20 === 0)
  const notes = new Set(changed.map((c) => c.noteId))
  const rewritten = chunks.filter((c) => notes.has(c.noteId)).map((c, i) => ({ ...c, text: `${c.text} ${vocabulary[i % 500]}`, contentSha: `r${c.contentSha.slice(1)}` }))
  return {
    chunks: rewritten,
    notes: [...notes].map((id) => ({ id, contentHash: `${id}:2` })),
    vectors: { model, entries: rewritten.map((c) => ({ chunkId: c.id, vector: encoder.embedOne(c.text) })) },
    manifest: { snapshotHash: "synthetic-2", builtAt: BUILT_AT }
  }
}

const queries = Array.from({ length: QUERIES }, (_, i) => {
  const words = 3 + (i % 4)
  return Array.from({ length: words }, (_, w) => vocabulary[(i * 37 + w * 101) % 2_000]!).join(" ")
})

const timed = async <A>(run: () => Promise<A>): Promise<number> => {
  const started = performance.now()
  await run()
  return performance.now() - started
}

interface Backend {
  readonly name: string
  readonly writer: Layer.Layer<IndexStore, unknown>
  readonly reader: Layer.Layer<RecallServices, unknown>
}

const measure = async (backend: Backend, chunks: ReadonlyArray<Chunk>) => {
  const writer = ManagedRuntime.make(backend.writer)
  const build = await timed(() => writer.runPromise(Effect.flatMap(Effect.service(IndexStore), (store) => store.write(batchOf(chunks)))))
  const reader = ManagedRuntime.make(backend.reader)
  await reader.runPromise(recall({ text: queries[0]! }))
  const alone: Array<number> = []
  for (const text of queries) alone.push(await timed(() => reader.runPromise(recall({ text }))))
  // 8 readers asking while the refresh commits; their latencies until it has.
  const during: Array<number> = []
  let writing = true
  const refresh = writer.runPromise(Effect.flatMap(Effect.service(IndexStore), (store) => store.write(refreshOf(chunks)))).finally(() => {
    writing = false
  })
  const readers = Array.from({ length: READERS }, async (_, r) => {
    for (let i = 0; writing || i < 3; i++) during.push(await timed(() => reader.runPromise(recall({ text: queries[(r * 7 + i) % queries.length]! }))))
  })
  const refreshMs = await timed(() => refresh)
  await Promise.all(readers)
  await reader.dispose()
  await writer.dispose()
  return { build, alone, during, refreshMs }
}

const server = process.env.CAIRN_BENCH_PG_URL !== undefined && process.env.CAIRN_BENCH_PG_URL !== ""
  ? { url: process.env.CAIRN_BENCH_PG_URL, inProcess: false, stop: async () => {} }
  : await start()
console.log(`bench:postgres — ${server.inProcess ? "PGlite in process (one session; not a server's figures)" : "PostgreSQL server"}, ` +
  `${QUERIES} recall queries of 3-6 words, ${READERS} readers during a 5% refresh, Node ${process.version}`)
console.log("size | backend | build | recall p50 / p95 | readers' p95 during refresh (n) | refresh")
for (const size of SIZES) {
  const chunks = syntheticChunks(size)
  const root = mkdtempSync(join(tmpdir(), "cairn-bench-pg-"))
  const path = join(root, "index.sqlite")
  const repository = `bench-${size}@main`
  const backends: ReadonlyArray<Backend> = [
    {
      name: "sqlite",
      writer: IndexStoreSqlite.layer.pipe(Layer.provide(Database.layer({ path }))),
      reader: Embedded.embedded({ root, path, readOnly: true })
    },
    {
      name: "postgres",
      writer: IndexStorePg.layer.pipe(Layer.provide(PgIndex.layer({ url: server.url, repository, maxConnections: server.inProcess ? 1 : 2 }))),
      reader: Postgres.postgres({ root, url: server.url, repository, maxConnections: server.inProcess ? 1 : READERS })
    }
  ]
  try {
    for (const backend of backends) {
      const result = await measure({ ...backend, reader: backend.reader.pipe(Layer.provideMerge(NodeServices.layer)) }, chunks)
      console.log(`${size} | ${backend.name} | ${ms(result.build)} | ${ms(percentile(result.alone, 50))} / ${ms(percentile(result.alone, 95))} | ` +
        `${ms(percentile(result.during, 95))} (${result.during.length}) | ${ms(result.refreshMs)}`)
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
await server.stop()
