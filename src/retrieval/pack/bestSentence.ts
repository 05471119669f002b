/**
 * The sentence of a claim that best answers the question, for a reader: the one containing the most
 * of the question's named terms, each weighted by how few of the pack's claims contain it (a word
 * every claim holds tells the reader nothing). Term identity is terms.ts's, the one stage 7 and the
 * gap detector use, so the sentence marked is one the ranking would agree covers those terms.
 */
import { terms as analysedTerms } from "../../text/Words.ts"
import { type SentenceOptions, sentenceSpans, type Span } from "../../text/Sentences.ts"
import { containsSequence, type Term } from "../terms.ts"

export interface BestSentence extends Span {
  /** Indices into the terms given of those the sentence contains. */
  readonly terms: ReadonlyArray<number>
}

const contains = (stems: ReadonlyArray<string>, distinct: ReadonlySet<string>, term: Term): boolean =>
  term.tokens.length === 1 ? distinct.has(term.tokens[0]!) : term.tokens.every((t) => distinct.has(t)) && containsSequence(stems, term.tokens)

/** Indices of the terms `text` contains. */
export const termsIn = (text: string, terms: ReadonlyArray<Term>): Array<number> => {
  const stems = analysedTerms(text)
  const distinct = new Set(stems)
  return terms.flatMap((term, index) => contains(stems, distinct, term) ? [index] : [])
}

/**
 * The best sentence of `text` for `terms`, or undefined when no sentence holds any of them (a
 * claim found by meaning alone). `weights[i]` weighs term i (1 when absent); ties go to the earlier
 * sentence, so the result depends on the text and the terms alone. Code is read a line at a time
 * (`options.lines`).
 */
export const bestSentence = (
  text: string,
  terms: ReadonlyArray<Term>,
  weights: ReadonlyArray<number> = [],
  options: SentenceOptions = {}
): BestSentence | undefined => {
  if (terms.length === 0) return undefined
  let best: BestSentence | undefined
  let bestScore = 0
  for (const span of sentenceSpans(text, options)) {
    const found = termsIn(text.slice(span.start, span.end), terms)
    const score = found.reduce((sum, i) => sum + (weights[i] ?? 1), 0)
    if (score > bestScore) {
      best = { ...span, terms: found }
      bestScore = score
    }
  }
  return best
}
