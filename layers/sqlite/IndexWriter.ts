/**
 * The only way into the index file: one batch, one transaction. A batch that fails anywhere
 * (refused, an SQLite error, an exception half way, a killed process) leaves the index exactly
 * as the previous commit left it, because nothing is visible to readers before COMMIT.
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
import { Context, Effect, Layer, Schema } from "effect"
import type { DatabaseSync, SQLInputValue } from "node:sqlite"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { instantMillis } from "../../src/domain/Instant.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import type { NoteEdge } from "../../src/ports/GraphStore.ts"
import * as ChunkStems from "./ChunkStems.ts"
import { Database } from "./Database.ts"
import { isCorruption } from "./Damage.ts"
import { feed, feedHash } from "./FtsFeed.ts"
import * as NoteNames from "./NoteNames.ts"
import { CHUNK_COLUMNS, chunkValues, createdMillis, isSuperseded } from "./Rows.ts"
import { VECTOR_ROWIDS, VECTOR_TABLE } from "./Schema.ts"
import type { VectorSpace } from "./VectorTable.ts"
import { createSpace, dropOrphans, dropSpace, forgetSpace, readSpace, readSpaceHeader, replaceModel, sameSpace, toBlob } from "./VectorTable.ts"

/** A note (re)indexed by the batch: its content hash, and the promise that its chunks are all in the batch. */
export interface NoteRecord {
  readonly id: string
  readonly contentHash: string
}

/** The embedder that produced a batch's vectors. */
export interface VectorModel {
  readonly id: string
  readonly version: string
  readonly dimension: number
  /** The model as data, stored so queries can be embedded by the same model (EmbedderSqlite). */
  readonly model?: string
}

export interface VectorEntry {
  readonly chunkId: ChunkId
  /** Stored as float32; a Float32Array is stored as it is, without a copy. */
  readonly vector: ReadonlyArray<number> | Float32Array
}

export interface IndexWrite {
  /** Clear every table first: the batch is then the whole index (a cold build). */
  readonly replaceAll?: boolean
  /** Chunks to insert, or replace by id. A replaced chunk keeps its vector only if its `contentSha` is unchanged. */
  readonly chunks?: ReadonlyArray<Chunk>
  /** Chunk ids to delete; unknown ids are ignored. */
  readonly deleteChunks?: ReadonlyArray<ChunkId>
  /**
   * Notes this batch (re)indexed. Each note's chunks in `chunks` are all it has now: its stored
   * chunks missing from the batch are deleted.
   */
  readonly notes?: ReadonlyArray<NoteRecord>
  /** Notes that vanished: their chunks, vectors and outbound relations go with them. */
  readonly deleteNotes?: ReadonlyArray<string>
  /** The outbound edges of every note in `from` become exactly `edges` (each edge's `from` must be listed). */
  readonly relations?: { readonly from: ReadonlyArray<string>; readonly edges: ReadonlyArray<NoteEdge> }
  /** Vectors to store; `replace` drops every stored vector first (required when the model changes). */
  readonly vectors?: { readonly model: VectorModel; readonly entries: ReadonlyArray<VectorEntry>; readonly replace?: boolean }
  /**
   * `builtAt` is the caller's clock read, ISO-8601 with a zone; the writer reads no clock.
   * `chunking` names the settings the chunks were made under (`ChunkingConfig.fingerprint`); absent,
   * the defaults.
   */
  readonly manifest: { readonly snapshotHash: string; readonly builtAt: string; readonly chunking?: string }
}

/** The manifest as committed, and what the batch did. */
export interface WriteSummary {
  /** Commits so far, this one included. */
  readonly generation: number
  readonly chunkCount: number
  readonly embeddedCount: number
  readonly noteCount: number
  readonly relationCount: number
  readonly chunksWritten: number
  readonly chunksDeleted: number
  readonly vectorsWritten: number
}

