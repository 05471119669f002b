/**
 * Question reduction: what bounds a question's cost by design rather than by luck. A question
 * longer than `MAX_QUESTION_CHARS`, or naming more than `MAX_QUESTION_TERMS` distinct analysed
 * terms, is replaced before any leg runs by at most `MAX_QUESTION_TERMS` of its terms: the rarest
 * in the index of the first `MAX_LOOKUPS` it names (stopwords aside), so the words that tell
 * passages apart are the ones kept, and looking them up costs a bounded number of index reads. Every leg and every later
 * stage (dense embedding, title/path, rerank, conflicts, gaps) reads the reduced text, so none can
 * cost more than a short question. Only the first `MAX_READ_CHARS` characters are analysed at all.
 * A question within both bounds passes unchanged, byte for byte.
 *
 * These are protections, not tunables: no request can raise them.
 */
import { stem } from "../text/Porter.ts"
import { queryTerms, surfaces } from "../text/Words.ts"

/** Most distinct analysed terms a leg or later stage is handed. The evaluation's longest ordinary question names 25. */
export const MAX_QUESTION_TERMS = 32
/** Longest question passed on as written. */
export const MAX_QUESTION_CHARS = 2_048
/** Characters of a question read at all; the rest is not analysed. */
export const MAX_READ_CHARS = 16_384
/** Longest word a reduced question keeps: a longer one is a blob, not a term anyone searches for. */
export const MAX_TERM_CHARS = 128
/**
 * Distinct words whose document frequency is looked up, in question order. Each lookup is an index
 * read (one FTS5 query on the embedded index), so this, not the question, bounds the reduction's cost.
 */
export const MAX_LOOKUPS = 128
/** Document frequencies are counted no further: a word held by this many chunks is common. */
export const FREQUENCY_CAP = 1_024
/**
 * Most common words a reduced question keeps. What a leg costs grows with its common terms' postings
 * (a rare term's are short), and a person's question names a handful; the rest of the kept terms
 * are rarer.
 */
export const MAX_COMMON_TERMS = 8

/**
 * One distinct term of the question, written as its first surface, and what that surface gives
 * when analysed alone: `utf8` also gives `utf` and `8`. The reduced text is analysed again by every
 * stage, so a unit costs every stem it gives, and each is looked up.
 */
export interface Unit {
  readonly surface: string
  /** Distinct stems, the unit's own first; `words[i]` is a surface giving `stems[i]`. */
  readonly stems: ReadonlyArray<string>
  readonly words: ReadonlyArray<string>
}

/**
 * What the reduction reads of a question: its distinct terms that are neither stopwords nor longer
 * than `MAX_TERM_CHARS`, in first-appearance order, while their words number at most `MAX_LOOKUPS`.
 */
export interface Reading {
  readonly totalChars: number
  readonly readChars: number
  readonly units: ReadonlyArray<Unit>
  /** The distinct words of the units, at most `MAX_LOOKUPS`: what is looked up in the index. */
  readonly lookups: ReadonlyArray<string>
  /** Distinct stems of the part read, stopwords and long words included. */
  readonly distinctTerms: number
}

export interface Reduction {
  /** The text every stage reads: the question itself, or its kept terms joined by spaces. */
  readonly text: string
  readonly reduced: boolean
  readonly totalChars: number
  readonly readChars: number
  readonly distinctTerms: number
  readonly keptTerms: number
}

/** Whether `text` is within both bounds, and so passes unchanged. */
export const withinBounds = (text: string): boolean =>
  text.length <= MAX_QUESTION_CHARS && queryTerms(text).length <= MAX_QUESTION_TERMS

const TOKEN_CHAR = /^[\p{L}\p{N}\p{Co}\p{Mn}]$/u
const isTokenChar = (text: string, at: number): boolean => TOKEN_CHAR.test(String.fromCodePoint(text.codePointAt(at)!))

/**
 * The first `MAX_READ_CHARS` characters, never ending inside a surrogate pair, nor inside a word
 * unless the whole part is one word: half a word would be looked up as a term of its own.
 */
const readPart = (text: string): string => {
  if (text.length <= MAX_READ_CHARS) return text
  let part = text.slice(0, MAX_READ_CHARS)
  if (/[\uD800-\uDBFF]$/.test(part)) part = part.slice(0, -1)
  if (!isTokenChar(text, part.length)) return part
  for (let i = part.length - 1; i > 0; i--) if (!isTokenChar(part, i)) return part.slice(0, i)
  return part
}

/**
 * Reads a question that is not within bounds. Linear in `MAX_READ_CHARS`, whatever the question's
 * length. `stopwords` are analysed terms (stems), as `titlePath.analysedStopwords` gives them.
 */
