/**
 * The `EmbeddingCache` in a SQLite file of its own beside the index (`.cairn/embeddings.sqlite`):
 * apart from the index, so a rebuild that replaces the index, or a run that fails and rolls back,
 * keeps every vector a model returned. Each `put` commits at once. Nothing in the file is needed
 * to answer, so deleting it costs only the requests to embed its texts again.
 */
import { Effect, Layer } from "effect"
import * as NodePath from "node:path"
import * as NodeFs from "node:fs"
import { type CacheSpace, EmbeddingCache, EmbeddingCacheError } from "../../src/ports/EmbeddingCache.ts"
import { DatabaseSync } from "./NodeSqlite.ts"

export const defaultPath = (root: string): string => NodePath.join(root, ".cairn", "embeddings.sqlite")

/** Hashes looked up per statement, under SQLite's limit on bound parameters. */
const LOOKUP_STEP = 500

const spaceKey = (space: CacheSpace): string => `${space.modelId}\u0000${space.version}\u0000${space.dimension}`

const asFloat32 = (blob: Uint8Array, dimension: number): Float32Array | undefined => {
  if (blob.byteLength !== dimension * 4) return undefined
  // A copy, aligned: the blob's buffer may be shared or unaligned.
  return new Float32Array(blob.slice().buffer)
}

export const make = Effect.fnUntraced(function*(path: string) {
  const failure = (error: unknown) => new EmbeddingCacheError({ path, detail: error instanceof Error ? error.message : String(error) })
  const connection = yield* Effect.acquireRelease(
    Effect.try({
      try: () => {
        NodeFs.mkdirSync(NodePath.dirname(path), { recursive: true })
        const db = new DatabaseSync(path)
        try {
          db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;")
          db.exec("CREATE TABLE IF NOT EXISTS vectors (space TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (space, hash)) WITHOUT ROWID")
        } catch (error) {
          db.close()
          throw error
        }
        return db
      },
      catch: failure
    }),
    (db) => Effect.sync(() => db.close())
  )
  const insert = connection.prepare("INSERT OR IGNORE INTO vectors (space, hash, vector) VALUES (?, ?, ?)")
  return EmbeddingCache.of({
    get: (space, hashes) =>
      Effect.try({
        try: () => {
          const key = spaceKey(space)
          const found = new Map<string, Float32Array>()
          for (let start = 0; start < hashes.length; start += LOOKUP_STEP) {
            const step = hashes.slice(start, start + LOOKUP_STEP)
            const rows = connection.prepare(`SELECT hash, vector FROM vectors WHERE space = ? AND hash IN (${step.map(() => "?").join(",")})`)
              .all(key, ...step) as Array<{ hash: string; vector: Uint8Array }>
            for (const row of rows) {
              const vector = asFloat32(row.vector, space.dimension)
              if (vector !== undefined) found.set(row.hash, vector)
            }
          }
          return found as ReadonlyMap<string, Float32Array>
        },
        catch: failure
      }),
    put: (space, entries) =>
      Effect.try({
        try: () => {
          const key = spaceKey(space)
          connection.exec("BEGIN IMMEDIATE")
          try {
            for (const [hash, vector] of entries) {
              const bytes = vector instanceof Float32Array ? vector : Float32Array.from(vector)
              insert.run(key, hash, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
            }
            connection.exec("COMMIT")
          } catch (error) {
            connection.exec("ROLLBACK")
            throw error
          }
        },
        catch: failure
      })
  })
})

export const layer = (path: string): Layer.Layer<EmbeddingCache, EmbeddingCacheError> => Layer.effect(EmbeddingCache, make(path))