/** The manifest of the last commit: which snapshot the index was built from, and its counts. */
export interface StoredManifest {
  readonly generation: number
  readonly snapshotHash: string
  readonly chunkCount: number
  readonly embeddedCount: number
  readonly noteCount: number
  readonly relationCount: number
}

export interface StoredChunk {
  readonly contentSha: string
  readonly embedded: boolean
}

export class IndexWriteError extends Schema.TaggedError<IndexWriteError>()("IndexWriteError", {
  reason: Schema.Literals([
    "duplicate_chunk", "conflicting_batch", "unknown_chunk", "dimension_mismatch", "invalid_vector",
    "embedder_changed", "analysis_changed", "invalid_manifest", "read_only", "vectors_unavailable", "damaged", "write_failed"
  ]),
  detail: Schema.String
}) {
  override get message(): string {
    switch (this.reason) {
      case "duplicate_chunk":
        return `index write: chunk ${this.detail} appears twice in the batch; give every chunk one entry`
      case "conflicting_batch":
        return `index write: ${this.detail}; a batch may not both keep and delete one thing`
      case "unknown_chunk":
        return `index write: vector for ${this.detail}, which the index does not hold; write the chunk in the same batch`
      case "dimension_mismatch":
        return `index write: ${this.detail}; every vector must have the model's dimension`
      case "invalid_vector":
        return `index write: ${this.detail}; vectors must be finite and non-zero`
      case "embedder_changed":
        return `index write: ${this.detail}; re-embed every chunk and write with vectors.replace (never mix models)`
      case "analysis_changed":
        return `index write: ${this.detail}; the text analysis changed since the index was built, rebuild it with replaceAll`
      case "invalid_manifest":
        return `index write: manifest ${this.detail}; pass builtAt as an ISO-8601 instant with a zone`
      case "read_only":
        return `index write: ${this.detail} was opened read-only; open it writable to index`
      case "vectors_unavailable":
        return `index write: ${this.detail}, so the batch's vectors cannot be stored; write it without vectors (chunks and full-text search need none)`
      case "damaged":
        return `index write: the index file is damaged (${this.detail}); run \`cairn index\` to rebuild it from the repository`
      case "write_failed":
        return `index write failed and was rolled back: ${this.detail}; the previous index is intact, retry the write`
    }
  }
}

/**
 * Where a cold build's vectors go as they are produced, inside the build's transaction: `open`
 * makes the space of the model that embeds them, then `add` stores vectors, each call's after the
 * last's. Adding in chunk id order gives the file the bytes `write` gives it.
 */
export interface VectorStore {
  readonly open: (model: VectorModel) => Effect.Effect<void, IndexWriteError>
  readonly add: (entries: ReadonlyArray<VectorEntry>) => Effect.Effect<void, IndexWriteError>
}

