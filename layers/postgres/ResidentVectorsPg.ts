/**
 * A repository's vectors held in the reader's memory, for a server without pgvector. PostgreSQL
 * has no fast dot product over `real[]`: a cosine in SQL over every stored vector took 295 ms at
 * 10,000 chunks of 256 dimensions, past a question's deadline, where the same scan over one
 * Float32Array takes a few milliseconds. The vectors are read once per index generation, in
 * PostgreSQL's binary array form (`array_send`), with what the retrieval filter reads of their
 * chunks, so the filter is applied before the cut as the port promises.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { instantMillis } from "../../src/domain/Instant.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"

export interface Resident {
  readonly generation: number
  readonly dimension: number
  readonly ids: ReadonlyArray<string>
  readonly paths: ReadonlyArray<string>
  readonly types: ReadonlyArray<string>
  readonly superseded: Uint8Array
  readonly createdMs: Float64Array
  /** The vectors, row after row. */
  readonly vectors: Float32Array
}

/** Above this many stored floats (256 MiB) the vectors stay on the server, which scans them itself. */
export const MAX_FLOATS = 64 * 1024 * 1024

/** The components of a one-dimensional `real[]` in binary form: a 20-byte header, then per element its length and a big-endian float4. */
const decode = (bytes: Uint8Array, into: Float32Array, offset: number, dimension: number): boolean => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength !== 20 + 8 * dimension || view.getInt32(0) !== 1 || view.getInt32(12) !== dimension) return false
  for (let j = 0; j < dimension; j++) into[offset + j] = view.getFloat32(20 + 8 * j + 4)
  return true
}

export const load = Effect.fn("ResidentVectorsPg.load")(function*(
  sql: SqlClient,
  repository: string,
  generation: number,
  dimension: number
): Effect.fn.Return<Resident, SqlError | Error> {
  const rows = yield* sql.unsafe<{ id: string; path: string; note_type: string; superseded: boolean; created_ms: number; embedding: Uint8Array }>(
    "SELECT v.chunk_id AS id, c.path, c.note_type, c.superseded, c.created_ms, array_send(v.embedding) AS embedding " +
      "FROM cairn_vectors v JOIN cairn_chunks c ON c.repository = v.repository AND c.id = v.chunk_id WHERE v.repository = $1 ORDER BY v.chunk_id",
    [repository]
  )
  const vectors = new Float32Array(rows.length * dimension)
  const superseded = new Uint8Array(rows.length)
  const createdMs = new Float64Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    if (!decode(row.embedding, vectors, i * dimension, dimension)) return yield* Effect.fail(new Error(`the stored vector of ${row.id} is not ${dimension} floats`))
    superseded[i] = row.superseded ? 1 : 0
    createdMs[i] = Number(row.created_ms)
  }
  return {
    generation,
    dimension,
    ids: rows.map((row) => row.id),
    paths: rows.map((row) => row.path),
    types: rows.map((row) => row.note_type),
    superseded,
    createdMs,
    vectors
  }
})

/** The filter over resident rows, clause for clause as PgFilter.chunkClause says it in SQL. */
export const admits = (resident: Resident, filter: RetrievalFilter): (row: number) => boolean => {
  const types = filter.types !== undefined && filter.types.length > 0 ? new Set<string>(filter.types) : undefined
  const since = filter.since === undefined ? Number.NaN : instantMillis(filter.since)
  const prefixes = (filter.paths ?? []).map((prefix) => (prefix.endsWith("/") ? prefix.slice(0, -1) : prefix))
  const byPath = prefixes.length > 0 && !prefixes.includes("")
  return (row) => {
    if (filter.includeSuperseded !== true && resident.superseded[row] === 1) return false
    if (types !== undefined && !types.has(resident.types[row]!)) return false
    if (!Number.isNaN(since) && !(resident.createdMs[row]! >= since)) return false
    if (byPath) {
      const path = resident.paths[row]!
      if (!prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false
    }
    return true
  }
}