export const read = (text: string, stopwords: ReadonlySet<string>): Reading => {
  const part = readPart(text)
  const units: Array<Unit> = []
  // One unit per term: `deploy` and `deployed` are one term, looked up once.
  const all = new Set<string>()
  const lookups: Array<string> = []
  const looked = new Set<string>()
  let full = false
  for (const surface of surfaces(part)) {
    const term = stem(surface)
    if (all.has(term)) continue
    all.add(term)
    if (full || surface.length > MAX_TERM_CHARS || stopwords.has(term)) continue
    const stems: Array<string> = []
    const words: Array<string> = []
    for (const word of surfaces(surface)) {
      const s = stem(word)
      if (stems.includes(s)) continue
      stems.push(s)
      words.push(word)
    }
    const fresh = words.filter((word) => !looked.has(word))
    if (lookups.length + fresh.length > MAX_LOOKUPS) {
      full = true
      continue
    }
    for (const word of fresh) {
      looked.add(word)
      lookups.push(word)
    }
    units.push({ surface, stems, words })
  }
  return { totalChars: text.length, readChars: part.length, units, lookups, distinctTerms: all.size }
}

/**
 * Keeps units, rarest first, while their stems number at most `MAX_QUESTION_TERMS` and at most
 * `MAX_COMMON_TERMS` of them are common (held by `FREQUENCY_CAP` chunks or more). `frequencies[i]`
 * is the document frequency of `lookups[i]`, counted up to `FREQUENCY_CAP`. A unit's rarity is its
 * own word's; a word the index does not hold comes after every word it does (it can match nothing,
 * though the gap detector may still name it); ties go to the earlier unit. The kept units are joined
 * in question order.
 */
export const select = (reading: Reading, frequencies: ReadonlyArray<number>): Reduction => {
  const held = new Map(reading.lookups.map((word, i) => [word, frequencies[i] ?? 0] as const))
  const dfOf = (word: string): number => held.get(word) ?? 0
  const rank = reading.units.map((unit, order) => {
    const df = dfOf(unit.surface)
    return { unit, order, key: df > 0 ? df : Number.POSITIVE_INFINITY }
  })
  rank.sort((a, b) => a.key - b.key || a.order - b.order)
  const kept = new Set<string>()
  const chosen: Array<{ readonly unit: Unit; readonly order: number }> = []
  let common = 0
  for (const entry of rank) {
    const added = entry.unit.stems.flatMap((s, i) => (kept.has(s) ? [] : [i]))
    if (kept.size + added.length > MAX_QUESTION_TERMS) continue
    const addedCommon = added.filter((i) => dfOf(entry.unit.words[i]!) >= FREQUENCY_CAP).length
    if (common + addedCommon > MAX_COMMON_TERMS) continue
    common += addedCommon
    for (const i of added) kept.add(entry.unit.stems[i]!)
    chosen.push(entry)
    if (kept.size === MAX_QUESTION_TERMS) break
  }
  chosen.sort((a, b) => a.order - b.order)
  return {
    text: chosen.map((entry) => entry.unit.surface).join(" "),
    reduced: true,
    totalChars: reading.totalChars,
    readChars: reading.readChars,
    distinctTerms: reading.distinctTerms,
    keptTerms: kept.size
  }
}

/** The question unchanged. */
export const unchanged = (text: string): Reduction => ({
  text,
  reduced: false,
  totalChars: text.length,
  readChars: text.length,
  distinctTerms: 0,
  keptTerms: 0
})

const count = (n: number): string => n.toLocaleString("en-US")
const terms = (n: number): string => `${count(n)} distinct term${n === 1 ? "" : "s"}`

/** One sentence saying what was cut, for the pack's `query_reduced` gap. */
export const describe = (reduction: Reduction): string => {
  const read = reduction.readChars < reduction.totalChars
    ? ` Only its first ${count(reduction.readChars)} of ${count(reduction.totalChars)} characters were read.`
    : ""
  const { distinctTerms, keptTerms } = reduction
  const kept = distinctTerms === 1
    ? `its one distinct term ${keptTerms === 0 ? "could not be looked up" : "was kept"}`
    : keptTerms === 0 ? `none of its ${terms(distinctTerms)} could be looked up`
    : keptTerms === distinctTerms ? `all ${terms(distinctTerms)} were kept`
    : `of its ${terms(distinctTerms)}, the ${keptTerms === 1 ? "rarest in the index was" : `${count(keptTerms)} rarest in the index were`} kept`
  return `The question was reduced before retrieval: ${kept} (at most ${MAX_QUESTION_TERMS}, ${MAX_COMMON_TERMS} of them ` +
    `common, from the first ${MAX_LOOKUPS} looked up; stopwords and words over ${MAX_TERM_CHARS} characters are not).${read} ` +
    "Ask a shorter question to search for the rest."
}
