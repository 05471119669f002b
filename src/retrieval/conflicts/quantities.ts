/**
 * Quantities a statement states: durations, sizes and percentages normalised to one base unit each
 * (`measure`), and counts of a named thing (`count`), each as an interval with its bound, plus the
 * rule for when two of them can both be true.
 */

/** Relative difference under which two quantities are the same value (1 GB against 1,000 MB). */
const SAME_VALUE_TOLERANCE = 0.03

export type Bound = "exact" | "range" | "min" | "max"

/** A number with its unit or counted noun, as an interval in base units. */
export interface Quantity {
  /** `duration`, `size` or `percent` for measures; the counted noun's term for counts. */
  readonly key: string
  readonly bound: Bound
  readonly lo: number
  readonly hi: number
  /** As the note shows it: `24h`, `at most 3 retries`. */
  readonly label: string
}

/** Content term of a folded word, or undefined for a stopword; the detector's analysis chain. */
export type Analyse = (word: string) => string | undefined

// ---- vocabulary -------------------------------------------------------------------------------

interface Unit {
  readonly dimension: "duration" | "size" | "percent"
  readonly factor: number
  readonly short: string
}

const duration = (factor: number, short: string): Unit => ({ dimension: "duration", factor, short })
const size = (factor: number, short: string): Unit => ({ dimension: "size", factor, short })
const DAY = 86_400

/** Units written out; matched after a space, a hyphen or nothing. */
const LONG_UNITS: ReadonlyMap<string, Unit> = new Map([
  ...["millisecond", "milliseconds", "msec", "msecs", "ms"].map((w) => [w, duration(0.001, "ms")] as const),
  ...["second", "seconds", "sec", "secs"].map((w) => [w, duration(1, "s")] as const),
  ...["minute", "minutes", "min", "mins"].map((w) => [w, duration(60, "min")] as const),
  ...["hour", "hours", "hr", "hrs"].map((w) => [w, duration(3_600, "h")] as const),
  ...["day", "days"].map((w) => [w, duration(DAY, "d")] as const),
  ...["week", "weeks", "wk", "wks"].map((w) => [w, duration(7 * DAY, "w")] as const),
  ...["month", "months"].map((w) => [w, duration(30 * DAY, "mo")] as const),
  ...["year", "years", "yr", "yrs"].map((w) => [w, duration(365 * DAY, "y")] as const),
  ...["byte", "bytes"].map((w) => [w, size(1, "B")] as const),
  ...["kb", "kib", "kilobyte", "kilobytes"].map((w) => [w, size(1_024, "KB")] as const),
  ...["mb", "mib", "megabyte", "megabytes"].map((w) => [w, size(1_024 ** 2, "MB")] as const),
  ...["gb", "gib", "gigabyte", "gigabytes"].map((w) => [w, size(1_024 ** 3, "GB")] as const),
  ...["tb", "tib", "terabyte", "terabytes"].map((w) => [w, size(1_024 ** 4, "TB")] as const),
  ["percent", { dimension: "percent", factor: 1, short: "%" }]
])

/** Single letters that are units only when written against the number (`24h`, `7d`, `30s`). */
const COMPACT_UNITS: ReadonlyMap<string, Unit> = new Map([
  ["s", duration(1, "s")],
  ["h", duration(3_600, "h")],
  ["d", duration(DAY, "d")],
  ["w", duration(7 * DAY, "w")],
  ["mo", duration(30 * DAY, "mo")],
  ["y", duration(365 * DAY, "y")]
])

/** Units `a`, `an` or `every` can stand before as one (`an hour`); `a second` is too often an ordinal. */
const ARTICLE_UNITS = new Set(["millisecond", "minute", "hour", "day", "week", "month", "year"])
const ONE_WORDS = new Set(["a", "an", "every", "each"])
const FREQUENCY_WORDS = new Set(["once", "twice", "thrice", "times"])

