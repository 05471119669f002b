/**
 * The SQL of an index write, run inside the caller's transaction: deletions, chunks and their
 * full-text rows, notes, relations, the vector space and its vectors, and the manifest. Every
 * function throws to roll back; `failed` turns what was thrown into the write's error.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite"
import { compareIds } from "../../src/domain/Ranking.ts"
import { refuse } from "../../src/index/IndexWriteChecks.ts"
import { type IndexWrite, IndexWriteError, type VectorEntry, type VectorSpace, type WriteSummary } from "../../src/ports/IndexStore.ts"
import * as ChunkStems from "./ChunkStems.ts"
import { isCorruption } from "./Damage.ts"
import { feed, feedHash } from "./FtsFeed.ts"
import { leadChunk } from "./NoteLead.ts"
import * as NoteNames from "./NoteNames.ts"
import { CHUNK_COLUMNS, chunkValues, createdMillis, isSuperseded } from "./Rows.ts"
import { VECTOR_ROWIDS, VECTOR_TABLE } from "./Schema.ts"
import { createSpace, dropOrphans, dropSpace, forgetSpace, readSpaceHeader, replaceModel, sameSpace, toBlob } from "./VectorTable.ts"

export const count = (db: DatabaseSync, sql: string): number => Number((db.prepare(sql).get() as { n: number | bigint }).n)

export const hasVectorTable = (db: DatabaseSync): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(VECTOR_TABLE) !== undefined

/** A vec0 table this connection cannot touch: there are vectors, and sqlite-vec is not loaded. */
const isFrozen = (db: DatabaseSync, withoutVectors: boolean): boolean => withoutVectors && hasVectorTable(db)

/** Drops the space, or forgets it where its table cannot be dropped. */
export const clearSpace = (db: DatabaseSync, withoutVectors: boolean): void => (isFrozen(db, withoutVectors) ? forgetSpace(db) : dropSpace(db))

/** Makes the stored space the batch's, or refuses a silent mix. */
export const settleSpace = (db: DatabaseSync, batch: IndexWrite, withoutVectors: boolean): void => {
  const vectors = batch.vectors
  if (vectors === undefined) {
    if (batch.replaceAll === true) clearSpace(db, withoutVectors)
    return
  }
  const next: VectorSpace = {
    modelId: vectors.model.id,
    version: vectors.model.version,
    dimension: vectors.model.dimension,
    model: vectors.model.model ?? null
  }
  // The header only: the stored model can be megabytes, and a batch that names no model keeps it.
  const stored = readSpaceHeader(db)
  if (stored === undefined || batch.replaceAll === true || vectors.replace === true) return createSpace(db, next)
  if (!sameSpace(stored, next)) {
    // Thrown inside the transaction so that it rolls back; caught and returned as a value below.
    throw refuse("embedder_changed", `stored vectors are ${stored.modelId}@${stored.version} (${stored.dimension}), the batch's ${next.modelId}@${next.version} (${next.dimension})`)
  }
  if (next.model !== null) replaceModel(db, next.version, next.model)
}

/**
 * Vectors a write without sqlite-vec left behind, whose chunks are gone: removed before any row is
 * placed, so none comes to mean a new chunk. There are some exactly when vec0 holds more rows
 * than the manifest counted vectors of stored chunks.
 */
const settleOrphans = (db: DatabaseSync): void => {
  if (!hasVectorTable(db)) return
  const counted = db.prepare("SELECT embedded_count FROM manifest WHERE key = 1").get() as { embedded_count: number } | undefined
  if (count(db, `SELECT count(*) AS n FROM ${VECTOR_ROWIDS}`) > Number(counted?.embedded_count ?? 0)) dropOrphans(db)
}

/** The body of the transaction; throws to roll back. */
export const apply = (db: DatabaseSync, batch: IndexWrite, withoutVectors: boolean): WriteSummary => {
  if (!withoutVectors) settleOrphans(db)
  const content = applyContent(db, batch, () => settleSpace(db, batch, withoutVectors), withoutVectors)
  const vectorsWritten = batch.vectors === undefined ? 0 : insertVectors(db, batch.vectors.entries)
  return writeManifest(db, batch, { chunksWritten: content.chunksWritten, chunksDeleted: content.chunksDeleted, vectorsWritten }, withoutVectors)
}

/** What a vector row repeats of its chunk's row, for the filter vec0 applies during its scan. */
export interface VectorMeta {
  readonly row: number
  readonly superseded: number
  readonly note_type: string
  readonly created_ms: number
}

