/**
 * Reference CandidateStore: chunks held in memory, indexed by id and by note. Notes are summarised
 * once when the layer is built; every list it returns is sorted, so insertion order never shows.
 */
import { Effect, Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import { CandidateStore, CandidateStoreError, type NoteSummary } from "../../src/ports/CandidateStore.ts"
import { compile, type RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { analysedName } from "../../src/retrieval/titlePath.ts"

const byLine = (a: Chunk, b: Chunk): number => a.lineStart - b.lineStart || compareIds(a.id, b.id)

export const make = (chunks: ReadonlyArray<Chunk>): CandidateStore["Service"] => {
  const byId = new Map<ChunkId, Chunk>()
  const byNote = new Map<string, Array<Chunk>>()
  for (const chunk of [...chunks].sort((a, b) => compareIds(a.id, b.id))) {
    byId.set(chunk.id, chunk)
    let list = byNote.get(chunk.noteId)
    if (list === undefined) byNote.set(chunk.noteId, (list = []))
    list.push(chunk)
  }
  const noteIds = [...byNote.keys()].sort(compareIds)
  for (const list of byNote.values()) list.sort(byLine)
  const summaries = new Map<string, NoteSummary>(noteIds.map((id) => {
    const list = byNote.get(id)!
    const lead = list[0]!
    // Analysed once here, as the SQLite store writes them with the note.
    return [id, { id, title: lead.title, path: lead.path, chunkCount: list.length, leadChunk: lead.id, nameTerms: analysedName(lead) }]
  }))

  let lastNotes: { readonly key: string; readonly notes: ReadonlyArray<NoteSummary> } | undefined

  return CandidateStore.of({
    size: Effect.succeed(byId.size),
    get: (ids) =>
      Effect.suspend(() => {
        const out: Array<Chunk> = []
        for (const id of ids) {
          const chunk = byId.get(id)
          if (chunk === undefined) return Effect.fail(new CandidateStoreError({ reason: "missing_chunk", detail: id }))
          out.push(chunk)
        }
        return Effect.succeed(out)
      }),
    chunksOfNotes: (notes, perNote, filter: RetrievalFilter) =>
      Effect.sync(() => {
        const passes = compile(filter)
        const out: Array<Chunk> = []
        for (const note of notes) {
          let taken = 0
          for (const chunk of byNote.get(note) ?? []) {
            if (taken >= perNote) break
            if (chunk.isLinkList || !passes(chunk)) continue
            out.push(chunk)
            taken++
          }
        }
        return out
      }),
    notes: (filter) =>
      Effect.sync(() => {
        // Most queries carry the same (often empty) filter; the title/path channel asks every time.
        const key = JSON.stringify(filter)
        if (lastNotes !== undefined && lastNotes.key === key) return lastNotes.notes
        const passes = compile(filter)
        const notes = noteIds.filter((id) => byNote.get(id)!.some(passes)).map((id) => summaries.get(id)!)
        lastNotes = { key, notes }
        return notes
      }),
    chunkCounts: (notes) =>
      Effect.sync(() => new Map(notes.flatMap((note) => {
        const summary = summaries.get(note)
        return summary === undefined ? [] : [[note, summary.chunkCount] as const]
      })))
  })
}

export const layer = (chunks: ReadonlyArray<Chunk>): Layer.Layer<CandidateStore> => Layer.sync(CandidateStore, () => make(chunks))
