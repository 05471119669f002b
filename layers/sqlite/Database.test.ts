import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as Database from "./Database.ts"
import { DatabaseError } from "./DatabaseError.ts"
import * as LexicalIndexSqlite from "./LexicalIndexSqlite.ts"
import { BEFORE_RECORDED_FINGERPRINT } from "../../src/index/chunk/ChunkingConfig.ts"
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from "./Schema.ts"
import { coldBuild, MANIFEST, openSeeded, tempDir, write } from "./testing/Fixtures.ts"

const READER = NodePath.join(import.meta.dirname, "testing", "readIndex.ts")

const pragma = (db: DatabaseSync, name: string): unknown => (db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[name]

/** Writes a file with raw SQLite, outside cairn, to be opened afterwards. */
const rawFile = (path: string, sql: string): void => {
  const db = new DatabaseSync(path)
  db.exec(sql)
  db.close()
}

const refusal = (options: Database.OpenOptions) => Effect.flip(Effect.scoped(Database.open(options)))

const chunks = softwareChunks()

describe("Database", () => {
  it.effect("open - a fresh path gets the directory, the schema, WAL mode and the current version", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const path = Database.defaultPath(root)
      assert.strictEqual(path, NodePath.join(root, ".cairn", "index.sqlite"))
      const { connection } = yield* Database.open({ path })
      assert.strictEqual(pragma(connection, "journal_mode"), "wal")
      assert.strictEqual(pragma(connection, "user_version"), SCHEMA_VERSION)
      assert.strictEqual(pragma(connection, "application_id"), APPLICATION_ID)
      const tables = (connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name)
      for (const table of ["chunks", "chunks_fts", "manifest", "notes", "relations", "vector_space"]) assert.include(tables, table)
    }))

  it.effect("open - cairn's folder gets a .gitignore of everything, a user's own is kept, another folder gets none", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const ignore = NodePath.join(root, ".cairn", ".gitignore")
      yield* Effect.scoped(Database.open({ path: Database.defaultPath(root) }))
      assert.strictEqual(NodeFs.readFileSync(ignore, "utf8"), "*\n")
      // Found without one (an older cairn made the folder), it gets one; an edited one stays.
      NodeFs.rmSync(ignore)
      yield* Effect.scoped(Database.open({ path: Database.defaultPath(root) }))
      assert.strictEqual(NodeFs.readFileSync(ignore, "utf8"), "*\n")
      NodeFs.writeFileSync(ignore, "index.sqlite*\n")
      yield* Effect.scoped(Database.open({ path: Database.defaultPath(root) }))
      assert.strictEqual(NodeFs.readFileSync(ignore, "utf8"), "index.sqlite*\n")
      const elsewhere = NodePath.join(root, "indexes")
      yield* Effect.scoped(Database.open({ path: NodePath.join(elsewhere, "index.sqlite") }))
      assert.isFalse(NodeFs.existsSync(NodePath.join(elsewhere, ".gitignore")))
    }))

  it.effect("open - refuses a file written by a newer schema version, with a one-line message, and leaves it untouched", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      yield* Effect.scoped(openSeeded(coldBuild(chunks.slice(0, 5)), path))
      rawFile(path, `PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
      const error = yield* refusal({ path })
      assert.isTrue(error instanceof DatabaseError && error.reason === "schema_too_new")
      assert.isFalse(error.message.includes("\n"))
      const db = new DatabaseSync(path, { readOnly: true })
      assert.strictEqual(pragma(db, "user_version"), SCHEMA_VERSION + 1)
      assert.strictEqual((db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n, 5)
      db.close()
      const readOnly = yield* refusal({ path, readOnly: true })
      assert.strictEqual(readOnly.reason, "schema_too_new")
    }))

  it.effect("open - a version-1 file is read as it is, and migrated in place by a writer, its rows kept", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const old = new DatabaseSync(path)
      MIGRATIONS[0]!(old)
      old.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = 1`)
      old.exec("INSERT INTO manifest (key, generation, snapshot_hash, built_at, chunk_count, embedded_count, note_count, relation_count) VALUES (1, 3, 'abc', '2026-01-01T00:00:00Z', 0, 0, 0, 0)")
      old.close()
      const columns = (db: DatabaseSync) => (db.prepare("SELECT name FROM pragma_table_info('manifest')").all() as Array<{ name: string }>).map((row) => row.name)
      // A reader neither migrates nor needs the new column.
      const reader = yield* Effect.scoped(Effect.map(Database.open({ path, readOnly: true }), ({ connection }) => ({
        version: pragma(connection, "user_version"),
        columns: columns(connection)
      })))
      assert.strictEqual(reader.version, 1)
      assert.notInclude(reader.columns, "chunking")
      const { connection } = yield* Database.open({ path })
      assert.strictEqual(pragma(connection, "user_version"), SCHEMA_VERSION)
      assert.include(columns(connection), "chunking")
      // Built before the settings were recorded, under that time's defaults, which the step writes in.
      assert.deepStrictEqual({ ...connection.prepare("SELECT generation, snapshot_hash, chunking FROM manifest").get() }, {
        generation: 3,
        snapshot_hash: "abc",
        chunking: BEFORE_RECORDED_FINGERPRINT
      })
    }))

  it.effect("open - a version-5 file's vector space is rebuilt with terms_version before the model, its row kept", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const old = new DatabaseSync(path)
      for (const step of MIGRATIONS.slice(0, 5)) step(old)
      old.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = 5`)
      old.prepare("INSERT INTO vector_space (key, model_id, embedding_version, dimension, model, terms_version) VALUES (1, 'm', 'v', 3, ?, 'v')")
        .run("x".repeat(200_000))
      old.close()
      const columns = (db: DatabaseSync) => (db.prepare("SELECT name FROM pragma_table_info('vector_space')").all() as Array<{ name: string }>).map((row) => row.name)
      const { connection } = yield* Database.open({ path })
      assert.strictEqual(pragma(connection, "user_version"), SCHEMA_VERSION)
      // A column past the model is reached by walking the model's overflow pages on every read.
      assert.deepStrictEqual(columns(connection), ["key", "model_id", "embedding_version", "dimension", "terms_version", "model"])
      assert.deepStrictEqual({ ...connection.prepare("SELECT model_id, embedding_version, dimension, terms_version, length(model) AS bytes FROM vector_space").get() }, {
        model_id: "m",
        embedding_version: "v",
        dimension: 3,
        terms_version: "v",
        bytes: 200_000
      })
    }))

  it.effect("open - refuses what is not a cairn index: another application's database, another application id, bytes that are no database", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const foreign = NodePath.join(dir, "foreign.sqlite")
      rawFile(foreign, "CREATE TABLE accounts (id INTEGER)")
      const stranger = NodePath.join(dir, "stranger.sqlite")
      rawFile(stranger, "PRAGMA application_id = 42; PRAGMA user_version = 1; CREATE TABLE t (x)")
      const garbage = NodePath.join(dir, "garbage.sqlite")
      NodeFs.writeFileSync(garbage, "this is not a database, just text long enough to have a header ".repeat(20))
      for (const path of [foreign, stranger, garbage]) {
        const error = yield* refusal({ path })
        assert.strictEqual(error.reason, "not_an_index", path)
      }
      const untouched = new DatabaseSync(foreign)
      assert.deepStrictEqual((untouched.prepare("SELECT name FROM sqlite_master").all() as Array<{ name: string }>).map((row) => row.name), ["accounts"])
      untouched.close()
    }))

  it.effect("open - read-only opening of a missing file is `missing`, and creates nothing", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "nowhere", "index.sqlite")
      const error = yield* refusal({ path, readOnly: true })
      assert.strictEqual(error.reason, "missing")
      assert.isFalse(NodeFs.existsSync(NodePath.dirname(path)))
    }))

  it.effect("open - closing the scope closes the connection", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const scope = yield* Scope.make()
      const database = yield* Database.open({ path }).pipe(Scope.provide(scope))
      assert.isTrue(database.connection.isOpen)
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(database.connection.isOpen)
      // The last connection checkpoints and removes the write-ahead log.
      assert.isFalse(NodeFs.existsSync(`${path}-wal`))
    }))

  it.effect("concurrency - a reader keeps its snapshot while another connection commits; new reads see the commit", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const writer = yield* openSeeded(coldBuild(chunks.slice(0, 50)), path)
      const reader = yield* Database.open({ path, readOnly: true })
      const count = () => Number((reader.connection.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n)
      reader.connection.exec("BEGIN")
      assert.strictEqual(count(), 50)
      yield* write(writer, { chunks: chunks.slice(50, 60), manifest: MANIFEST })
      assert.strictEqual(count(), 50)
      reader.connection.exec("COMMIT")
      assert.strictEqual(count(), 60)
    }))

  it.effect("concurrency - two processes search one file at the same time while a third connection holds the write lock", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const writer = yield* openSeeded(coldBuild(chunks), path)
      const here = yield* LexicalIndexSqlite.make().pipe(Effect.provideService(Database.Database, yield* Database.open({ path, readOnly: true })))
      const query = "retry with exponential backoff and jitter"
      const expected = yield* here.search(query, 10, {})
      assert.isAbove(expected.length, 0)
      // An uncommitted rebuild holds the write lock while both children run.
      writer.connection.exec("BEGIN IMMEDIATE")
      writer.connection.exec("DELETE FROM chunks")
      const children = yield* Effect.promise(() => Promise.all([search(path, query), search(path, query)]))
      for (const child of children) {
        assert.strictEqual(child.status, 0, child.stderr)
        assert.deepStrictEqual(JSON.parse(child.stdout) as Array<LexicalHit>, expected)
      }
      assert.deepStrictEqual(yield* here.search(query, 10, {}), expected)
      // The lock is held until here, so a reader that waited on it would have run out its busy
      // timeout and exited with SQLITE_BUSY: the exit codes above say neither waited, however
      // long a loaded machine takes to start the processes.
      writer.connection.exec("ROLLBACK")
    }), 60_000) // starts two Node processes
})

/** Runs testing/readIndex.ts in its own process. */
const search = (path: string, query: string): Promise<{ status: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [READER, path, query])
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()))
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()))
    child.on("close", (status) => resolve({ status, stdout, stderr }))
  })
