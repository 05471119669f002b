import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodePath from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { terms } from "../../src/text/Words.ts"
import { distinctStems, passageStems, passageText } from "../../src/retrieval/terms.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as CandidateStoreSqlite from "./CandidateStoreSqlite.ts"
import * as ChunkStems from "./ChunkStems.ts"
import * as Database from "./Database.ts"
import { coldBuild, openSeeded, tempDir, write } from "./testing/Fixtures.ts"

const CHUNKS = softwareChunks()
const SENTINEL = "zzsentinelstem"

const stored = (db: DatabaseSync) =>
  new Map((db.prepare("SELECT id, stems FROM chunks").all() as Array<{ id: string; stems: string | null }>).map((row) => [row.id, row.stems] as const))

const fetched = (database: Database.DatabaseShape, ids: ReadonlyArray<string>) =>
  Effect.flatMap(CandidateStoreSqlite.make.pipe(Effect.provideService(Database.Database, database)), (store) => store.get(ids as ReadonlyArray<ChunkId>))

describe("ChunkStems", () => {
  it.effect("every chunk is stored with its distinct stems, and matching reads them instead of stemming", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS))
      const db = database.connection
      const rows = stored(db)
      assert.strictEqual(rows.size, CHUNKS.length)
      for (const chunk of CHUNKS) assert.strictEqual(rows.get(chunk.id), distinctStems(chunk).join(" "), chunk.id)
      // A stem no analysis could give, planted in one row, is what matching sees of that chunk.
      const target = CHUNKS[0]!
      db.prepare("UPDATE chunks SET stems = ? WHERE id = ?").run(`${rows.get(target.id)} ${SENTINEL}`, target.id)
      const [read] = yield* fetched(database, [target.id])
      const passage = passageStems(read!)
      assert.isTrue(passage.distinct.has(SENTINEL))
      // The order a phrase needs is analysed from the passage itself.
      assert.deepStrictEqual(passage.sequence(), terms(passageText(target)))
      // A chunk whose row was rewritten after it was read is stemmed from what it holds.
      const [again] = yield* fetched(database, [target.id])
      db.prepare("UPDATE chunks SET text = 'rewritten since' WHERE id = ?").run(target.id)
      assert.isFalse(passageStems(again!).distinct.has(SENTINEL))
      assert.deepStrictEqual(new Set(passageStems(again!).distinct), new Set(distinctStems(target)))
    }))

  it.effect("stems written under another analysis are not read, and the next write stems every chunk again", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS.slice(0, 40)))
      const db = database.connection
      db.prepare("UPDATE chunks SET stems = ?").run(SENTINEL)
      db.prepare("UPDATE manifest SET stems_version = 'another analysis'").run()
      const [read] = yield* fetched(database, [CHUNKS[0]!.id])
      assert.isFalse(passageStems(read!).distinct.has(SENTINEL))
      assert.deepStrictEqual(new Set(passageStems(read!).distinct), new Set(distinctStems(CHUNKS[0]!)))
      yield* write(database, { chunks: CHUNKS.slice(40, 42), manifest: { snapshotHash: "snapshot-2", builtAt: "2025-03-02T12:00:00Z" } })
      const rows = stored(db)
      for (const chunk of CHUNKS.slice(0, 42)) assert.strictEqual(rows.get(chunk.id), distinctStems(chunk).join(" "), chunk.id)
      assert.strictEqual((db.prepare("SELECT stems_version FROM manifest").get() as { stems_version: string }).stems_version, ChunkStems.version())
    }))

  it.effect("a file from before the column is read by stemming each passage, and a writable open fills it", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      yield* Effect.scoped(openSeeded(coldBuild(CHUNKS), path))
      // The file as schema version 4 left it.
      const old = new DatabaseSync(path)
      old.exec("ALTER TABLE chunks DROP COLUMN stems; ALTER TABLE manifest DROP COLUMN stems_version; PRAGMA user_version = 4")
      old.close()
      const ids = CHUNKS.slice(0, 5).map((chunk) => chunk.id)
      const read = yield* Effect.scoped(Effect.flatMap(Database.open({ path, readOnly: true }), (database) => fetched(database, ids)))
      read.forEach((chunk, i) => assert.deepStrictEqual(new Set(passageStems(chunk).distinct), new Set(distinctStems(CHUNKS[i]!))))
      const rows = yield* Effect.scoped(Effect.map(Database.open({ path }), (database) => stored(database.connection)))
      for (const chunk of CHUNKS) assert.strictEqual(rows.get(chunk.id), distinctStems(chunk).join(" "), chunk.id)
    }))

  it("the analysis is named by its stems of a probe, the same on every call", () => {
    assert.match(ChunkStems.version(), /^fnv1a:[0-9a-f]{8}$/)
    assert.strictEqual(ChunkStems.version(), ChunkStems.version())
    assert.deepStrictEqual(ChunkStems.decode(""), [])
    assert.deepStrictEqual(ChunkStems.decode("a b"), ["a", "b"])
  })
})