/** A stored chunk's row, as a write reads it before replacing the chunk. */
interface StoredRow extends Omit<VectorMeta, "row"> {
  readonly row: number
  readonly note_id: string
  readonly content_sha: string
}

/** Whether a stored vector, and what vec0 repeats of its chunk, still fit the chunk written over it. */
const fits = (stored: StoredRow, contentSha: string, meta: Omit<VectorMeta, "row">): boolean =>
  stored.content_sha === contentSha && Number(stored.superseded) === meta.superseded && stored.note_type === meta.note_type &&
  Number(stored.created_ms) === meta.created_ms

export interface ContentWritten extends Pick<WriteSummary, "chunksWritten" | "chunksDeleted"> {
  /** Of a replacing write: every chunk written, by id, so its vector needs no lookup of the row. */
  readonly placed: ReadonlyMap<string, VectorMeta> | undefined
}

/**
 * Everything of a batch but its vectors: deletions, chunks and their text, notes, relations.
 * `settle` makes the vector space ready before rows that carry vectors are touched. Without
 * sqlite-vec, stored vectors are left in place and kept from meaning another chunk (see above).
 */
export const applyContent = (
  db: DatabaseSync,
  batch: IndexWrite,
  settle: () => void,
  withoutVectors: boolean,
  /** A part of a build that emptied the table: its rows are all new, and are added here as placed. */
  fresh?: Map<string, VectorMeta>
): ContentWritten => {
  if (batch.replaceAll === true) {
    db.exec("DELETE FROM chunks; DELETE FROM notes; DELETE FROM relations")
    db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')")
  }
  settle()
  const frozen = isFrozen(db, withoutVectors)
  const vectorTable = hasVectorTable(db) && !frozen

  const byId = db.prepare("SELECT row, note_id, content_sha, superseded, note_type, created_ms FROM chunks WHERE id = ?")
  const rowsOfNote = db.prepare("SELECT row, id FROM chunks WHERE note_id = ?")
  const indexed = db.prepare("SELECT id, text, title, tags, fts_hash FROM chunks WHERE row = ?")
  const deleteChunk = db.prepare("DELETE FROM chunks WHERE row = ?")
  const deleteText = db.prepare("INSERT INTO chunks_fts (chunks_fts, rowid, text, title, tags) VALUES ('delete', ?, ?, ?, ?)")
  const insertText = db.prepare("INSERT INTO chunks_fts (rowid, text, title, tags) VALUES (?, ?, ?, ?)")
  const insertChunk = db.prepare(`INSERT INTO chunks (${CHUNK_COLUMNS.join(", ")}) VALUES (${CHUNK_COLUMNS.map(() => "?").join(", ")})`)
  const updateChunk = db.prepare(`UPDATE chunks SET ${CHUNK_COLUMNS.map((column) => `${column} = ?`).join(", ")} WHERE row = ?`)
  const deleteVector = vectorTable ? db.prepare(`DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`) : undefined
  const updateVectorMeta = vectorTable
    ? db.prepare(`UPDATE ${VECTOR_TABLE} SET superseded = ?, note_type = ?, created_ms = ? WHERE rowid = ?`)
    : undefined
  const deleteNote = db.prepare("DELETE FROM notes WHERE id = ?")
  const deleteOutbound = db.prepare("DELETE FROM relations WHERE from_note = ?")

  /** Takes a row out of the FTS index: a contentless table is told the exact values it was fed. */
  const unindex = (row: number): void => {
    const old = indexed.get(row) as { id: string; text: string; title: string; tags: string; fts_hash: number }
    const values = feed(old.text, old.title, JSON.parse(old.tags) as Array<string>)
    if (feedHash(values) !== Number(old.fts_hash)) throw refuse("analysis_changed", `chunk ${old.id} no longer analyses to what was indexed`)
    deleteText.run(row, ...values)
  }

  const touched = new Set<string>()
  let deleted = 0
  const removeRow = (row: number): void => {
    unindex(row)
    deleteChunk.run(row)
    deleteVector?.run(BigInt(row))
    deleted++
  }

  for (const note of batch.deleteNotes ?? []) {
    for (const { row } of rowsOfNote.all(note) as Array<{ row: number }>) removeRow(row)
    deleteNote.run(note)
    deleteOutbound.run(note)
  }
  for (const id of batch.deleteChunks ?? []) {
    const existing = byId.get(id) as { row: number; note_id: string } | undefined
    if (existing === undefined) continue
    removeRow(existing.row)
    touched.add(existing.note_id)
  }
  const chunks = [...(batch.chunks ?? [])].sort((a, b) => compareIds(a.id, b.id))
  const incoming = new Set<string>(chunks.map((chunk) => chunk.id))
  for (const note of batch.notes ?? []) {
    touched.add(note.id)
    for (const { row, id } of rowsOfNote.all(note.id) as Array<{ row: number; id: string }>) {
      if (!incoming.has(id)) removeRow(row)
    }
  }

  // Frozen vectors: a chunk is placed above every row vec0 holds, so no vector left in place comes
  // to mean it, and keeps a row with a vector only while the vector and vec0's copy of its
  // metadata still fit it.
  let nextRow = frozen ? Math.max(count(db, "SELECT max(row) AS n FROM chunks"), count(db, `SELECT max(rowid) AS n FROM ${VECTOR_ROWIDS}`)) + 1 : 0
  const insertChunkAt = frozen
    ? db.prepare(`INSERT INTO chunks (row, ${CHUNK_COLUMNS.join(", ")}) VALUES (?, ${CHUNK_COLUMNS.map(() => "?").join(", ")})`)
    : undefined
  const withVector = frozen ? db.prepare(`SELECT 1 FROM ${VECTOR_ROWIDS} WHERE rowid = ?`) : undefined
  const place = (values: Array<SQLInputValue>): number => {
    if (insertChunkAt === undefined) return Number(insertChunk.run(...values).lastInsertRowid)
    insertChunkAt.run(nextRow, ...values)
    return nextRow++
  }

  // A replacing write, or a part of one, has emptied the table: no chunk exists to look up.
  const placed = fresh ?? (batch.replaceAll === true ? new Map<string, VectorMeta>() : undefined)
  for (const chunk of chunks) {
    const text = feed(chunk.text, chunk.title, chunk.tags)
    const values = chunkValues(chunk, feedHash(text))
    const existing = placed !== undefined ? undefined : byId.get(chunk.id) as StoredRow | undefined
    const meta = { superseded: isSuperseded(chunk) ? 1 : 0, note_type: chunk.noteType, created_ms: createdMillis(chunk.provenance.createdAt) }
    let row: number
    if (existing === undefined) {
      row = place(values)
      placed?.set(chunk.id, { row, ...meta })
    } else if (withVector?.get(existing.row) !== undefined && !fits(existing, chunk.contentSha, meta)) {
      // Its vector cannot be dropped or changed here: the chunk moves to a row without one.
      touched.add(existing.note_id)
      unindex(existing.row)
      deleteChunk.run(existing.row)
      row = place(values)
    } else {
      row = existing.row
      touched.add(existing.note_id)
      unindex(row)
      updateChunk.run(...values, row)
      // Same words, same vector: only the metadata the filter reads may have moved.
      if (existing.content_sha === chunk.contentSha) {
        updateVectorMeta?.run(isSuperseded(chunk) ? 1n : 0n, chunk.noteType, createdMillis(chunk.provenance.createdAt), BigInt(row))
      } else {
        deleteVector?.run(BigInt(row))
      }
    }
    touched.add(chunk.noteId)
    insertText.run(row, ...text)
  }

  settleNotes(db, [...touched].sort(compareIds), new Map((batch.notes ?? []).map((note) => [note.id, note.contentHash])))

  if (batch.relations !== undefined) {
    const drop = db.prepare("DELETE FROM relations WHERE from_note = ?")
    for (const from of new Set(batch.relations.from)) drop.run(from)
    const insert = db.prepare("INSERT OR IGNORE INTO relations (from_note, to_note, verb) VALUES (?, ?, ?)")
    for (const edge of batch.relations.edges) insert.run(edge.from, edge.to, edge.verb)
  }
  return { chunksWritten: chunks.length, chunksDeleted: deleted, placed }
}

