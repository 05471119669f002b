/**
 * CandidateStore over `cairn_chunks` and `cairn_notes`. Answers as CandidateStoreMemory answers over
 * the same chunks: note summaries are derived from the chunks by the writer, every list is sorted
 * by the house order, and the filter runs in SQL and again over the chunks read.
 */
import { Effect, Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import { CandidateStore, CandidateStoreError, type NoteSummary } from "../../src/ports/CandidateStore.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import * as NoteNames from "../sqlite/NoteNames.ts"
import { chunkClause, Params, textArray } from "./PgFilter.ts"
import { PgIndex } from "./PgIndex.ts"
import { reconnecting } from "./Reconnecting.ts"
import { toChunk } from "./PgRows.ts"

const byLine = (a: Chunk, b: Chunk): number => a.lineStart - b.lineStart || compareIds(a.id, b.id)

const unavailable = (error: unknown) =>
  error instanceof CandidateStoreError ? error
    : new CandidateStoreError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

export const make = Effect.gen(function*() {
  const { sql, repository } = yield* PgIndex
  const read = reconnecting(sql)
  // The title/path channel asks for the notes on every query, mostly with one filter; the answer
  // holds until the next commit.
  let lastNotes: { readonly key: string; readonly notes: ReadonlyArray<NoteSummary> } | undefined
  const generation = read(sql.unsafe<{ generation: number }>("SELECT generation FROM cairn_manifest WHERE repository = $1", [repository])).pipe(
    Effect.map(([row]) => (row === undefined ? 0 : Number(row.generation)))
  )

  return CandidateStore.of({
    size: read(sql.unsafe<{ n: number }>("SELECT chunk_count AS n FROM cairn_manifest WHERE repository = $1", [repository])).pipe(
      Effect.map(([row]) => (row === undefined ? 0 : Number(row.n))),
      Effect.mapError(unavailable)
    ),
    get: (ids) =>
      Effect.gen(function*() {
        if (ids.length === 0) return []
        const rows = yield* read(sql.unsafe<{ id: string; body: string }>(
          "SELECT id, body FROM cairn_chunks WHERE repository = $1 AND id = ANY($2::text[])",
          [repository, textArray(ids)]
        ))
        const byId = new Map(rows.map((row) => [row.id, row.body] as const))
        const out: Array<Chunk> = []
        for (const id of ids) {
          const body = byId.get(id)
          if (body === undefined) return yield* new CandidateStoreError({ reason: "missing_chunk", detail: id })
          out.push(toChunk(body))
        }
        return out
      }).pipe(Effect.mapError(unavailable)),
    chunksOfNotes: (notes, perNote, filter) =>
      Effect.gen(function*() {
        if (notes.length === 0 || !(perNote > 0)) return []
        const params = new Params()
        params.add(repository)
        const list = params.add(textArray(notes))
        const where = chunkClause(filter, "c", params)
        const rows = yield* read(sql.unsafe<{ note_id: string; body: string }>(
          `SELECT c.note_id, c.body FROM cairn_chunks c WHERE c.repository = $1 AND c.note_id = ANY(${list}::text[]) AND NOT c.is_link_list AND ${where}`,
          params.values
        ))
        const byNote = new Map<string, Array<Chunk>>()
        for (const row of rows) {
          const chunk = toChunk(row.body)
          const held = byNote.get(row.note_id)
          if (held === undefined) byNote.set(row.note_id, [chunk])
          else held.push(chunk)
        }
        const passes = compile(filter)
        const out: Array<Chunk> = []
        for (const note of notes) {
          let taken = 0
          for (const chunk of (byNote.get(note) ?? []).sort(byLine)) {
            if (taken >= perNote) break
            if (!passes(chunk)) continue
            out.push(chunk)
            taken++
          }
        }
        return out
      }).pipe(Effect.mapError(unavailable)),
    notes: (filter) =>
      Effect.gen(function*() {
        const key = `${yield* generation}|${JSON.stringify(filter)}`
        if (lastNotes !== undefined && lastNotes.key === key) return lastNotes.notes
        const params = new Params()
        params.add(repository)
        const where = chunkClause(filter, "c", params)
        const rows = yield* read(sql.unsafe<{ id: string; title: string; path: string; chunk_count: number; lead_chunk: string; name_terms: string | null }>(
          "SELECT n.id, n.title, n.path, n.chunk_count, n.lead_chunk, n.name_terms FROM cairn_notes n " +
            `WHERE n.repository = $1 AND n.chunk_count > 0 AND EXISTS (SELECT 1 FROM cairn_chunks c WHERE c.repository = n.repository AND c.note_id = n.id AND ${where})`,
          params.values
        ))
        const notes = [...rows].sort((a, b) => compareIds(a.id, b.id)).map((row): NoteSummary => {
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
      }).pipe(Effect.mapError(unavailable)),
    chunkCounts: (notes) =>
      read(sql.unsafe<{ id: string; chunk_count: number }>(
        "SELECT id, chunk_count FROM cairn_notes WHERE repository = $1 AND chunk_count > 0 AND id = ANY($2::text[])",
        [repository, textArray(notes)]
      )).pipe(
        Effect.map((rows) => {
          const counts = new Map(rows.map((row) => [row.id, Number(row.chunk_count)] as const))
          return new Map(notes.flatMap((note) => {
            const n = counts.get(note)
            return n === undefined ? [] : [[note, n] as const]
          }))
        }),
        Effect.mapError(unavailable)
      )
  })
})

export const layer: Layer.Layer<CandidateStore, never, PgIndex> = Layer.effect(CandidateStore, make)
