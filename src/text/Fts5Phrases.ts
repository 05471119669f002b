/**
 * The FTS5 query a question becomes: one quoted phrase per distinct stem of its words, OR-joined.
 * The phrase quotes the unstemmed surface, since the FTS5 table (`porter unicode61`) stems it itself;
 * the stem is kept beside it to match FTS5's own index and the reference backend's postings.
 */
import { stem } from "./Porter.ts"
import { surfaces } from "./Words.ts"

export interface Phrase {
  /** The unstemmed surface quoted in the MATCH expression. */
  readonly surface: string
  readonly stem: string
}

/** One phrase per distinct stem of the question, in first-appearance order. */
export const phrasesOf = (query: string): Array<Phrase> => {
  const seen = new Set<string>()
  const phrases: Array<Phrase> = []
  for (const surface of surfaces(query)) {
    const term = stem(surface)
    if (seen.has(term)) continue
    seen.add(term)
    phrases.push({ surface, stem: term })
  }
  return phrases
}

/**
 * The phrases quoted and OR-joined: FTS5's implicit operator is AND, which a question would almost
 * never satisfy. A `"` inside a surface is doubled, as FTS5's string syntax asks.
 */
export const matchExpression = (phrases: ReadonlyArray<Phrase>): string =>
  phrases.map((phrase) => `"${phrase.surface.replaceAll("\"", "\"\"")}"`).join(" OR ")
