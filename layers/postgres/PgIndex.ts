/**
 * A shared index on PostgreSQL as a scoped resource: a pool of connections (Effect's `SqlClient`
 * over `@effect/sql-pg`), the schema migrated to this cairn's, and the one repository (and branch)
 * this set reads and writes. Many repositories share one database: every row is keyed by its
 * repository, so one server serves a team. Vectors are pgvector's `vector` where the server has the
 * extension, `real[]` searched exactly where it has not (Debian 12's PostgreSQL 15 ships none);
 * `vectors` says which. A database migrated by a newer cairn is refused before anything is read.
 */
import type * as SqlPg from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DatabaseError } from "../sqlite/DatabaseError.ts"
import * as PgHnsw from "./PgHnsw.ts"
import { migrate } from "./PgSchema.ts"
import { describeStore } from "./StoreUrl.ts"

export type VectorStorage = "pgvector" | "real[]"

export interface PgIndexShape {
  readonly sql: SqlClient
  /** The key of this set's rows: a repository and branch (`name@branch`). */
  readonly repository: string
  readonly vectors: VectorStorage
  /** With pgvector, the repository size from which its vectors are searched through an HNSW index (PgHnsw.ts). */
  readonly hnswMinVectors: number
  /** Where the index is, for messages: the URL without its password, and the repository. */
  readonly location: string
}

export class PgIndex extends Context.Service<PgIndex, PgIndexShape>()("cairn/layers/postgres/PgIndex") {}

export interface PgOptions {
  /** `postgres://user[:password]@host[:port]/database`; the password may come from `PGPASSWORD` instead. */
  readonly url: string
  readonly repository: string
  readonly maxConnections?: number
  /** With pgvector, how many vectors a repository holds before they get an HNSW index; `Infinity` keeps search exact. */
  readonly hnswMinVectors?: number
}

/** The message, and its cause's: a failed statement says which server error it met, not only "Query failed". */
export const message = (error: unknown): string => {
  const own = error instanceof Error ? error.message : String(error)
  const cause = typeof error === "object" && error !== null && "cause" in error ? error.cause : undefined
  if (cause === undefined) return own
  const inner = message(cause)
  return own.includes(inner) ? own : `${own}: ${inner}`
}

/**
 * `@effect/sql-pg` is an optional peer: named through a variable so that a bundler leaves it to be
 * found where the bundle runs, instead of hoisting it into a static import every user must install.
 */
const sqlPgPackage = "@effect/sql-pg"

/** Connects and migrates; a server that cannot be reached or a newer schema fails as a `DatabaseError`. */
export const layer = (options: PgOptions): Layer.Layer<PgIndex, DatabaseError> => {
  const location = `${describeStore(options.url)}#${options.repository}`
  const open = Effect.gen(function*() {
    const sql = yield* SqlClient
    const vectors = yield* migrate.pipe(
      Effect.mapError((error) =>
        error._tag === "SchemaTooNew"
          ? new DatabaseError({ reason: "schema_too_new", path: location, detail: error.detail })
          : new DatabaseError({ reason: "open_failed", path: location, detail: message(error) })
      )
    )
    return PgIndex.of({ sql, repository: options.repository, vectors, location, hnswMinVectors: options.hnswMinVectors ?? PgHnsw.DEFAULT_MIN_VECTORS })
  })
  const password = process.env.PGPASSWORD
  const client = Layer.unwrap(
    Effect.tryPromise({
      try: () => import(sqlPgPackage) as Promise<typeof SqlPg>,
      catch: (error) =>
        new DatabaseError({
          reason: "open_failed",
          path: location,
          detail: `${message(error)}; install @effect/sql-pg beside cairn to use a PostgreSQL store`
        })
    }).pipe(Effect.map(({ PgClient }) =>
      PgClient.layer({
        url: Redacted.make(options.url),
        ...(password === undefined || new URL(options.url).password !== "" ? {} : { password: Redacted.make(password) }),
        maxConnections: options.maxConnections ?? 8
      })
    ))
  )
  return Layer.effect(PgIndex, open).pipe(
    Layer.provide(client),
    Layer.catchTag("SqlError", (error) =>
      Layer.effect(PgIndex, Effect.fail(new DatabaseError({ reason: "open_failed", path: location, detail: message(error) }))))
  )
}
