/**
 * The one stopword list: the words a question is made of that never carry it. Configuration may
 * replace it (`gapStopwords`); each consumer analyses the list it is given the way it analyses
 * text, folded for word matching or folded and stemmed for term matching, once per list.
 */
import { queryTerms, words } from "./Words.ts"

export const STOPWORDS: ReadonlyArray<string> = [
  "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
  "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "should", "so", "that", "the",
  "their", "there", "these", "this", "to", "was", "we", "what", "when", "where", "which", "who", "why",
  "will", "with", "you", "your", "have", "has", "had", "did", "would", "could", "into", "than", "then",
  "they", "them", "were", "been", "being", "any", "all", "some", "get", "use", "used", "using", "need"
]

const memoised = (analyse: (word: string) => ReadonlyArray<string>) => {
  const sets = new WeakMap<ReadonlyArray<string>, ReadonlySet<string>>()
  return (list: ReadonlyArray<string>): ReadonlySet<string> => {
    let set = sets.get(list)
    if (set === undefined) {
      set = new Set(list.flatMap(analyse))
      sets.set(list, set)
    }
    return set
  }
}

/** The list folded as `Words.words` folds text. The same list gives the same set object. */
export const foldedStopwords: (list: ReadonlyArray<string>) => ReadonlySet<string> = memoised(words)

/**
 * The list as the analyser emits terms, folded and stemmed, so `does` (stemmed `doe`) is still a
 * stopword. The same list gives the same set object, which keys per-note caches in the title/path
 * channel.
 */
export const analysedStopwords: (list: ReadonlyArray<string>) => ReadonlySet<string> = memoised(queryTerms)
