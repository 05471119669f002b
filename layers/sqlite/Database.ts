/**
 * The index file as a scoped resource: one `node:sqlite` connection with sqlite-vec loaded, in WAL
 * mode with a busy timeout, so one writer and any number of readers (threads or processes) share
 * the file. Opening checks the schema version and refuses a file from a newer cairn; a fresh file
 * gets the current schema. Closing the scope closes the connection. Where sqlite-vec cannot load
 * (a platform its package has no build for), the file still opens, without its vectors: the
 * lexical side reads and writes as ever, and the shape says why dense search is off. A file not as
 * the last writable connection left it is checked before use, and a damaged one is refused as
 * `damaged` (see Damage.ts), so `cairn index` can build a new one in its place.
 */
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { DatabaseSync } from "./NodeSqlite.ts"
import * as SqliteVec from "sqlite-vec"
import { DatabaseError } from "./DatabaseError.ts"
import { hasDatabaseHeader, isCorruption, isNotADatabase, movedSinceStamp, quickCheck, recordStamp } from "./Damage.ts"
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from "./Schema.ts"

export interface DatabaseShape {
  /** Where the file is (`:memory:` for a private in-memory index). */
  readonly path: string
  readonly readOnly: boolean
  readonly connection: DatabaseSync
  /**
   * Why sqlite-vec is not loaded on this connection, when it is not: the vector table cannot be
   * read or written, so the dense leg is off and the writer stores no vectors.
   */
  readonly vectorsUnavailable: string | undefined
}

export class Database extends Context.Service<Database, DatabaseShape>()("cairn/layers/sqlite/Database") {}

export interface OpenOptions {
  readonly path: string
  /** Open for reading only: no schema is created, and a missing file is an error. */
  readonly readOnly?: boolean
  /** How long a statement waits for another connection's lock before failing; default 5,000. */
  readonly busyTimeoutMillis?: number
}

/**
 * Where the sqlite-vec loadable library is, read when a file is opened: by default the `sqlite-vec`
 * package's build for this platform, which throws on a platform it has none for. Provide another
 * to open without it (a path that fails to load, or a function that throws).
 */
export const VectorExtension = Context.Reference<{ readonly loadablePath: () => string }>("cairn/layers/sqlite/VectorExtension", {
  defaultValue: () => ({ loadablePath: () => SqliteVec.getLoadablePath() })
})

/** Where an index lives by default: `<root>/.cairn/index.sqlite`. */
export const defaultPath = (root: string): string => NodePath.join(root, ".cairn", "index.sqlite")

/** What cairn writes as `.cairn/.gitignore`: its folder holds nothing a repository should track. */
export const CAIRN_GITIGNORE = "*\n"

/**
 * Gives cairn's folder its `.gitignore`, so an indexed repository's `git status` stays clean. One
 * already there is the user's to keep: it is never overwritten.
 */
const ignoreCairnFolder = (directory: string): void => {
  try {
    NodeFs.writeFileSync(NodePath.join(directory, ".gitignore"), CAIRN_GITIGNORE, { flag: "wx" })
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") throw error
  }
}

const MEMORY = ":memory:"

const pragmaNumber = (db: DatabaseSync, name: string): number => {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined
  return Number(row?.[name] ?? 0)
}

