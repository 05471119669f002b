/**
 * CandidateStore over the index file's `chunks` and `notes` tables. Answers as
 * CandidateStoreMemory answers over the same chunks: note summaries are derived from the chunks
 * by the writer, every list is sorted by the house order, and the filter runs in SQL and again
 * over the chunks read.
 */
import { Effect, Layer } from "effect"
import type { DatabaseSync } from "node:sqlite"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import { CandidateStore, CandidateStoreError, type NoteSummary } from "../../src/ports/CandidateStore.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import * as ChunkStems from "./ChunkStems.ts"
import { Database } from "./Database.ts"
import { chunkClause } from "./FilterSql.ts"
import * as NoteNames from "./NoteNames.ts"
import { selectChunk, toChunk } from "./Rows.ts"

const byLine = (a: Chunk, b: Chunk): number => a.lineStart - b.lineStart || compareIds(a.id, b.id)

const unavailable = (error: unknown) =>
  new CandidateStoreError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

const query = <A>(body: () => A): Effect.Effect<A, CandidateStoreError> => Effect.try({ try: body, catch: unavailable })

const generation = (db: DatabaseSync): number => {
  const row = db.prepare("SELECT generation FROM manifest WHERE key = 1").get() as { generation: number } | undefined
  return row === undefined ? 0 : Number(row.generation)
}

export const make = Effect.gen(function*() {
  const { connection: db } = yield* Database
  // The title/path channel asks for the notes on every query, mostly with one filter; the
  // answer holds until the next commit.
  let lastNotes: { readonly key: string; readonly notes: ReadonlyArray<NoteSummary> } | undefined
  // A file from before names were stored, opened read-only, has no column to read.
  const namesStored = NoteNames.stored(db)
  const remember = ChunkStems.remembering(db)

  return CandidateStore.of({
    size: query(() => {
      const row = db.prepare("SELECT chunk_count FROM manifest WHERE key = 1").get() as { chunk_count: number } | undefined
      return row === undefined ? 0 : Number(row.chunk_count)
    }),
    get: (ids: ReadonlyArray<ChunkId>) =>
      query(() => {
        const rows = db.prepare(`SELECT ${selectChunk("c")} FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(ids)) as Array<Record<string, unknown>>
        const byId = new Map(rows.map((row) => [row.id as string, toChunk(row)] as const))
        for (const chunk of byId.values()) remember(chunk)
        const out: Array<Chunk> = []
        for (const id of ids) {
          const chunk = byId.get(id)
          if (chunk === undefined) return new CandidateStoreError({ reason: "missing_chunk", detail: id })
          out.push(chunk)
        }
        return out
      }).pipe(Effect.flatMap((result) => (result instanceof CandidateStoreError ? Effect.fail(result) : Effect.succeed(result)))),
    chunksOfNotes: (notes, perNote, filter) =>
      query(() => {
        const clause = chunkClause(filter, "c")
        const statement = db.prepare(`SELECT ${selectChunk("c")} FROM chunks c WHERE c.note_id = ? AND c.is_link_list = 0 AND ${clause.sql}`)
        const passes = compile(filter)
        const out: Array<Chunk> = []
        for (const note of notes) {
          const chunks = (statement.all(note, ...clause.params) as Array<Record<string, unknown>>).map(toChunk).sort(byLine)
          for (const chunk of chunks) remember(chunk)
          let taken = 0
          for (const chunk of chunks) {
            if (taken >= perNote) break
            if (!passes(chunk)) continue
            out.push(chunk)
            taken++
          }
        }
        return out
      }),
    notes: (filter) =>
      query(() => {
        const key = `${generation(db)}|${JSON.stringify(filter)}`
        if (lastNotes !== undefined && lastNotes.key === key) return lastNotes.notes
        const clause = chunkClause(filter, "c")
        const rows = db.prepare(
          `SELECT n.id, n.title, n.path, n.chunk_count, n.lead_chunk${namesStored ? ", n.name_terms" : ""} FROM notes n ` +
            `WHERE n.chunk_count > 0 AND EXISTS (SELECT 1 FROM chunks c WHERE c.note_id = n.id AND ${clause.sql})`
        ).all(...clause.params) as Array<{ id: string; title: string; path: string; chunk_count: number; lead_chunk: string; name_terms?: string | null }>
        const notes = rows.sort((a, b) => compareIds(a.id, b.id)).map((row): NoteSummary => {
          const nameTerms = NoteNames.decode(row.name_terms)
          return {
            id: row.id,
            title: row.title,
            path: row.path,
            chunkCount: Number(row.chunk_count),
            leadChunk: row.lead_chunk as ChunkId,
            ...(nameTerms === undefined ? {} : { nameTerms })
          }
        })
        lastNotes = { key, notes }
        return notes
      }),
    chunkCounts: (notes) =>
      query(() => {
        const rows = db.prepare("SELECT id, chunk_count FROM notes WHERE chunk_count > 0 AND id IN (SELECT value FROM json_each(?))")
          .all(JSON.stringify(notes)) as Array<{ id: string; chunk_count: number }>
        const counts = new Map(rows.map((row) => [row.id, Number(row.chunk_count)] as const))
        return new Map(notes.flatMap((note) => {
          const n = counts.get(note)
          return n === undefined ? [] : [[note, n] as const]
        }))
      })
  })
})

export const layer: Layer.Layer<CandidateStore, never, Database> = Layer.effect(CandidateStore, make)