const SMALL_NUMBERS = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
  "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"
]
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...SMALL_NUMBERS.map((w, i) => [w, i] as const),
  ...TENS.map((w, i) => [w, (i + 2) * 10] as const),
  ["hundred", 100],
  ["thousand", 1_000],
  ["million", 1_000_000]
])

/** Bound phrases read backwards from the number, longest first. */
const BOUNDS: ReadonlyArray<readonly [ReadonlyArray<string>, Bound]> = [
  [["no", "more", "than"], "max"],
  [["no", "less", "than"], "min"],
  [["no", "fewer", "than"], "min"],
  [["at", "least"], "min"],
  [["at", "most"], "max"],
  [["up", "to"], "max"],
  [["more", "than"], "min"],
  [["less", "than"], "max"],
  [["fewer", "than"], "max"],
  [["minimum", "of"], "min"],
  [["maximum", "of"], "max"],
  [["over"], "min"],
  [["above"], "min"],
  [["minimum"], "min"],
  [["min"], "min"],
  [["under"], "max"],
  [["below"], "max"],
  [["within"], "max"],
  [["maximum"], "max"],
  [["max"], "max"]
]
const BOUND_WORDS: Readonly<Record<Bound, string>> = { exact: "", range: "", min: "at least ", max: "at most " }

/** Words that only ever belong to a quantity: units and number words. */
export const QUANTITY_WORDS: ReadonlyArray<string> = [...LONG_UNITS.keys(), ...COMPACT_UNITS.keys(), ...NUMBER_WORDS.keys(), "per", "cent"]

export const isNumberWord = (word: string): boolean => NUMBER_WORDS.has(word.toLowerCase())

// ---- lexing -----------------------------------------------------------------------------------

interface Lexeme {
  readonly text: string
  /** Lower-cased. */
  readonly lower: string
  readonly start: number
  readonly end: number
  readonly digits: boolean
}

const LEXEME = /\d+(?:,\d{3})*(?:\.\d+)?|\p{L}+|%/gu

const lex = (text: string): Array<Lexeme> =>
  [...text.matchAll(LEXEME)].map((m) => ({
    text: m[0],
    lower: m[0].toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
    digits: /^\d/.test(m[0])
  }))

/** What separates lexeme `i - 1` from lexeme `i`: "" when they touch. */
const gapBefore = (text: string, lexemes: ReadonlyArray<Lexeme>, i: number): string => {
  const previous = lexemes[i - 1], current = lexemes[i]
  return previous === undefined || current === undefined ? "" : text.slice(previous.end, current.start)
}

const isSpace = (gap: string): boolean => /^\s+$/u.test(gap)
const isSpaceOrHyphen = (gap: string): boolean => /^\s*[-‐–]?\s*$/u.test(gap) && gap.length > 0

// ---- numbers ----------------------------------------------------------------------------------

interface ParsedNumber {
  readonly value: number
  /** Index of the first lexeme after the number. */
  readonly next: number
}