/** Brings a file at `from` (0 for an empty file) to the current version, in one transaction. */
const migrate = (db: DatabaseSync): void => {
  db.exec("BEGIN IMMEDIATE")
  try {
    // Another process may have migrated between our check and our lock.
    for (let version = pragmaNumber(db, "user_version"); version < SCHEMA_VERSION; version++) MIGRATIONS[version]!(db)
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}`)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
    db.exec("COMMIT")
  } catch (error) {
    db.exec("ROLLBACK")
    throw error
  }
}

/** The refusal, if any, for a file at `version` with `applicationId` and `tables` objects. */
const refusal = (path: string, readOnly: boolean, version: number, applicationId: number, tables: number): DatabaseError | undefined => {
  const fail = (reason: DatabaseError["reason"], detail: string) => new DatabaseError({ reason, path, detail })
  if (version === 0) {
    if (tables > 0) return fail("not_an_index", `it holds ${tables} schema objects but no cairn schema version`)
    return readOnly ? fail("missing", "the file is empty") : undefined
  }
  if (applicationId !== APPLICATION_ID) return fail("not_an_index", `application id ${applicationId}, expected ${APPLICATION_ID}`)
  if (version > SCHEMA_VERSION) return fail("schema_too_new", `schema version ${version}, this cairn reads up to ${SCHEMA_VERSION}`)
  return undefined
}

/** Loads sqlite-vec into `db`; the reason it could not, if it could not. */
const loadVectors = (db: DatabaseSync, loadablePath: () => string): string | undefined => {
  try {
    db.loadExtension(loadablePath())
    return undefined
  } catch (error) {
    return `the sqlite-vec extension could not be loaded (${error instanceof Error ? error.message : String(error)})`
  }
}

const connect = (options: OpenOptions, loadablePath: () => string): DatabaseShape => {
  const { path } = options
  const readOnly = options.readOnly === true
  if (path !== MEMORY) {
    if (readOnly && !NodeFs.existsSync(path)) throw new DatabaseError({ reason: "missing", path, detail: "no such file" })
    if (!readOnly) {
      const directory = NodePath.dirname(path)
      NodeFs.mkdirSync(directory, { recursive: true })
      // Only cairn's own folder: an index the caller placed elsewhere lives in a directory of theirs.
      if (NodePath.basename(directory) === ".cairn") ignoreCairnFolder(directory)
    }
  }
  // Taken before the open, which may write the file (a migration, a recovered WAL).
  const suspect = path !== MEMORY && movedSinceStamp(path)
  const db = new DatabaseSync(path, { allowExtension: true, readOnly, timeout: options.busyTimeoutMillis ?? 5_000 })
  try {
    const vectorsUnavailable = loadVectors(db, loadablePath)
    db.enableLoadExtension(false)
    const version = pragmaNumber(db, "user_version")
    const tables = Number((db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n)
    const refused = refusal(path, readOnly, version, pragmaNumber(db, "application_id"), tables)
    if (refused !== undefined) throw refused
    if (suspect) {
      const findings = quickCheck(db)
      if (findings !== undefined) throw new DatabaseError({ reason: "damaged", path, detail: `quick_check: ${findings}` })
    }
    if (!readOnly) {
      // WAL lets readers proceed while a writer commits; NORMAL sync is crash-safe in WAL mode.
      db.exec("PRAGMA journal_mode = WAL")
      db.exec("PRAGMA synchronous = NORMAL")
      if (version < SCHEMA_VERSION) migrate(db)
    }
    return { path, readOnly, connection: db, vectorsUnavailable }
  } catch (error) {
    db.close()
    throw error
  }
}

const asDatabaseError = (path: string) => (error: unknown): DatabaseError => {
  if (error instanceof DatabaseError) return error
  const detail = error instanceof Error ? error.message : String(error)
  // Bytes that are no database at all are somebody's file; a database that cannot be read is damaged.
  const reason = isCorruption(error) || (isNotADatabase(error) && hasDatabaseHeader(path)) ? "damaged"
    : isNotADatabase(error) ? "not_an_index"
    : "open_failed"
  return new DatabaseError({ reason, path, detail })
}

/** Opens (creating or migrating when writable) the index at `options.path` for the enclosing scope. */
export const open = (options: OpenOptions): Effect.Effect<DatabaseShape, DatabaseError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const { loadablePath } = yield* VectorExtension
      return yield* Effect.try({ try: () => connect(options, loadablePath), catch: asDatabaseError(options.path) })
    }),
    (database) =>
      Effect.sync(() => {
        database.connection.close()
        // Closed, so the file is as this connection leaves it (its WAL checkpointed when it was the last).
        if (!database.readOnly && database.path !== MEMORY) recordStamp(database.path)
      })
  )

export const layer = (options: OpenOptions): Layer.Layer<Database, DatabaseError> => Layer.effect(Database, open(options))
