import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { instantMillis } from "../../src/domain/Instant.ts"
import { IndexHealthError } from "../../src/ports/IndexHealth.ts"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import { contract } from "../contracts/IndexHealth.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as Database from "./Database.ts"
import * as IndexHealthSqlite from "./IndexHealthSqlite.ts"
import { BUILT_AT, coldBuild, MANIFEST, openSeeded, seeded, write } from "./testing/Fixtures.ts"

const CHUNKS = softwareChunks().slice(0, 40)
const MODEL = { id: "test/a", version: "1", dimension: 2 }
const BUILT = instantMillis(BUILT_AT)

const healthOf = (database: Database.DatabaseShape) => IndexHealthSqlite.make.pipe(Effect.provideService(Database.Database, database))

contract("sqlite", (build) => {
  const chunks = Array.from({ length: build.chunkCount }, (_, i) => makeChunk({ id: `notes/n${i}.md#a` }))
  const vectors = build.embeddedCount === undefined
    ? {}
    : { vectors: { model: MODEL, entries: chunks.slice(0, build.embeddedCount).map((chunk, i) => ({ chunkId: chunk.id, vector: [1, i] })) } }
  return IndexHealthSqlite.layer.pipe(Layer.provide(seeded(coldBuild(chunks, { ...vectors, manifest: { ...MANIFEST, builtAt: build.builtAt } }))))
})

describe("IndexHealthSqlite", () => {
  it.effect("read - coverage is embedded chunks over chunks, lag is now minus the last build", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS, {
        vectors: { model: MODEL, entries: CHUNKS.slice(0, 30).map((chunk, i) => ({ chunkId: chunk.id, vector: [1, i] })) }
      }))
      const health = yield* healthOf(database)
      assert.deepStrictEqual(yield* health.read(BUILT + 90_000), { embeddingCoverage: 0.75, lagSeconds: 90 })
      // A later commit moves both: ten more chunks without vectors, built an hour later.
      yield* write(database, { chunks: softwareChunks().slice(40, 50), manifest: { ...MANIFEST, builtAt: "2025-03-01T13:00:00Z" } })
      assert.deepStrictEqual(yield* health.read(BUILT + 3_600_000), { embeddingCoverage: 0.6, lagSeconds: 0 })
    }))

  it.effect("read - an index built without an embedder, or without chunks, is fully covered; a clock behind the build is no lag", () =>
    Effect.gen(function*() {
      const plain = yield* healthOf(yield* openSeeded(coldBuild(CHUNKS)))
      assert.deepStrictEqual(yield* plain.read(BUILT - 5_000), { embeddingCoverage: 1, lagSeconds: 0 })
      const empty = yield* healthOf(yield* openSeeded(coldBuild([], { vectors: { model: MODEL, entries: [] } })))
      assert.deepStrictEqual(yield* empty.read(BUILT + 1_000), { embeddingCoverage: 1, lagSeconds: 1 })
    }))

  it.effect("read - an index never built fails with a typed error", () =>
    Effect.gen(function*() {
      const health = yield* healthOf(yield* Database.open({ path: ":memory:" }))
      const error = yield* Effect.flip(health.read(BUILT))
      assert.instanceOf(error, IndexHealthError)
    }))
})
