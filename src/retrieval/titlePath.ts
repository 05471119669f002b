/**
 * The title/path channel: a leg that names notes whose title or file name is what the question
 * asks for. A note scores the smaller of two coverages, the query's content terms found in its name
 * and its name's terms found in the query, so one shared function word cannot make a match. Below
 * the floor the channel abstains (an empty list), and fusion then ignores it entirely.
 */
import { Context, Layer } from "effect"
import type { ChunkId } from "../domain/Chunk.ts"
import { byScoreThen } from "../domain/Ranking.ts"
import { queryTerms } from "../text/Words.ts"
import type { NoteSummary } from "../ports/CandidateStore.ts"

export interface TitlePathOptions {
  readonly titlePathLimit: number
  readonly titlePathMinScore: number
  /** Analysed (folded, stemmed) stopwords; build them with `analysedStopwords`. */
  readonly stopwords: ReadonlySet<string>
}

export interface NamedNote {
  readonly note: string
  readonly chunk: ChunkId
  readonly score: number
}

const baseName = (path: string): string => {
  const file = path.slice(path.lastIndexOf("/") + 1)
  const dot = file.indexOf(".")
  return dot > 0 ? file.slice(0, dot) : file
}

const contentTerms = (text: string, stopwords: ReadonlySet<string>): Set<string> =>
  new Set(queryTerms(text).filter((term) => !stopwords.has(term)))

/**
 * Every analysed term of a note's name, its title and its file name without extension (not its
 * directories), stopwords kept: what a store may keep beside the note (`NoteSummary.nameTerms`).
 */
export const analysedName = (note: Pick<NoteSummary, "title" | "path">): Array<string> =>
  queryTerms(`${note.title} ${baseName(note.path)}`)

/** Terms of a note's name without `stopwords`, from what its store kept when it kept them. */
export const nameTerms = (note: Pick<NoteSummary, "title" | "path" | "nameTerms">, stopwords: ReadonlySet<string>): Set<string> =>
  new Set((note.nameTerms ?? analysedName(note)).filter((term) => !stopwords.has(term)))

// Stores hand back the same summaries query after query; analysing each name once keeps the channel
// a set lookup per note.
const nameCache = new WeakMap<ReadonlySet<string>, WeakMap<NoteSummary, Set<string>>>()
const cachedNameTerms = (note: NoteSummary, stopwords: ReadonlySet<string>): Set<string> => {
  let byNote = nameCache.get(stopwords)
  if (byNote === undefined) {
    byNote = new WeakMap()
    nameCache.set(stopwords, byNote)
  }
  let terms = byNote.get(note)
  if (terms === undefined) {
    terms = nameTerms(note, stopwords)
    byNote.set(note, terms)
  }
  return terms
}

// Stores hand back the same note list until the index changes; its term postings are built once.
const postingsCache = new WeakMap<ReadonlyArray<NoteSummary>, WeakMap<ReadonlySet<string>, Map<string, Array<NoteSummary>>>>()
const postingsFor = (notes: ReadonlyArray<NoteSummary>, stopwords: ReadonlySet<string>): Map<string, Array<NoteSummary>> => {
  let byStopwords = postingsCache.get(notes)
  if (byStopwords === undefined) postingsCache.set(notes, (byStopwords = new WeakMap()))
  let postings = byStopwords.get(stopwords)
  if (postings === undefined) {
    postings = new Map()
    for (const note of notes) {
      for (const term of cachedNameTerms(note, stopwords)) {
        let list = postings.get(term)
        if (list === undefined) postings.set(term, (list = []))
        list.push(note)
      }
    }
    byStopwords.set(stopwords, postings)
  }
  return postings
}

export const scoreNote = (query: ReadonlySet<string>, name: ReadonlySet<string>): number => {
  if (query.size === 0 || name.size === 0) return 0
  let shared = 0
  for (const term of query) if (name.has(term)) shared++
  return Math.min(shared / query.size, shared / name.size)
}

export const nameNotes = (
  text: string,
  notes: ReadonlyArray<NoteSummary>,
  options: TitlePathOptions
): Array<NamedNote> => {
  if (options.titlePathLimit <= 0) return []
  const query = contentTerms(text, options.stopwords)
  if (query.size === 0) return []
  // Only notes sharing a term with the question can score above zero: look them up by term.
  const postings = postingsFor(notes, options.stopwords)
  const candidates = new Set<NoteSummary>()
  for (const term of query) for (const note of postings.get(term) ?? []) candidates.add(note)
  const named: Array<NamedNote> = []
  for (const note of candidates) {
    const score = scoreNote(query, cachedNameTerms(note, options.stopwords))
    if (score > 0 && score >= options.titlePathMinScore) named.push({ note: note.id, chunk: note.leadChunk, score })
  }
  return named
    .sort(byScoreThen((r) => r.note))
    .slice(0, options.titlePathLimit)
}

export class TitlePathChannel extends Context.Service<TitlePathChannel, {
  readonly name: (text: string, notes: ReadonlyArray<NoteSummary>, options: TitlePathOptions) => Array<NamedNote>
}>()("cairn/retrieval/TitlePathChannel") {}

export const layer: Layer.Layer<TitlePathChannel> = Layer.succeed(TitlePathChannel, { name: nameNotes })