/** A number starting at lexeme `i`: digits, or a run of number words (`twenty-four`, `one hundred`). */
const parseNumber = (text: string, lexemes: ReadonlyArray<Lexeme>, i: number): ParsedNumber | undefined => {
  const first = lexemes[i]!
  if (first.digits) {
    // Part of an identifier or a version (`v2`, `HTTP/2`, `1.2.3`, `$5`, `#12`): not a quantity.
    const before = text[first.start - 1] ?? " "
    const after = text.slice(first.end, first.end + 2)
    if (/[\p{L}\p{N}_/.$€£#]/u.test(before) || /^\.\d/.test(after)) return undefined
    return { value: Number(first.text.replaceAll(",", "")), next: i + 1 }
  }
  if (!NUMBER_WORDS.has(first.lower)) return undefined
  let total = 0
  let current = 0
  let j = i
  while (j < lexemes.length) {
    const lexeme = lexemes[j]!
    if (j > i && !isSpaceOrHyphen(gapBefore(text, lexemes, j))) break
    if (lexeme.lower === "and" && j > i && NUMBER_WORDS.has(lexemes[j + 1]?.lower ?? "")) {
      j++
      continue
    }
    const value = NUMBER_WORDS.get(lexeme.lower)
    if (value === undefined) break
    if (value === 100) current = Math.max(current, 1) * 100
    else if (value >= 1_000) {
      total += Math.max(current, 1) * value
      current = 0
    } else current += value
    j++
  }
  return { value: total + current, next: j }
}

/** The bound phrase that ends right before lexeme `i`, if any. */
const boundBefore = (text: string, lexemes: ReadonlyArray<Lexeme>, i: number): Bound => {
  for (const [phrase, bound] of BOUNDS) {
    const from = i - phrase.length
    if (from < 0) continue
    let matches = true
    for (let k = 0; k < phrase.length && matches; k++) {
      matches = lexemes[from + k]!.lower === phrase[k] && isSpace(gapBefore(text, lexemes, from + k + 1))
    }
    if (matches) return bound
  }
  return "exact"
}

const formatNumber = (value: number): string => String(Number(value.toPrecision(6)))

// ---- quantities -------------------------------------------------------------------------------

/** The unit at lexeme `j`, given how it is joined to the number before it. */
const unitAt = (text: string, lexemes: ReadonlyArray<Lexeme>, j: number): { unit: Unit; next: number } | undefined => {
  const lexeme = lexemes[j]
  if (lexeme === undefined) return undefined
  const gap = gapBefore(text, lexemes, j)
  if (lexeme.lower === "%" && (gap === "" || isSpace(gap))) return { unit: LONG_UNITS.get("percent")!, next: j + 1 }
  if (lexeme.lower === "per" && lexemes[j + 1]?.lower === "cent" && isSpace(gap)) {
    return { unit: LONG_UNITS.get("percent")!, next: j + 2 }
  }
  const long = LONG_UNITS.get(lexeme.lower)
  if (long !== undefined && (gap === "" || isSpaceOrHyphen(gap))) return { unit: long, next: j + 1 }
  const compact = COMPACT_UNITS.get(lexeme.lower)
  if (compact !== undefined && gap === "") return { unit: compact, next: j + 1 }
  return undefined
}

const isPlural = (word: string): boolean => word.length >= 4 && word.endsWith("s") && !word.endsWith("ss")
const isYear = (lexeme: Lexeme): boolean => /^(19|20)\d\d$/.test(lexeme.text)

export interface Found {
  readonly measures: Array<Quantity>
  readonly counts: Array<Quantity>
}

/** Every measure and count in `text`, in order. */
export const quantities = (text: string, analyse: Analyse): Found => {
  const lexemes = lex(text)
  const measures: Array<Quantity> = []
  const counts: Array<Quantity> = []
  let i = 0
  while (i < lexemes.length) {
    const lexeme = lexemes[i]!
    let number = parseNumber(text, lexemes, i)
    // `an hour`, `every hour`: the word is the number one, for whole units only; after `once` or
    // `twice` it is a frequency (`twice a week`), which is no duration.
    if (
      number === undefined && ONE_WORDS.has(lexeme.lower) && !FREQUENCY_WORDS.has(lexemes[i - 1]?.lower ?? "") &&
      ARTICLE_UNITS.has(lexemes[i + 1]?.lower ?? "") && isSpace(gapBefore(text, lexemes, i + 1))
    ) number = { value: 1, next: i + 1 }
    if (number === undefined) {
      i++
      continue
    }
    let bound = boundBefore(text, lexemes, i)
    let lo = number.value
    let hi = number.value
    let next = number.next
    // `3-5 days`, `1 to 3 hours`, `between 2 and 4 weeks`.
    const joiner = lexemes[next]
    const joinGap = gapBefore(text, lexemes, next)
    const rangeStart = joiner !== undefined && /^\s*[-–]\s*$/u.test(joinGap) && joiner.digits
      ? next
      : joiner !== undefined && (joiner.lower === "to" || joiner.lower === "and") ? next + 1 : -1
    if (rangeStart >= 0 && lexemes[rangeStart] !== undefined) {
      const upper = parseNumber(text, lexemes, rangeStart)
      if (upper !== undefined && upper.value > number.value) {
        hi = upper.value
        next = upper.next
        bound = "range"
      }
    }
    const unit = unitAt(text, lexemes, next)
    if (unit !== undefined) {
      const written = bound === "range" ? `${formatNumber(lo)}-${formatNumber(hi)}` : formatNumber(lo)
      measures.push({
        key: unit.unit.dimension,
        bound,
        lo: bound === "max" ? 0 : lo * unit.unit.factor,
        hi: bound === "min" ? Infinity : hi * unit.unit.factor,
        label: `${BOUND_WORDS[bound]}${written}${unit.unit.short}`
      })
      i = unit.next
      continue
    }
    if (bound !== "range" && !isYear(lexeme)) {
      const counted = countedNoun(text, lexemes, next, number.value, analyse)
      if (counted !== undefined) {
        counts.push({
          key: counted.term,
          bound,
          lo: bound === "max" ? 0 : lo,
          hi: bound === "min" ? Infinity : hi,
          label: `${BOUND_WORDS[bound]}${formatNumber(lo)} ${counted.word}`
        })
      }
    }
    i = Math.max(i + 1, number.next)
  }
  return { measures, counts }
}

/**
 * The noun a number counts: the next word, or the one after it (`five consecutive failures`), that
 * is plural, or singular after `one` or a hyphen (`3-node`). Anything else is a label, not a count
 * (`a 429 response`, `in 2024 we`).
 */
const countedNoun = (
  text: string,
  lexemes: ReadonlyArray<Lexeme>,
  j: number,
  value: number,
  analyse: Analyse
): { word: string; term: string } | undefined => {
  for (let k = j; k < j + 2 && k < lexemes.length; k++) {
    const lexeme = lexemes[k]!
    const gap = gapBefore(text, lexemes, k)
    if (lexeme.digits || !isSpaceOrHyphen(gap)) return undefined
    const term = analyse(lexeme.lower)
    if (term === undefined) return undefined
    const hyphenated = k === j && gap.includes("-")
    if (isPlural(lexeme.lower) || value === 1 || hyphenated) return { word: lexeme.lower, term }
  }
  return undefined
}

// ---- agreement --------------------------------------------------------------------------------

const tolerance = (value: number): number => (Number.isFinite(value) ? SAME_VALUE_TOLERANCE * Math.abs(value) : 0)

/**
 * Whether two quantities of one key can both be true. Two limits of the same direction must agree
 * (at most 3 against at most 5 is a disagreement about the limit); otherwise the intervals must meet.
 */
export const compatible = (a: Quantity, b: Quantity): boolean => {
  if (a.bound === b.bound && (a.bound === "min" || a.bound === "max")) {
    const x = a.bound === "min" ? a.lo : a.hi
    const y = b.bound === "min" ? b.lo : b.hi
    return Math.abs(x - y) <= tolerance(Math.max(x, y))
  }
  return a.lo <= b.hi + tolerance(b.hi) && b.lo <= a.hi + tolerance(a.hi)
}

/** The first key both lists quantify on which no quantity of one can be true with any of the other. */
export const clashingKey = (a: ReadonlyArray<Quantity>, b: ReadonlyArray<Quantity>): string | undefined => {
  const keys = [...new Set(a.map((q) => q.key))].filter((key) => b.some((q) => q.key === key)).sort()
  return keys.find((key) =>
    a.every((q) => q.key !== key || b.every((r) => r.key !== key || !compatible(q, r)))
  )
}

/** Whether two lists agree on `key`: some quantity of one is compatible with some of the other. */
export const agreeOn = (a: ReadonlyArray<Quantity>, b: ReadonlyArray<Quantity>, key: string): boolean =>
  a.some((q) => q.key === key && b.some((r) => r.key === key && compatible(q, r)))
