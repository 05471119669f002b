/**
 * The query's named terms and what it means for a passage to contain one: one definition shared by
 * stage 7's coverage factors and the gap detector, so a claim ranked for covering a word can never
 * report that word as a gap. A term is one stemmed word, or a phrase whose words must appear
 * contiguously (a hyphenated or quoted group in the query); stopwords and short words are not named.
 */
import type { Chunk } from "../domain/Chunk.ts"
import { terms as analysedTerms, words } from "../text/Words.ts"
import { stem } from "../text/Porter.ts"
import { foldedStopwords } from "../text/Stopwords.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"

export interface Term {
  /** The words as the query wrote them (folded), for gap sentences. */
  readonly display: string
  /** Stemmed tokens, matched contiguously. */
  readonly tokens: ReadonlyArray<string>
}

export interface TermOptions {
  readonly stopwords: ReadonlySet<string>
  /** Shortest single word that is named (phrases are named whatever their words' lengths). */
  readonly minLength: number
  /** Terms considered, in query order. */
  readonly maxTerms: number
}

// Groups of words the query joined without spaces (`blue-green`, `max_retries`, `a/b`) or quoted.
const QUOTED = /"([^"]{1,200})"|“([^”]{1,200})”/gu
const JOINED = /\S+/gu

/**
 * The named terms of a query, distinct, in query order, at most `maxTerms`. Linear in the query: the
 * tokenizer and both patterns make one pass.
 */
export const queryTerms = (text: string, options: TermOptions): Array<Term> => {
  const out: Array<Term> = []
  const seen = new Set<string>()
  const add = (display: string, tokens: ReadonlyArray<string>) => {
    const key = tokens.join(" ")
    if (tokens.length === 0 || seen.has(key) || out.length >= options.maxTerms) return
    seen.add(key)
    out.push({ display, tokens })
  }
  const phrase = (raw: string): Array<string> => words(raw).filter((word) => !options.stopwords.has(word))
  const free = (segment: string) => {
    for (const match of segment.matchAll(JOINED)) {
      const group = words(match[0])
      const kept = group.filter((word) => !options.stopwords.has(word))
      if (group.length > 1 && kept.length > 1) {
        add(kept.join(" "), kept.map(stem))
        continue
      }
      for (const word of group) {
        if (word.length >= options.minLength && !options.stopwords.has(word)) add(word, [stem(word)])
      }
    }
  }
  // Walk the query in order: free text between quotes, then each quoted phrase as one term.
  let cursor = 0
  for (const match of text.matchAll(QUOTED)) {
    free(text.slice(cursor, match.index))
    const kept = phrase(match[1] ?? match[2] ?? "")
    add(kept.join(" "), kept.map(stem))
    cursor = match.index + match[0].length
  }
  free(text.slice(cursor))
  return out
}

/** The settings that decide which of a query's words are named. */
export type TermSettings = Pick<RetrievalConfigShape, "gapStopwords" | "gapMinTermLength" | "gapMaxTerms">

/** The query's named terms under the retrieval settings: what stage 7, the gaps and the packer read. */
export const namedTerms = (query: string, settings: TermSettings): Array<Term> =>
  queryTerms(query, {
    stopwords: foldedStopwords(settings.gapStopwords),
    minLength: settings.gapMinTermLength,
    maxTerms: settings.gapMaxTerms
  })

/** What of a chunk is matched against. */
export type Passage = Pick<Chunk, "text" | "headingPath" | "tags" | "path">

/** The text a passage offers for matching: its text, heading path, tags and path, in order. */
export const passageText = (passage: Passage): string => [passage.text, passage.headingPath.join(" "), passage.tags.join(" "), passage.path].join("\n")

/** What a passage offers for matching: the stems it holds, and their order for a phrase. */
export interface PassageStems {
  readonly distinct: ReadonlySet<string>
  /** Every stem of {@link passageText}, in order; analysed on first use, as only a phrase needs it. */
  readonly sequence: () => ReadonlyArray<string>
}

/** The distinct stems of a passage, in the order they first occur: what an index may store for it. */
export const distinctStems = (passage: Passage): Array<string> => [...new Set(analysedTerms(passageText(passage)))]

// Stores hand back the same chunk objects query after query, and stage 7, the gap detector and the
// conflict detector all ask about the same candidates: analyse each passage once.
const stemCache = new WeakMap<Chunk, PassageStems>()
// The distinct stems an index stored with a chunk (`rememberDistinctStems`), until the chunk is asked about.
const storedStems = new WeakMap<Chunk, () => ReadonlyArray<string> | undefined>()

/**
 * Records where the distinct stems an index stored for `chunk` are (they must be its
 * `distinctStems`, under the same analysis), so matching reads them instead of stemming the
 * passage: a one-shot question otherwise spends a tenth of its time stemming its candidates. They
 * are read only for the chunks matching asks about (most of those a store hands back are not);
 * undefined from `stems` (no longer stored as it was) means the passage is stemmed after all.
 */
export const rememberDistinctStems = (chunk: Chunk, stems: () => ReadonlyArray<string> | undefined): void => {
  if (!stemCache.has(chunk)) storedStems.set(chunk, stems)
}

/** The stems a passage offers for matching (see {@link passageText}). */
export const passageStems = (chunk: Chunk): PassageStems => {
  let stems = stemCache.get(chunk)
  if (stems === undefined) {
    const stored = storedStems.get(chunk)?.()
    storedStems.delete(chunk)
    if (stored === undefined) {
      const sequence = analysedTerms(passageText(chunk))
      stems = { distinct: new Set(sequence), sequence: () => sequence }
    } else {
      let sequence: ReadonlyArray<string> | undefined
      stems = { distinct: new Set(stored), sequence: () => (sequence ??= analysedTerms(passageText(chunk))) }
    }
    stemCache.set(chunk, stems)
  }
  return stems
}

/** Whether `tokens` occur contiguously in `stems`. */
export const containsSequence = (stems: ReadonlyArray<string>, tokens: ReadonlyArray<string>): boolean => {
  if (tokens.length === 0) return false
  const first = tokens[0]!
  for (let i = 0; i + tokens.length <= stems.length; i++) {
    if (stems[i] !== first) continue
    let all = true
    for (let j = 1; j < tokens.length; j++) {
      if (stems[i + j] !== tokens[j]) {
        all = false
        break
      }
    }
    if (all) return true
  }
  return false
}

/** Indices of the terms a passage contains. */
export const coveredTerms = (passage: PassageStems, terms: ReadonlyArray<Term>): Set<number> => {
  const covered = new Set<number>()
  terms.forEach((term, index) => {
    const { tokens } = term
    if (tokens.length === 1 ? passage.distinct.has(tokens[0]!) : tokens.length > 0 && tokens.every((token) => passage.distinct.has(token)) && containsSequence(passage.sequence(), tokens)) covered.add(index)
  })
  return covered
}
