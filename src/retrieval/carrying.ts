/**
 * Which of a question's named terms carry it: what the question is about, as opposed to the words
 * that shape it. Shared by the gap detector (only a carrying term is reported missing) and the
 * answerability score (only carrying terms are weighed).
 */
import type { Term } from "./terms.ts"

/** How many chunks hold a term, by its rarest word; undefined when a word was not counted. */
export const termFrequency = (term: Term, frequencies: ReadonlyMap<string, number> | undefined): number | undefined => {
  if (frequencies === undefined) return undefined
  const counts = term.display.split(" ").map((word) => frequencies.get(word))
  return counts.some((count) => count === undefined) ? undefined : Math.min(...(counts as Array<number>))
}

/**
 * Words that shape a question without naming what it asks about: pronouns, determiners,
 * quantifiers, connectives and degree adverbs beyond the stopword list (which stage 7's coverage
 * shares, so it stays short). A document set may hold one rarely, but its absence is no gap.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  "itself", "himself", "herself", "themselves", "ourselves", "yourself", "yourselves", "myself",
  "somebody", "someone", "something", "anybody", "anyone", "anything", "everybody", "everyone",
  "everything", "nobody", "nothing", "each", "every", "either", "neither", "both", "other", "another",
  "such", "same", "own", "much", "many", "more", "most", "less", "least", "several", "still", "while",
  "already", "also", "just", "only", "even", "really", "very", "quite", "rather", "instead", "again",
  "ever", "never", "always", "completely", "actually", "currently", "usually", "exactly", "simply",
  "whether", "though", "although", "because", "since", "until", "unless", "before", "after", "during",
  "without", "within", "upon", "onto", "towards", "toward", "whose", "whom", "here", "those", "else",
  "anyway", "somehow", "somewhere", "anywhere", "everywhere", "thing", "things", "want", "wants"
])

/**
 * The terms that carry the question: of those that are not function words, the rarer half in the
 * whole index (ties kept together, so a word the index never saw always carries). A common word
 * the claims do without ("detected" when they say "found") is not what the question is about, so
 * its absence is no gap. Without counts every term carries.
 */
export const carryingTerms = (terms: ReadonlyArray<Term>, frequencies: ReadonlyMap<string, number> | undefined): ReadonlySet<number> => {
  const all = new Set(terms.flatMap((term, index) => FUNCTION_WORDS.has(term.display) ? [] : [index]))
  if (frequencies === undefined || all.size <= 1) return all
  const counted = terms.map((term) => termFrequency(term, frequencies))
  // A term the index could not count is kept, as if unseen.
  const known = [...all].map((index) => counted[index]).filter((count): count is number => count !== undefined).sort((a, b) => a - b)
  const bar = known[Math.ceil(all.size / 2) - 1] ?? Infinity
  return new Set([...all].filter((index) => {
    const count = counted[index]
    return count === undefined || count <= bar
  }))
}
