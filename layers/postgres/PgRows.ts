/**
 * A chunk as a row of `cairn_chunks` and back. The chunk itself is JSON text (`body`); beside it
 * the columns the retrieval filter, the note summaries and the ranking read, derived as the SQLite
 * layer derives them (Rows.ts), so a filter means the same on both.
 */
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { createdMillis, isSuperseded } from "../sqlite/Rows.ts"
import type { Analysis } from "./PgPostings.ts"

export interface ChunkRow {
  readonly repository: string
  readonly id: string
  readonly note_id: string
  readonly path: string
  readonly title: string
  readonly note_type: string
  readonly superseded: boolean
  readonly created_ms: number
  readonly line_start: number
  readonly is_link_list: boolean
  readonly content_sha: string
  readonly token_count: number
  readonly body: string
}

export const chunkRow = (repository: string, chunk: Chunk, analysis: Analysis): ChunkRow => ({
  repository,
  id: chunk.id,
  note_id: chunk.noteId,
  path: chunk.path,
  title: chunk.title,
  note_type: chunk.noteType,
  superseded: isSuperseded(chunk),
  created_ms: createdMillis(chunk.provenance.createdAt),
  line_start: chunk.lineStart,
  is_link_list: chunk.isLinkList,
  content_sha: chunk.contentSha,
  token_count: analysis.length,
  body: JSON.stringify(chunk)
})

/** The chunk a `body` was written from, its keys in the schema's order (as Rows.toChunk gives them). */
export const toChunk = (body: string): Chunk => {
  const chunk = JSON.parse(body) as Chunk
  return {
    id: chunk.id as ChunkId,
    noteId: chunk.noteId,
    path: chunk.path,
    title: chunk.title,
    headingPath: chunk.headingPath,
    text: chunk.text,
    tags: chunk.tags,
    noteType: chunk.noteType,
    lineStart: chunk.lineStart,
    lineEnd: chunk.lineEnd,
    blockId: chunk.blockId,
    contentSha: chunk.contentSha,
    provenance: {
      authorKind: chunk.provenance.authorKind,
      author: chunk.provenance.author,
      createdAt: chunk.provenance.createdAt,
      state: chunk.provenance.state
    },
    status: chunk.status,
    updated: chunk.updated,
    isLinkList: chunk.isLinkList,
    symbols: chunk.symbols
  }
}
