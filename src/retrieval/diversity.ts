/**
 * Stage 8, diversity: a reordering, never a drop. One note may place at most `diversityCapPerNote`
 * chunks before every note in the list has placed one.
 *
 * Precisely, over the candidates in rank order (`Ranking.byScoreDescThenId`):
 * 1. Walk the list; place a candidate when its note has placed fewer than the cap, otherwise set it
 *    aside. Stop right after the last note not yet seen places its first chunk.
 * 2. Backfill: every candidate not placed (set aside, or not reached by the walk) follows, in rank
 *    order, with no cap.
 *
 * So the output is two runs, each in rank order, with the same candidates as the input. A list of
 * one note, or a cap at least as large as any note's chunk count, comes back in plain rank order.
 */
import { Context, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import { sortCandidates } from "../domain/Ranking.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"

export type DiversityOptions = Pick<RetrievalConfigShape, "diversityCapPerNote">

/**
 * The reordered list. A fractional cap rounds down (at most 2.5 chunks is at most 2), and a cap below
 * 1 acts as 1, since a note's first chunk is always placed.
 */
export const diversify = (candidates: ReadonlyArray<Candidate>, options: DiversityOptions): Array<Candidate> => {
  const ranked = sortCandidates(candidates)
  const notes = new Set(ranked.map((c) => c.chunk.noteId)).size
  const cap = Math.max(1, Math.floor(options.diversityCapPerNote))
  const placed = new Map<string, number>()
  const head: Array<Candidate> = []
  const rest: Array<Candidate> = []
  for (const candidate of ranked) {
    const count = placed.get(candidate.chunk.noteId) ?? 0
    if (placed.size < notes && count < cap) {
      placed.set(candidate.chunk.noteId, count + 1)
      head.push(candidate)
    } else rest.push(candidate)
  }
  return [...head, ...rest]
}

export class Diversity extends Context.Service<Diversity, {
  /** A permutation of `candidates`: the capped walk, then the backfill, each in rank order. */
  readonly diversify: (candidates: ReadonlyArray<Candidate>, options: DiversityOptions) => Array<Candidate>
}>()("cairn/retrieval/Diversity") {}

export const layer: Layer.Layer<Diversity> = Layer.succeed(Diversity, { diversify })

/** No cap: plain rank order. For ablations. */
export const layerOff: Layer.Layer<Diversity> = Layer.succeed(Diversity, {
  diversify: (candidates) => sortCandidates(candidates)
})
