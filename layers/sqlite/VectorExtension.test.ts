/**
 * The index file where sqlite-vec cannot load (a platform its package has no build for): it opens
 * without vectors, the lexical side reads and writes as ever, and vectors already stored are
 * neither lost nor given to another chunk.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as NodePath from "node:path"
import type { DatabaseSync } from "node:sqlite"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as Database from "./Database.ts"
import * as IndexHealthSqlite from "./IndexHealthSqlite.ts"
import type { IndexWrite, VectorModel } from "../../src/ports/IndexStore.ts"
import { IndexWriteError } from "../../src/ports/IndexStore.ts"
import * as VectorIndexSqlite from "./VectorIndexSqlite.ts"
import { BUILT_AT, coldBuild, MANIFEST, openSeeded, tempDir, write } from "./testing/Fixtures.ts"

const CHUNKS = softwareChunks().slice(0, 60)
const MODEL: VectorModel = { id: "test/a", version: "1", dimension: 4 }

const vectorOf = (i: number): Array<number> => [1, i + 1, (i * 7) % 5, 1 / (i + 1)]

/** The two ways the extension fails to load: the package throws, or the library does not load. */
const UNLOADABLE = {
  "the package has no build for this platform": Layer.succeed(Database.VectorExtension, {
    loadablePath: () => {
      throw new Error("Unsupported platform for sqlite-vec, on a linux-riscv64 machine")
    }
  }),
  "the library does not load": Layer.succeed(Database.VectorExtension, { loadablePath: () => "/nonexistent/vec0" })
}
const withoutExtension = UNLOADABLE["the package has no build for this platform"]

/** Each stored vector by the id of the chunk whose row it sits on, read with sqlite-vec loaded. */
const vectorsByChunk = (db: DatabaseSync): Map<string, string> =>
  new Map((db.prepare("SELECT c.id AS id, vec_to_json(v.embedding) AS v FROM chunk_vectors v JOIN chunks c ON c.row = v.rowid").all() as Array<{ id: string; v: string }>)
    .map((row) => [row.id, row.v]))

const vectorRows = (db: DatabaseSync): number => Number((db.prepare("SELECT count(*) AS n FROM chunk_vectors_rowids").get() as { n: number }).n)

