/**
 * The vector space of an index: which model wrote its vectors (`vector_space`, one row), the
 * model's terms when it is data (LsaTerms), and the vec0 table holding the vectors. One table holds
 * one space, so vectors of two models cannot sit side by side: a model change drops the table and
 * starts another (see IndexStoreSqlite).
 */
import type { DatabaseSync } from "node:sqlite"
import type { VectorSpace } from "../../src/ports/IndexStore.ts"
import * as LsaTerms from "./LsaTerms.ts"
import { VECTOR_ROWIDS, VECTOR_TABLE } from "./Schema.ts"

export const readSpace = (db: DatabaseSync): VectorSpace | undefined => {
  const row = db.prepare("SELECT model_id, embedding_version, dimension, model FROM vector_space WHERE key = 1").get() as
    | { model_id: string; embedding_version: string; dimension: number; model: string | null }
    | undefined
  return row === undefined
    ? undefined
    : { modelId: row.model_id, version: row.embedding_version, dimension: Number(row.dimension), model: row.model }
}

/**
 * The space with its model's bytes as written, in one read. A model's text read as text is made
 * into a JS string by SQLite's driver (36 to 50 ms for a 4 MB model), where its bytes come in a
 * copy and the model decodes them faster itself (`decodeModelBytes`). `model` is null when the
 * space stores no model data.
 */
export const readSpaceBytes = (db: DatabaseSync): (Omit<VectorSpace, "model"> & { readonly model: Uint8Array | null }) | undefined => {
  const row = db.prepare("SELECT model_id, embedding_version, dimension, CAST(model AS BLOB) AS model FROM vector_space WHERE key = 1").get() as
    | { model_id: string; embedding_version: string; dimension: number; model: Uint8Array | null }
    | undefined
  return row === undefined
    ? undefined
    : { modelId: row.model_id, version: row.embedding_version, dimension: Number(row.dimension), model: row.model }
}

/**
 * The space without its model data: what a query checks before every search. The model can be
 * megabytes of text, and reading it per query cost more than the search.
 */
export const readSpaceHeader = (db: DatabaseSync): Omit<VectorSpace, "model"> | undefined => {
  const row = db.prepare("SELECT model_id, embedding_version, dimension FROM vector_space WHERE key = 1").get() as
    | { model_id: string; embedding_version: string; dimension: number }
    | undefined
  return row === undefined ? undefined : { modelId: row.model_id, version: row.embedding_version, dimension: Number(row.dimension) }
}

export const sameSpace = (a: Omit<VectorSpace, "model">, b: Omit<VectorSpace, "model">): boolean =>
  a.modelId === b.modelId && a.version === b.version && a.dimension === b.dimension

/** Drops the vectors and their space. */
export const dropSpace = (db: DatabaseSync): void => {
  db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`)
  LsaTerms.clear(db)
  db.exec("DELETE FROM vector_space")
}

/**
 * What dropping the space comes to without sqlite-vec, which alone can drop the vec0 table: the
 * space is forgotten, and the table's rows, whose chunks are all gone, wait for `dropOrphans`.
 */
export const forgetSpace = (db: DatabaseSync): void => {
  LsaTerms.clear(db)
  db.exec("DELETE FROM vector_space")
}

/** The stored vectors whose chunk row is gone (a write without sqlite-vec leaves them); needs sqlite-vec. */
export const dropOrphans = (db: DatabaseSync): void => {
  db.exec(`DELETE FROM ${VECTOR_TABLE} WHERE rowid IN (SELECT rowid FROM ${VECTOR_ROWIDS} EXCEPT SELECT row FROM chunks)`)
}

/**
 * Starts an empty space. Cosine distance in vec0; the metadata columns mirror the chunk columns
 * the retrieval filter reads, so vec0 can filter during its scan.
 */
export const createSpace = (db: DatabaseSync, space: VectorSpace): void => {
  dropSpace(db)
  db.exec(
    `CREATE VIRTUAL TABLE ${VECTOR_TABLE} USING vec0(` +
      `embedding float[${space.dimension}] distance_metric=cosine, superseded integer, note_type text, created_ms float)`
  )
  db.prepare("INSERT INTO vector_space (key, model_id, embedding_version, dimension, model) VALUES (1, ?, ?, ?, ?)")
    .run(space.modelId, space.version, space.dimension, space.model)
  LsaTerms.store(db, space.model, space.version)
}

/** Stores `model` as the current space's model data, and its terms, unless it is already the stored one. */
export const replaceModel = (db: DatabaseSync, version: string, model: string): void => {
  const changed = db.prepare("UPDATE vector_space SET model = ?1 WHERE key = 1 AND model IS NOT ?1").run(model).changes
  if (Number(changed) > 0) LsaTerms.store(db, model, version)
}

/** A vector as vec0 stores it: little-endian float32 (a Float32Array's own bytes, not copied). */
export const toBlob = (vector: ReadonlyArray<number> | Float32Array): Uint8Array =>
  vector instanceof Float32Array
    ? new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength)
    : new Uint8Array(Float32Array.from(vector).buffer)

export const fromBlob = (blob: Uint8Array): Float32Array =>
  new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength))