export class IndexWriter extends Context.Service<IndexWriter, {
  /** Applies `batch` in one transaction; on any failure nothing of it is stored. */
  write(batch: IndexWrite): Effect.Effect<WriteSummary, IndexWriteError>
  /**
   * A cold build (as `write` with `replaceAll`) whose vectors are still being computed: the
   * transaction opens and takes everything but the vectors, then `embed` runs (the model may still
   * be training on another thread) and stores vectors through the `VectorStore` as they come, and
   * the whole commits once. On any failure, of the write or of `embed`, nothing of it is stored.
   */
  rebuild<E>(
    batch: Omit<IndexWrite, "vectors" | "replaceAll">,
    embed: (store: VectorStore) => Effect.Effect<void, E | IndexWriteError>
  ): Effect.Effect<WriteSummary, IndexWriteError | E>
  /** Every stored note with its content hash (null when none was recorded), by id. */
  readonly noteHashes: Effect.Effect<ReadonlyMap<string, string | null>, IndexWriteError>
  /** How many notes are stored now (the manifest says how many the last commit left). */
  readonly noteCount: Effect.Effect<number, IndexWriteError>
  /** `noteHashes` of the stored notes among `notes` alone. */
  noteHashesOf(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string | null>, IndexWriteError>
  /** The stored chunks of `notes`: content sha and whether a vector is stored, by chunk id. */
  storedChunks(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<ChunkId, StoredChunk>, IndexWriteError>
  /** The stored chunks without a vector, but those of `excluded` notes, by id: text to embed. */
  unembedded(excluded: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<{ readonly id: ChunkId; readonly text: string }>, IndexWriteError>
  /** Why this connection cannot store vectors (sqlite-vec did not load), when it cannot. */
  readonly vectorsUnavailable: string | undefined
  /** The model of the stored vectors, if any, with the model's data. */
  readonly vectorSpace: Effect.Effect<VectorSpace | undefined, IndexWriteError>
  /** The same without the model's data, which can be megabytes. */
  readonly vectorSpaceHeader: Effect.Effect<Omit<VectorSpace, "model"> | undefined, IndexWriteError>
  /** The manifest of the last commit, or none before the first. */
  readonly manifest: Effect.Effect<StoredManifest | undefined, IndexWriteError>
  /**
   * The chunking settings the last commit was built under (see `IndexWrite.manifest`); the
   * defaults' fingerprint for a build that did not say, none before the first. A read-only open of
   * a file from before the settings were recorded reads what migrating it would record.
   */
  readonly builtUnder: Effect.Effect<string | undefined, IndexWriteError>
}>()("cairn/layers/sqlite/IndexWriter") {}

const refuse = (reason: IndexWriteError["reason"], detail: string) => new IndexWriteError({ reason, detail })

const firstRepeat = (values: Iterable<string>): string | undefined => {
  const seen = new Set<string>()
  for (const value of values) {
    if (seen.has(value)) return value
    seen.add(value)
  }
  return undefined
}

/** Everything that can be refused without reading the file. */
const validate = (batch: IndexWrite): IndexWriteError | undefined => {
  if (Number.isNaN(instantMillis(batch.manifest.builtAt))) return refuse("invalid_manifest", `builtAt ${JSON.stringify(batch.manifest.builtAt)} is not an instant`)
  const chunks = batch.chunks ?? []
  const repeated = firstRepeat(chunks.map((chunk) => chunk.id))
  if (repeated !== undefined) return refuse("duplicate_chunk", repeated)
  const upserted = new Set<string>(chunks.map((chunk) => chunk.id))
  const both = (batch.deleteChunks ?? []).find((id) => upserted.has(id))
  if (both !== undefined) return refuse("conflicting_batch", `chunk ${both} is both written and deleted`)
  const deletedNotes = new Set(batch.deleteNotes ?? [])
  const orphan = chunks.find((chunk) => deletedNotes.has(chunk.noteId))
  if (orphan !== undefined) return refuse("conflicting_batch", `chunk ${orphan.id} is written into deleted note ${orphan.noteId}`)
  const noteIds = (batch.notes ?? []).map((note) => note.id)
  const repeatedNote = firstRepeat(noteIds)
  if (repeatedNote !== undefined) return refuse("conflicting_batch", `note ${repeatedNote} is recorded twice`)
  const keptAndDeleted = noteIds.find((id) => deletedNotes.has(id))
  if (keptAndDeleted !== undefined) return refuse("conflicting_batch", `note ${keptAndDeleted} is both recorded and deleted`)
  if (batch.relations !== undefined) {
    const from = new Set(batch.relations.from)
    const stray = batch.relations.edges.find((edge) => !from.has(edge.from))
    if (stray !== undefined) return refuse("conflicting_batch", `edge from ${stray.from} whose note is not in relations.from`)
  }
  return batch.vectors === undefined ? undefined : validateVectors(batch.vectors)
}

/** The vectors' own checks: a positive dimension, one vector per chunk, finite, non-zero, the model's length. */
const validateVectors = (vectors: NonNullable<IndexWrite["vectors"]>): IndexWriteError | undefined => {
  const { model, entries } = vectors
  if (!Number.isInteger(model.dimension) || model.dimension <= 0) return refuse("dimension_mismatch", `model dimension ${model.dimension} is not a positive integer`)
  const repeatedVector = firstRepeat(entries.map((entry) => entry.chunkId))
  if (repeatedVector !== undefined) return refuse("duplicate_chunk", repeatedVector)
  for (const { chunkId, vector } of entries) {
    if (vector.length !== model.dimension) return refuse("dimension_mismatch", `vector of ${chunkId} has length ${vector.length}, model ${model.id} has ${model.dimension}`)
    let sum = 0
    // Indexed, not `for…of`: 76,000 vectors of a rebuild iterated allocated 200 MB of iterator results.
    for (let i = 0; i < vector.length; i++) {
      const x = vector[i]!
      if (!Number.isFinite(x)) return refuse("invalid_vector", `vector of ${chunkId} has component ${x}`)
      sum += x * x
    }
    if (sum === 0) return refuse("invalid_vector", `vector of ${chunkId} is all zeros`)
  }
  return undefined
}

const count = (db: DatabaseSync, sql: string): number => Number((db.prepare(sql).get() as { n: number | bigint }).n)

const hasVectorTable = (db: DatabaseSync): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(VECTOR_TABLE) !== undefined

/** A vec0 table this connection cannot touch: there are vectors, and sqlite-vec is not loaded. */
const isFrozen = (db: DatabaseSync, withoutVectors: boolean): boolean => withoutVectors && hasVectorTable(db)

/** Drops the space, or forgets it where its table cannot be dropped. */
const clearSpace = (db: DatabaseSync, withoutVectors: boolean): void => (isFrozen(db, withoutVectors) ? forgetSpace(db) : dropSpace(db))

/** Makes the stored space the batch's, or refuses a silent mix. */
const settleSpace = (db: DatabaseSync, batch: IndexWrite, withoutVectors: boolean): void => {
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
const apply = (db: DatabaseSync, batch: IndexWrite, withoutVectors: boolean): WriteSummary => {
  if (!withoutVectors) settleOrphans(db)
  const content = applyContent(db, batch, () => settleSpace(db, batch, withoutVectors), withoutVectors)
  const vectorsWritten = batch.vectors === undefined ? 0 : insertVectors(db, batch.vectors.entries)
  return writeManifest(db, batch, { chunksWritten: content.chunksWritten, chunksDeleted: content.chunksDeleted, vectorsWritten }, withoutVectors)
}

/** What a vector row repeats of its chunk's row, for the filter vec0 applies during its scan. */
interface VectorMeta {
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

interface ContentWritten extends Pick<WriteSummary, "chunksWritten" | "chunksDeleted"> {
  /** Of a replacing write: every chunk written, by id, so its vector needs no lookup of the row. */
  readonly placed: ReadonlyMap<string, VectorMeta> | undefined
}

/**
 * Everything of a batch but its vectors: deletions, chunks and their text, notes, relations.
 * `settle` makes the vector space ready before rows that carry vectors are touched. Without
 * sqlite-vec, stored vectors are left in place and kept from meaning another chunk (see above).
 */
const applyContent = (db: DatabaseSync, batch: IndexWrite, settle: () => void, withoutVectors: boolean): ContentWritten => {
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

  // A replacing write has just emptied the table: no chunk exists to look up.
  const placed = batch.replaceAll === true ? new Map<string, VectorMeta>() : undefined
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
const insertVectors = (db: DatabaseSync, entries: ReadonlyArray<VectorEntry>, placed?: ReadonlyMap<string, VectorMeta>): number => {
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
    // The lead is the first chunk by line, ties by id, as the reference store orders a note.
    let lead = rows[0]
    for (const row of rows) {
      if (lead === undefined || row.line_start < lead.line_start || (row.line_start === lead.line_start && compareIds(row.id, lead.id) < 0)) lead = row
    }
    const values: Array<SQLInputValue> = [note, lead?.title ?? null, lead?.path ?? null, rows.length, lead?.id ?? null, hash, NoteNames.encode(lead?.title ?? null, lead?.path ?? null)]
    upsert.run(...values)
  }
}

const writeManifest = (
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
const failed = (error: unknown): IndexWriteError =>
  error instanceof IndexWriteError ? error
    : refuse(isCorruption(error) ? "damaged" : "write_failed", error instanceof Error ? error.message : String(error))

/** Runs `body` in one IMMEDIATE transaction (taking the write lock up front, so readers never see a half). */
const transaction = <A>(db: DatabaseSync, body: () => A): A => {
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
  return IndexWriter.of({
    write: (batch) =>
      Effect.suspend(() => {
        const refused = refusal(batch)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.try({ try: () => transaction(db, () => apply(db, batch, withoutVectors)), catch: failed })
      }),
    rebuild: <E>(content: Omit<IndexWrite, "vectors" | "replaceAll">, embed: (store: VectorStore) => Effect.Effect<void, E | IndexWriteError>) =>
      Effect.suspend(() => {
        const batch: IndexWrite = { ...content, replaceAll: true }
        const refused = refusal(batch)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.acquireUseRelease(
          // Every stored vector goes with the old chunks; the new space is made when its model is known.
          Effect.try({
            try: () => {
              db.exec("BEGIN IMMEDIATE")
              try {
                return applyContent(db, batch, () => clearSpace(db, withoutVectors), withoutVectors)
              } catch (error) {
                if (db.isTransaction) db.exec("ROLLBACK")
                throw error
              }
            },
            catch: failed
          }),
          (written) => {
            let model: VectorModel | undefined
            let stored = 0
            const seen = new Set<string>()
            const store: VectorStore = {
              open: (next) =>
                Effect.suspend(() => {
                  if (withoutVectors) return Effect.fail(refuse("vectors_unavailable", vectorsUnavailable))
                  if (model !== undefined) return Effect.fail(refuse("conflicting_batch", `a second vector space (${next.id}) opened in one rebuild`))
                  const invalid = validateVectors({ model: next, entries: [] })
                  if (invalid !== undefined) return Effect.fail(invalid)
                  return Effect.try({
                    try: () => {
                      settleSpace(db, { ...batch, vectors: { model: next, entries: [], replace: true } }, withoutVectors)
                      model = next
                    },
                    catch: failed
                  })
                }),
              add: (entries) =>
                Effect.suspend(() => {
                  if (model === undefined) return Effect.fail(refuse("conflicting_batch", "vectors added before their space was opened"))
                  const invalid = validateVectors({ model, entries })
                  if (invalid !== undefined) return Effect.fail(invalid)
                  const repeated = entries.find((entry) => seen.has(entry.chunkId))
                  if (repeated !== undefined) return Effect.fail(refuse("duplicate_chunk", repeated.chunkId))
                  for (const entry of entries) seen.add(entry.chunkId)
                  return Effect.try({ try: () => void (stored += insertVectors(db, entries, written.placed)), catch: failed })
                })
            }
            return Effect.flatMap(embed(store), () =>
              Effect.try({
                try: () => {
                  const summary = writeManifest(db, batch, { chunksWritten: written.chunksWritten, chunksDeleted: written.chunksDeleted, vectorsWritten: stored }, withoutVectors)
                  db.exec("COMMIT")
                  return summary
                },
                catch: failed
              }))
          },
          // Anything short of the commit leaves the previous index as it was.
          () => Effect.sync(() => {
            if (db.isTransaction) db.exec("ROLLBACK")
          })
        )
      }),
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

export const layer: Layer.Layer<IndexWriter, never, Database> = Layer.effect(IndexWriter, make)