/**
 * Stores each entry's vector on its chunk's row, replacing any it had; the chunks must be stored.
 * Chunks `placed` by this very write (a replacing one) have no vector to replace, and their rows
 * need no lookup.
 */
export const insertVectors = (db: DatabaseSync, entries: ReadonlyArray<VectorEntry>, placed?: ReadonlyMap<string, VectorMeta>): number => {
  const meta = db.prepare("SELECT row, superseded, note_type, created_ms FROM chunks WHERE id = ?")
  const insertVector = db.prepare(`INSERT INTO ${VECTOR_TABLE} (rowid, embedding, superseded, note_type, created_ms) VALUES (?, ?, ?, ?, ?)`)
  const remove = db.prepare(`DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`)
  let written = 0
  for (const entry of [...entries].sort((a, b) => compareIds(a.chunkId, b.chunkId))) {
    const chunk = placed !== undefined ? placed.get(entry.chunkId) : meta.get(entry.chunkId) as VectorMeta | undefined
    if (chunk === undefined) throw refuse("unknown_chunk", entry.chunkId)
    const rowid = BigInt(chunk.row)
    // Chunks placed by this very write have no vector yet.
    if (placed === undefined) remove.run(rowid)
    insertVector.run(rowid, toBlob(entry.vector), BigInt(chunk.superseded), chunk.note_type, chunk.created_ms)
    written++
  }
  return written
}

