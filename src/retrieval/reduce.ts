/**
 * Question reduction: what bounds a question's cost by design rather than by luck. A question
 * longer than `MAX_QUESTION_CHARS`, or naming more than `MAX_QUESTION_TERMS` distinct analysed
 * terms, is replaced before any leg runs by at most `MAX_QUESTION_TERMS` of its terms: the rarest
 * in the index, so the words that tell passages apart are the ones kept. Every leg and every later
 * stage (dense embedding, title/path, rerank, conflicts, gaps) reads the reduced text, so none can
 * cost more than a short question. Only the first `MAX_READ_CHARS` characters are analysed at all.
 * A question within both bounds passes unchanged, byte for byte.
 *
 * These are protections, not tunables: no request can raise them.
 */
import { stem } from "../index/Porter.ts"
import { queryTerms, surfaces } from "../index/Tokenizer.ts"

/** Most distinct analysed terms a leg or later stage is handed. The evaluation's longest ordinary question names 25. */
export const MAX_QUESTION_TERMS = 32
/** Longest question passed on as written. */
export const MAX_QUESTION_CHARS = 2_048
/** Characters of a question read at all; the rest is not analysed. */
export const MAX_READ_CHARS = 16_384
/** Longest word a reduced question keeps: a longer one is a blob, not a term anyone searches for. */
export const MAX_TERM_CHARS = 128

/** One distinct surface of the question and the distinct stems it gives when analysed alone. */
export interface Unit {
  readonly surface: string
  readonly stems: ReadonlyArray<string>
}

/** What the reduction reads of a question: its distinct surfaces in first-appearance order. */
export interface Reading {
  readonly totalChars: number
  readonly readChars: number
  readonly units: ReadonlyArray<Unit>
  /** Distinct stems of the units, in first-appearance order: the terms whose frequencies decide. */
  readonly stems: ReadonlyArray<string>
  /** Distinct stems of the part read, long words included. */
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

/** Reads a question that is not within bounds. Linear in `MAX_READ_CHARS`, whatever the question's length. */
export const read = (text: string): Reading => {
  const part = readPart(text)
  const units: Array<Unit> = []
  const seenSurfaces = new Set<string>()
  const seenStems = new Set<string>()
  const stems: Array<string> = []
  const all = new Set<string>()
  for (const surface of surfaces(part)) {
    if (seenSurfaces.has(surface)) continue
    seenSurfaces.add(surface)
    all.add(stem(surface))
    if (surface.length > MAX_TERM_CHARS) continue
    // Analysed alone, a surface may give more than itself (`utf8` also gives `utf` and `8`): the
    // reduced text is analysed again by every stage, so each unit costs all the stems it gives.
    const own = [...new Set(queryTerms(surface))]
    units.push({ surface, stems: own })
    for (const s of own) {
      if (seenStems.has(s)) continue
      seenStems.add(s)
      stems.push(s)
    }
  }
  return { totalChars: text.length, readChars: part.length, units, stems, distinctTerms: all.size }
}

/**
 * Keeps units, rarest first, while their stems number at most `MAX_QUESTION_TERMS`. A unit's rarity
 * is its own stem's document frequency; a term the index does not hold comes after every term it
 * does (it can match nothing, though the gap detector may still name it); ties go to the earlier
 * unit. The kept units are joined in question order.
 */
export const select = (reading: Reading, frequency: (stem: string) => number): Reduction => {
  const rank = reading.units.map((unit, order) => {
    const df = frequency(stem(unit.surface))
    return { unit, order, key: df > 0 ? df : Number.POSITIVE_INFINITY }
  })
  rank.sort((a, b) => a.key - b.key || a.order - b.order)
  const kept = new Set<string>()
  const chosen: Array<{ readonly unit: Unit; readonly order: number }> = []
  for (const entry of rank) {
    const added = entry.unit.stems.filter((s) => !kept.has(s))
    if (kept.size + added.length > MAX_QUESTION_TERMS) continue
    for (const s of added) kept.add(s)
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

/** One sentence saying what was cut, for the pack's `query_reduced` gap. */
export const describe = (reduction: Reduction): string => {
  const read = reduction.readChars < reduction.totalChars
    ? `only its first ${count(reduction.readChars)} of ${count(reduction.totalChars)} characters were read, and `
    : ""
  return `The question was reduced before retrieval: ${read}of its ${count(reduction.distinctTerms)} distinct terms ` +
    `the ${count(reduction.keptTerms)} rarest in the index were kept (at most ${MAX_QUESTION_TERMS}; words over ` +
    `${MAX_TERM_CHARS} characters are not looked up). Ask a shorter question to search for the rest.`
}
