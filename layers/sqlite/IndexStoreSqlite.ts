/**
 * The SQLite backend of `IndexStore` (src/ports/IndexStore.ts), the only way into the index file:
 * one batch, one transaction. A batch that fails anywhere (refused, an SQLite error, an exception
 * half way, a killed process) leaves the index exactly as the previous commit left it, because
 * nothing is visible to readers before COMMIT. The checks are `IndexWriteChecks`, the SQL
 * `WriteSql.ts`, the cold build's long transaction `Rebuild.ts`; this file assembles them and reads.
 *
 * Vectors never mix models. A batch whose vectors come from another model than the stored ones
 * is refused (`embedder_changed`) unless it says `replace: true` (or `replaceAll`), which drops
 * every stored vector and recreates the vector table for the new model in the same transaction.
 *
 * Without sqlite-vec (a platform its package has no build for) the vec0 table can be neither read,
 * written nor dropped, but everything else can: a batch without vectors is written as ever, and
 * one with vectors is refused (`vectors_unavailable`). Vectors already stored stay where they are
 * and never come to mean another chunk: a new chunk takes a row above every stored vector's, a
 * chunk whose vector or vec0 metadata no longer fits it moves to such a row (and has no vector
 * until one is written), and a vector whose chunk is gone is removed by the next write that has
 * sqlite-vec. A cold build forgets the space, whose vectors all belonged to chunks it replaced.
 */
import { Effect, Layer } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import { refuse, validate } from "../../src/index/IndexWriteChecks.ts"
import { IndexStore, type IndexWrite, type IndexWriteError } from "../../src/ports/IndexStore.ts"
import { Database } from "./Database.ts"
import { rebuild } from "./Rebuild.ts"
import { VECTOR_ROWIDS } from "./Schema.ts"
import { readSpace, readSpaceHeader } from "./VectorTable.ts"
import { apply, count, failed, hasVectorTable, transaction } from "./WriteSql.ts"

const reading = <A>(body: () => A): Effect.Effect<A, IndexWriteError> => Effect.try({ try: body, catch: failed })

export const make = Effect.gen(function*() {
  const { connection: db, path, readOnly, vectorsUnavailable } = yield* Database
  const withoutVectors = vectorsUnavailable !== undefined
  const refusal = (batch: IndexWrite): IndexWriteError | undefined =>
    readOnly ? refuse("read_only", path)
      : withoutVectors && batch.vectors !== undefined ? refuse("vectors_unavailable", vectorsUnavailable)
      : validate(batch)
  // A commit that counts vectors stored a space for them: a file without one no longer says what it holds.
  const held = <A>(space: A | undefined): A | undefined => {
    if (space !== undefined) return space
    const vectors = count(db, "SELECT coalesce(max(embedded_count), 0) AS n FROM manifest")
    if (vectors > 0) throw refuse("damaged", `the manifest counts ${vectors} vectors, and the index holds no vector space for them`)
    return undefined
  }
  return IndexStore.of({
    write: (batch) =>
      Effect.suspend(() => {
        const refused = refusal(batch)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.try({ try: () => transaction(db, () => apply(db, batch, withoutVectors)), catch: failed })
      }),
    rebuild: rebuild(db, { vectorsUnavailable, refusal }),
    noteHashes: reading(() => {
      const rows = db.prepare("SELECT id, content_hash FROM notes").all() as Array<{ id: string; content_hash: string | null }>
      return new Map(rows.sort((a, b) => compareIds(a.id, b.id)).map((row) => [row.id, row.content_hash] as const))
    }),
    noteCount: reading(() => count(db, "SELECT count(*) AS n FROM notes")),
    noteHashesOf: (notes) =>
      reading(() => {
        const rows = db.prepare("SELECT id, content_hash FROM notes WHERE id IN (SELECT value FROM json_each(?))")
          .all(JSON.stringify(notes)) as Array<{ id: string; content_hash: string | null }>
        return new Map(rows.sort((a, b) => compareIds(a.id, b.id)).map((row) => [row.id, row.content_hash] as const))
      }),
    storedChunks: (notes) =>
      reading(() => {
        const vectors = hasVectorTable(db)
        // vec0's rowid table, not vec0 itself: it reads without sqlite-vec.
        const rows = db.prepare(
          `SELECT c.id, c.content_sha, ${vectors ? `EXISTS (SELECT 1 FROM ${VECTOR_ROWIDS} v WHERE v.rowid = c.row)` : "0"} AS embedded ` +
            "FROM chunks c WHERE c.note_id IN (SELECT value FROM json_each(?))"
        ).all(JSON.stringify(notes)) as Array<{ id: ChunkId; content_sha: string; embedded: number }>
        return new Map(rows.sort((a, b) => compareIds(a.id, b.id)).map((row) => [row.id, { contentSha: row.content_sha, embedded: Number(row.embedded) === 1 }] as const))
      }),
    unembedded: (excluded) =>
      reading(() => {
        const vectors = hasVectorTable(db)
        const rows = db.prepare(
          "SELECT c.id, c.text FROM chunks c WHERE c.note_id NOT IN (SELECT value FROM json_each(?))" +
            (vectors ? ` AND NOT EXISTS (SELECT 1 FROM ${VECTOR_ROWIDS} v WHERE v.rowid = c.row)` : "")
        ).all(JSON.stringify(excluded)) as Array<{ id: ChunkId; text: string }>
        return rows.sort((a, b) => compareIds(a.id, b.id)).map((row) => ({ id: row.id, text: row.text }))
      }),
    vectorsUnavailable,
    vectorSpace: reading(() => held(readSpace(db))),
    vectorSpaceHeader: reading(() => held(readSpaceHeader(db))),
    builtUnder: reading(() => {
      const row = db.prepare("SELECT * FROM manifest WHERE key = 1").get() as { chunking?: string | null } | undefined
      if (row === undefined) return undefined
      // A file from before the column, opened read-only and so not migrated: what migrating writes.
      if (!("chunking" in row)) return ChunkingConfig.BEFORE_RECORDED_FINGERPRINT
      return row.chunking ?? ChunkingConfig.DEFAULT_FINGERPRINT
    }),
    manifest: reading(() => {
      const row = db.prepare(
        "SELECT generation, snapshot_hash, chunk_count, embedded_count, note_count, relation_count FROM manifest WHERE key = 1"
      ).get() as Record<string, number | string> | undefined
      return row === undefined ? undefined : {
        generation: Number(row["generation"]),
        snapshotHash: String(row["snapshot_hash"]),
        chunkCount: Number(row["chunk_count"]),
        embeddedCount: Number(row["embedded_count"]),
        noteCount: Number(row["note_count"]),
        relationCount: Number(row["relation_count"])
      }
    })
  })
})

export const layer: Layer.Layer<IndexStore, never, Database> = Layer.effect(IndexStore, make)