/** Recomputes each touched note's summary from its chunks, as the reference store derives it. */
const settleNotes = (db: DatabaseSync, notes: ReadonlyArray<string>, recorded: ReadonlyMap<string, string>): void => {
  const chunksOf = db.prepare("SELECT id, title, path, line_start FROM chunks WHERE note_id = ?")
  const hashOf = db.prepare("SELECT content_hash FROM notes WHERE id = ?")
  const upsert = db.prepare("INSERT OR REPLACE INTO notes (id, title, path, chunk_count, lead_chunk, content_hash, name_terms) VALUES (?, ?, ?, ?, ?, ?, ?)")
  const remove = db.prepare("DELETE FROM notes WHERE id = ?")
  for (const note of notes) {
    const rows = chunksOf.all(note) as Array<{ id: string; title: string; path: string; line_start: number }>
    const hash = recorded.get(note) ?? (hashOf.get(note) as { content_hash: string | null } | undefined)?.content_hash ?? null
    if (rows.length === 0 && hash === null) {
      remove.run(note)
      continue
    }
    const lead = leadChunk(rows)
    const values: Array<SQLInputValue> = [note, lead?.title ?? null, lead?.path ?? null, rows.length, lead?.id ?? null, hash, NoteNames.encode(lead?.title ?? null, lead?.path ?? null)]
    upsert.run(...values)
  }
}

export const writeManifest = (
  db: DatabaseSync,
  batch: IndexWrite,
  done: Pick<WriteSummary, "chunksWritten" | "chunksDeleted" | "vectorsWritten">,
  withoutVectors: boolean
): WriteSummary => {
  // Every chunk's stems under this analysis before the manifest names it.
  ChunkStems.settle(db)
  const space = readSpaceHeader(db)
  const previous = db.prepare("SELECT generation FROM manifest WHERE key = 1").get() as { generation: number } | undefined
  const summary: WriteSummary = {
    generation: (previous === undefined ? 0 : Number(previous.generation)) + 1,
    chunkCount: count(db, "SELECT count(*) AS n FROM chunks"),
    // vec0 keeps one row per stored vector in its rowid table; counting the virtual table scans every
    // vector. Without sqlite-vec, vectors whose chunks are gone stay behind: only the others count
    // (the join costs 5 ms at 76,000 chunks, so only then).
    embeddedCount: space === undefined ? 0
      : count(db, `SELECT count(*) AS n FROM ${VECTOR_ROWIDS} v${withoutVectors ? " JOIN chunks c ON c.row = v.rowid" : ""}`),
    noteCount: count(db, "SELECT count(*) AS n FROM notes"),
    relationCount: count(db, "SELECT count(*) AS n FROM relations"),
    ...done
  }
  db.prepare(
    "INSERT OR REPLACE INTO manifest (key, generation, snapshot_hash, built_at, chunk_count, embedded_count, note_count, relation_count, embedder_id, embedder_version, chunking, stems_version) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
  ).run(
    summary.generation, batch.manifest.snapshotHash, batch.manifest.builtAt, summary.chunkCount, summary.embeddedCount,
    summary.noteCount, summary.relationCount, space?.modelId ?? null, space?.version ?? null, batch.manifest.chunking ?? null,
    ChunkStems.version()
  )
  return summary
}

/** An SQLite failure as the writer reports it: retrying cannot help a damaged file, so it says so. */
export const failed = (error: unknown): IndexWriteError =>
  error instanceof IndexWriteError ? error
    : refuse(isCorruption(error) ? "damaged" : "write_failed", error instanceof Error ? error.message : String(error))

/** Runs `body` in one IMMEDIATE transaction (taking the write lock up front, so readers never see a half). */
export const transaction = <A>(db: DatabaseSync, body: () => A): A => {
  db.exec("BEGIN IMMEDIATE")
  try {
    const result = body()
    db.exec("COMMIT")
    return result
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK")
    throw error
  }
}

