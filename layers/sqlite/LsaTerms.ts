/**
 * The corpus-trained model kept term by term (`lsa_terms`) beside the whole model in
 * `vector_space.model`, so a question reads the rows of its own few terms instead of restoring
 * megabytes of model. The rows are written with the model, in its transaction, and only for a model
 * whose fingerprint is the version its vectors were written under; `vector_space.terms_version`
 * records that version, and a reader takes the rows exactly when it is the space's version. A file
 * from before the table, or a model that failed the check, is embedded by the whole model as before.
 */
import { Option, Schema } from "effect"
import type { DatabaseSync } from "node:sqlite"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"

/** The schema version that added the table (Schema.ts). */
export const SINCE_SCHEMA = 3

export const CREATE = `
CREATE TABLE lsa_terms (
  row INTEGER PRIMARY KEY,
  term TEXT NOT NULL UNIQUE,
  idf REAL NOT NULL,
  projection BLOB NOT NULL
);
ALTER TABLE vector_space ADD COLUMN terms_version TEXT;
`

const decodeModel = Schema.decodeUnknownOption(Schema.fromJsonString(Lsa.LsaModel))

/** Forgets the stored terms: the space is gone, or its model is about to change. */
export const clear = (db: DatabaseSync): void => {
  db.exec("DELETE FROM lsa_terms")
  db.exec("UPDATE vector_space SET terms_version = NULL")
}

/**
 * Stores the terms of `model` (the model's JSON text, as `vector_space.model` holds it) for the space
 * of `version`, replacing any. A model that does not decode, or whose fingerprint is not `version`,
 * gets none: the whole-model path then says what is wrong with it, as it always did.
 */
export const store = (db: DatabaseSync, model: string | null, version: string): void => {
  clear(db)
  if (model === null) return
  const decoded = decodeModel(model)
  if (Option.isNone(decoded) || Lsa.encoder(decoded.value).version !== version) return
  const insert = db.prepare("INSERT INTO lsa_terms (row, term, idf, projection) VALUES (?, ?, ?, ?)")
  for (const { idf, projection, row, term } of Lsa.modelTerms(decoded.value)) {
    insert.run(row, term, idf, new Uint8Array(projection.buffer, projection.byteOffset, projection.byteLength))
  }
  db.prepare("UPDATE vector_space SET terms_version = ? WHERE key = 1").run(version)
}

/** Fills the table of a file migrated to it, from the model it already stores. */
export const storeFromSpace = (db: DatabaseSync): void => {
  const space = db.prepare("SELECT embedding_version, model FROM vector_space WHERE key = 1").get() as
    | { embedding_version: string; model: string | null }
    | undefined
  if (space !== undefined) store(db, space.model, space.embedding_version)
}

/**
 * The encoder over the stored terms of the space of `version` and `dimension`, or undefined when the
 * file holds none for it (a file from before the table, no model, a model that failed the check).
 * Its `embedOne` throws on a damaged row (a projection of the wrong length) or a failed read.
 */
export const encoderOf = (db: DatabaseSync, version: string, dimension: number): TextEncoderModel | undefined => {
  const schema = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version)
  if (schema < SINCE_SCHEMA) return undefined
  const stored = db.prepare("SELECT terms_version FROM vector_space WHERE key = 1").get() as { terms_version: string | null } | undefined
  if (stored?.terms_version !== version) return undefined
  const latentDimension = dimension - 1
  const byTerm = db.prepare("SELECT row, idf, projection FROM lsa_terms WHERE term = ?")
  return Lsa.termEncoder(latentDimension, version, (term) => {
    const found = byTerm.get(term) as { row: number; idf: number; projection: Uint8Array } | undefined
    if (found === undefined) return undefined
    if (found.projection.byteLength !== latentDimension * 4) throw new Error(`term ${JSON.stringify(term)} has ${found.projection.byteLength} bytes of projection, not ${latentDimension * 4}`)
    // A copy: SQLite's buffer need not sit on a float's alignment.
    return { row: Number(found.row), idf: Number(found.idf), projection: new Float32Array(found.projection.slice().buffer) }
  })
}