const ftsRows = (db: DatabaseSync, word: string): Array<number> =>
  (db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid").all(word) as Array<{ rowid: number }>).map((row) => row.rowid)

const rowOf = (db: DatabaseSync, id: string): number | undefined => (db.prepare("SELECT row FROM chunks WHERE id = ?").get(id) as { row: number } | undefined)?.row

describe("Database without sqlite-vec", () => {
  for (const [why, layer] of Object.entries(UNLOADABLE)) {
    it.effect(`open - ${why}: the file opens with its schema, says why vectors are off, and the vector index says it in one line`, () =>
      Effect.gen(function*() {
        const database = yield* Database.open({ path: NodePath.join(yield* tempDir, "index.sqlite") })
        assert.include(database.vectorsUnavailable, "sqlite-vec")
        yield* write(database, coldBuild(CHUNKS))
        const error = yield* Effect.flip(VectorIndexSqlite.make.pipe(Effect.provideService(Database.Database, database)))
        assert.instanceOf(error, VectorIndexError)
        assert.strictEqual(error.reason, "extension_missing")
        assert.match(error.message, /^vector index: the sqlite-vec extension could not be loaded \(.+\); dense search is off and answers come from the lexical legs$/)
        const health = yield* IndexHealthSqlite.make.pipe(Effect.provideService(Database.Database, database))
        assert.strictEqual((yield* health.read(Date.parse(BUILT_AT))).denseUnavailable, database.vectorsUnavailable)
      }).pipe(Effect.provide(layer)))
  }

  it.effect("write - chunks and full-text search are written as ever; a batch with vectors is refused untouched, in one line", () =>
    Effect.gen(function*() {
      const database = yield* Database.open({ path: ":memory:" })
      const summary = yield* write(database, coldBuild(CHUNKS))
      assert.deepStrictEqual([summary.chunkCount, summary.embeddedCount], [CHUNKS.length, 0])
      assert.isNotEmpty(ftsRows(database.connection, "cache"))
      const error = yield* Effect.flip(write(database, {
        chunks: [{ ...CHUNKS[0]!, text: "rewritten" }],
        vectors: { model: MODEL, entries: [{ chunkId: CHUNKS[0]!.id, vector: vectorOf(0) }] },
        manifest: MANIFEST
      }))
      assert.instanceOf(error, IndexWriteError)
      assert.strictEqual(error.reason, "vectors_unavailable")
      assert.notInclude(error.message, "\n")
      assert.include(error.message, "sqlite-vec")
      assert.strictEqual((database.connection.prepare("SELECT text FROM chunks WHERE id = ?").get(CHUNKS[0]!.id) as { text: string }).text, CHUNKS[0]!.text)
    }).pipe(Effect.provide(withoutExtension)))

  it.effect("write - an index with vectors, written without sqlite-vec, keeps every vector on its chunk and gives none to another; the next write with it removes what was left", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const seed = CHUNKS.slice(0, 50)
      const { before, highestId } = yield* Effect.scoped(Effect.gen(function*() {
        const database = yield* openSeeded(coldBuild(seed, {
          vectors: { model: MODEL, entries: seed.map((chunk, i) => ({ chunkId: chunk.id, vector: vectorOf(i) })) }
        }), path)
        const highest = database.connection.prepare("SELECT id FROM chunks ORDER BY row DESC LIMIT 1").get() as { id: string }
        return { before: vectorsByChunk(database.connection), highestId: highest.id }
      }))
      const last = seed.find((chunk) => chunk.id === highestId)!
      const [edited, retyped, same] = seed.filter((chunk) => chunk !== last).slice(3, 6).map((chunk, i): Chunk =>
        i === 0 ? { ...chunk, text: `${chunk.text} Edited since.`, contentSha: "edited-sha" }
          : i === 1 ? { ...chunk, noteType: chunk.noteType === "decision" ? "convention" : "decision" }
          : chunk) as [Chunk, Chunk, Chunk]
      const added: ReadonlyArray<Chunk> = CHUNKS.slice(50, 53)
      const batch: IndexWrite = {
        // The chunk on the highest row goes, so a new row would take its place but for the guard.
        deleteChunks: [last.id as ChunkId],
        chunks: [edited, retyped, same, ...added],
        manifest: { ...MANIFEST, builtAt: "2025-03-02T12:00:00Z" }
      }

      yield* Effect.scoped(Effect.gen(function*() {
        const database = yield* Database.open({ path })
        const highest = rowOf(database.connection, last.id)!
        const summary = yield* write(database, batch)
        // Every new or moved row sits above every row vec0 holds.
        for (const chunk of [edited, retyped, ...added]) assert.isAbove(rowOf(database.connection, chunk.id)!, highest)
        assert.deepStrictEqual([summary.chunkCount, summary.embeddedCount], [seed.length - 1 + added.length, seed.length - 3])
        assert.deepStrictEqual(ftsRows(database.connection, "edited"), [rowOf(database.connection, edited.id)])
      }).pipe(Effect.provide(withoutExtension)))

      const database = yield* Database.open({ path })
      const after = vectorsByChunk(database.connection)
      // Untouched chunks and the one rewritten as it was keep their vectors; none is attached to a
      // chunk it was not computed for; the moved and the new have none yet.
      for (const chunk of seed) {
        if (chunk === last || chunk.id === edited.id || chunk.id === retyped.id) continue
        assert.strictEqual(after.get(chunk.id), before.get(chunk.id), chunk.id)
      }
      for (const chunk of [edited, retyped, ...added]) assert.isFalse(after.has(chunk.id), chunk.id)
      assert.strictEqual(vectorRows(database.connection), seed.length)
      const search = yield* VectorIndexSqlite.make.pipe(Effect.provideService(Database.Database, database))
      assert.strictEqual((yield* search.nearest(vectorOf(seed.indexOf(same)), 1, {}))[0]?.id, same.id)

      // With sqlite-vec again, the next write removes the vectors whose chunks are gone.
      const summary = yield* write(database, { chunks: [same], manifest: { ...MANIFEST, builtAt: "2025-03-03T12:00:00Z" } })
      assert.strictEqual(vectorRows(database.connection), seed.length - 3)
      assert.strictEqual(summary.embeddedCount, seed.length - 3)
      assert.strictEqual((database.connection.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check, "ok")
    }))

  it.effect("write - a cold build without sqlite-vec forgets the space of the chunks it replaced, and with it the next vectors make a new one", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const seed = CHUNKS.slice(0, 30)
      yield* Effect.scoped(openSeeded(coldBuild(seed, {
        vectors: { model: MODEL, entries: seed.map((chunk, i) => ({ chunkId: chunk.id, vector: vectorOf(i) })) }
      }), path))
      yield* Effect.scoped(Effect.gen(function*() {
        const database = yield* Database.open({ path })
        const summary = yield* write(database, coldBuild(CHUNKS.slice(20, 60)))
        assert.deepStrictEqual([summary.chunkCount, summary.embeddedCount], [40, 0])
        assert.deepStrictEqual(database.connection.prepare("SELECT * FROM vector_space").all(), [])
      }).pipe(Effect.provide(withoutExtension)))
      const database = yield* Database.open({ path })
      assert.deepStrictEqual(vectorsByChunk(database.connection), new Map())
      const summary = yield* write(database, {
        chunks: [CHUNKS[20]!],
        vectors: { model: MODEL, entries: [{ chunkId: CHUNKS[20]!.id, vector: vectorOf(0) }] },
        manifest: MANIFEST
      })
      assert.deepStrictEqual([summary.embeddedCount, vectorRows(database.connection)], [1, 1])
    }))
})
