/**
 * A chunk as a row of the `chunks` table and back. Lists are JSON text; two derived columns
 * (`created_ms`, `superseded`) let the retrieval filter run in SQL exactly as `compile` runs it,
 * and `fts_hash` guards the contentless FTS table's deletes (FtsFeed.ts).
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { instantMillis } from "../../src/domain/Instant.ts"
import type { FilterSubject } from "../../src/ports/RetrievalFilter.ts"
import * as ChunkStems from "./ChunkStems.ts"

/**
 * `created_ms` of a chunk whose age is unknown or unreadable: above every real instant, so
 * `created_ms >= since` keeps it, as `compile` keeps such a chunk.
 */
export const UNKNOWN_AGE = 1e300

export const createdMillis = (createdAt: string | null): number => {
  const millis = createdAt === null ? Number.NaN : instantMillis(createdAt)
  return Number.isNaN(millis) ? UNKNOWN_AGE : millis
}

export const isSuperseded = (chunk: Chunk): boolean => chunk.provenance.state === "superseded" || chunk.status === "superseded"

/** The stored columns, in the order {@link chunkValues} gives them. */
export const CHUNK_COLUMNS = [
  "id", "note_id", "path", "title", "heading_path", "text", "tags", "note_type", "line_start", "line_end", "block_id",
  "content_sha", "author_kind", "author", "created_at", "state", "status", "updated", "is_link_list", "symbols",
  "created_ms", "superseded", "fts_hash", "stems"
] as const

/** The row of `chunk`; `ftsHash` is the hash of what the FTS table was fed for it (FtsFeed.ts). */
export const chunkValues = (chunk: Chunk, ftsHash: number): Array<SQLInputValue> => [
  chunk.id, chunk.noteId, chunk.path, chunk.title, JSON.stringify(chunk.headingPath), chunk.text, JSON.stringify(chunk.tags),
  chunk.noteType, chunk.lineStart, chunk.lineEnd, chunk.blockId, chunk.contentSha, chunk.provenance.authorKind,
  chunk.provenance.author, chunk.provenance.createdAt, chunk.provenance.state, chunk.status, chunk.updated,
  chunk.isLinkList ? 1 : 0, JSON.stringify(chunk.symbols), createdMillis(chunk.provenance.createdAt), isSuperseded(chunk) ? 1 : 0,
  ftsHash, ChunkStems.encode(chunk)
]

/** `SELECT` list that {@link toChunk} reads, over the chunks table aliased `alias`. */
export const selectChunk = (alias: string): string =>
  CHUNK_COLUMNS.slice(0, 20).map((column) => `${alias}.${column}`).join(", ")

/** A row selected with {@link selectChunk}, as the Chunk it was written from (keys in schema order). */
export const toChunk = (row: Record<string, unknown>): Chunk => ({
  id: row.id as ChunkId,
  noteId: row.note_id as string,
  path: row.path as string,
  title: row.title as string,
  headingPath: JSON.parse(row.heading_path as string) as Array<string>,
  text: row.text as string,
  tags: JSON.parse(row.tags as string) as Array<string>,
  noteType: row.note_type as Chunk["noteType"],
  lineStart: Number(row.line_start),
  lineEnd: Number(row.line_end),
  blockId: row.block_id as string,
  contentSha: row.content_sha as string,
  provenance: {
    authorKind: row.author_kind as Chunk["provenance"]["authorKind"],
    author: row.author as string | null,
    createdAt: row.created_at as string | null,
    state: row.state as Chunk["provenance"]["state"]
  },
  status: row.status as Chunk["status"],
  updated: row.updated as string | null,
  isLinkList: Number(row.is_link_list) === 1,
  symbols: JSON.parse(row.symbols as string) as Array<string>
})

/** The chunks stored at `rows` (SQLite row ids), by row; absent rows are absent. */
export const chunksAtRows = (db: DatabaseSync, rows: ReadonlyArray<number>): Map<number, Chunk> => {
  const out = new Map<number, Chunk>()
  if (rows.length === 0) return out
  const found = db.prepare(`SELECT c.row AS row, ${selectChunk("c")} FROM chunks c WHERE c.row IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rows)) as Array<Record<string, unknown>>
  for (const row of found) out.set(Number(row.row), toChunk(row))
  return out
}

/** What the retrieval filter reads of the chunks at `rows`, with their ids: no text, no lists. */
export const filterSubjectsAtRows = (db: DatabaseSync, rows: ReadonlyArray<number>): Map<number, FilterSubject & { readonly id: ChunkId }> => {
  const out = new Map<number, FilterSubject & { readonly id: ChunkId }>()
  if (rows.length === 0) return out
  const found = db.prepare(
    "SELECT c.row AS row, c.id AS id, c.path AS path, c.note_type AS note_type, c.status AS status, c.state AS state, c.created_at AS created_at " +
      "FROM chunks c WHERE c.row IN (SELECT value FROM json_each(?))"
  ).all(JSON.stringify(rows)) as Array<Record<string, unknown>>
  for (const row of found) {
    out.set(Number(row.row), {
      id: row.id as ChunkId,
      path: row.path as string,
      noteType: row.note_type as Chunk["noteType"],
      status: row.status as Chunk["status"],
      provenance: { state: row.state as Chunk["provenance"]["state"], createdAt: row.created_at as string | null }
    })
  }
  return out
}
