/**
 * A corpus as the bench runner sees it: the chunks and edges recall indexes (and the note signals
 * it may read), the raw documents the question validator and the trap checks read, the anchor date
 * the run is evaluated at, and the planted facts (conflicts, gap premises) some metrics are scored
 * against.
 */
import type { Chunk } from "../src/domain/Chunk.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import type { PlantedConflict } from "./metrics.ts"

export interface GapPremise {
  readonly id: string
  readonly question: string
  readonly mustNotAppear: ReadonlyArray<string>
}

export interface EvalCorpus {
  readonly name: string
  readonly chunks: ReadonlyArray<Chunk>
  readonly edges: ReadonlyArray<NoteEdge>
  /** Corpus-relative path → file text. */
  readonly documents: ReadonlyMap<string, string>
  /** Epoch milliseconds every question is evaluated at. */
  readonly anchor: number
  readonly conflicts: ReadonlyArray<PlantedConflict>
  readonly gapPremises: ReadonlyArray<GapPremise>
  /** Notes a newer note contradicts or retired: what staleness counts. */
  readonly staleNotes: ReadonlySet<string>
  /** Note path → graph canonicality in [0, 1] over the corpus's own documents, when computed. */
  readonly canonicality?: ReadonlyMap<string, number>
}

const normalise = (text: string): string => text.replace(/`/gu, "").replace(/\s+/gu, " ").toLowerCase()

/** Whether `needle` occurs in some document of the corpus (normalised as the metrics match; never across two documents). */
export const corpusContains = (corpus: EvalCorpus) => {
  const documents = [...corpus.documents.values()].map(normalise)
  return (needle: string): boolean => {
    const wanted = normalise(needle)
    return documents.some((document) => document.includes(wanted))
  }
}

/** Whether `needle` occurs on one line of a document, as the chunker kept it. */
export const lineOf = (corpus: EvalCorpus, path: string, needle: string): boolean => {
  const wanted = normalise(needle).trim()
  for (const chunk of corpus.chunks) {
    if (chunk.noteId !== path) continue
    for (const line of chunk.text.split("\n")) if (normalise(line).includes(wanted)) return true
  }
  return false
}
