/**
 * How well what was retrieved answers the question, as one number in [0, 1]: the share of the
 * question's term weight that the best single passage holds, each term weighed by how rare it is
 * in the whole index (a word the index never saw weighs most). A question the knowledge base
 * answers usually has one passage holding most of what it asks about; an unanswerable one tends to
 * find its words scattered over passages about something near it.
 *
 * Measured on the dev splits of four question sets (`eval/calibrate.ts`), this alone separated
 * answerable from unanswerable questions as well as any mix tried with it: the union of the top
 * passages, the best sentence with its heading, whether the rarest term was found, whether the
 * legs agree on the first note, and whether an amount asked for was given (docs/recall.md).
 */
import type { Candidate } from "../domain/Candidate.ts"
import { coveredTerms, passageStems, type Term } from "./terms.ts"

export interface AnswerabilityInput {
  /** The question's named terms, function words left out, in query order. */
  readonly terms: ReadonlyArray<Term>
  /** How many chunks of the index hold each term (its rarest word), capped; undefined when unknown. */
  readonly termFrequencies: ReadonlyArray<number | undefined>
  /** Chunks in the index. */
  readonly corpusSize: number
  /** The passages going to the packer, in rank order. */
  readonly candidates: ReadonlyArray<Candidate>
  /** How many of the first passages are read. */
  readonly depth: number
}

export interface Answerability {
  /** The best passage's share of the question's term weight; 1 for a question without terms. */
  readonly score: number
  /** The terms no passage read holds, heaviest first. */
  readonly missing: ReadonlyArray<Term>
}

/** Inverse document frequency, smoothed so an unseen word stays finite. */
const weightOf = (frequency: number | undefined, corpusSize: number): number =>
  Math.log(1 + (corpusSize + 1) / ((frequency ?? 0) + 0.5))

export const answerability = (input: AnswerabilityInput): Answerability => {
  const read = input.candidates.slice(0, Math.max(1, input.depth))
  if (input.candidates.length === 0) return { score: 0, missing: input.terms }
  if (input.terms.length === 0) return { score: 1, missing: [] }
  const weights = input.terms.map((_, i) => weightOf(input.termFrequencies[i], input.corpusSize))
  const total = weights.reduce((a, b) => a + b, 0)
  const covers = read.map((c) => coveredTerms(passageStems(c.chunk), input.terms))
  const share = (indices: ReadonlySet<number>) => [...indices].reduce((sum, i) => sum + weights[i]!, 0) / total
  const held = new Set(covers.flatMap((c) => [...c]))
  const missing = input.terms
    .map((term, index) => ({ term, index }))
    .filter(({ index }) => !held.has(index))
    .sort((a, b) => weights[b.index]! - weights[a.index]! || a.index - b.index)
    .map(({ term }) => term)
  return { score: Math.max(...covers.map(share)), missing }
}
