/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980) with the exact
 * behaviour of SQLite FTS5's `porter` tokenizer, which stems the already-folded tokens of
 * `unicode61`. That variant differs from the paper in small, observable ways that are kept here:
 * tokens under 3 or over 64 UTF-8 bytes pass through untouched; `*v*` counts a `y` as a vowel
 * anywhere but the first letter; every byte that is not an ASCII vowel is a consonant, so a
 * non-ASCII token only ever loses an ASCII suffix.
 */

const MIN_TOKEN_BYTES = 3
const MAX_TOKEN_BYTES = 64

const A = 97, E = 101, I = 105, L = 108, O = 111, S = 115, T = 116, U = 117, W = 119, X = 120, Y = 121, Z = 122

const isVowel = (c: number, yIsVowel: boolean): boolean =>
  c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y)

/** One past the consonant closing the first vowel-consonant pair in `w[from, n)`, or 0 if none. */
const vcEnd = (w: Uint8Array, from: number, n: number, prevConsonant: boolean): number => {
  let consonant = prevConsonant
  let i = from
  for (; i < n; i++) {
    consonant = !isVowel(w[i]!, consonant)
    if (!consonant) break
  }
  for (i++; i < n; i++) {
    consonant = !isVowel(w[i]!, consonant)
    if (consonant) return i + 1
  }
  return 0
}

type Condition = (w: Uint8Array, n: number) => boolean

const mGt0: Condition = (w, n) => vcEnd(w, 0, n, false) > 0
const mGt1: Condition = (w, n) => {
  const first = vcEnd(w, 0, n, false)
  return first > 0 && vcEnd(w, first, n, true) > 0
}
const mEq1: Condition = (w, n) => {
  const first = vcEnd(w, 0, n, false)
  return first > 0 && vcEnd(w, first, n, true) === 0
}
/** `*o`: the stem ends consonant-vowel-consonant and the last is not w, x or y. */
const endsCvc: Condition = (w, n) => {
  const last = w[n - 1]!
  if (last === W || last === X || last === Y) return false
  let mask = 0
  let consonant = false
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(w[i]!, consonant)
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7
  }
  return mask === 5
}
/** `*v*`, as FTS5 reads it: a vowel anywhere, `y` included unless it is the first letter. */
const hasVowel: Condition = (w, n) => {
  for (let i = 0; i < n; i++) if (isVowel(w[i]!, i > 0)) return true
  return false
}
const mGt1EndsSOrT: Condition = (w, n) => (w[n - 1] === S || w[n - 1] === T) && mGt1(w, n)

interface Rule {
  readonly suffix: Uint8Array
  readonly replacement: Uint8Array
  readonly condition: Condition | undefined
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0))

const rules = (condition: Condition | undefined, pairs: ReadonlyArray<readonly [string, string]>): ReadonlyArray<Rule> =>
  pairs.map(([suffix, replacement]) => ({ suffix: ascii(suffix), replacement: ascii(replacement), condition }))

// Within each step the first suffix that matches decides, even when its condition then fails; the
// order below keeps SQLite's order wherever two suffixes could both match ("ement" before "ment").
const STEP_1B: ReadonlyArray<Rule> = [
  ...rules(mGt0, [["eed", "ee"]]),
  ...rules(hasVowel, [["ed", ""], ["ing", ""]])
]
const STEP_1B2: ReadonlyArray<Rule> = rules(undefined, [["at", "ate"], ["bl", "ble"], ["iz", "ize"]])
const STEP_2: ReadonlyArray<Rule> = rules(mGt0, [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["logi", "log"], ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
  ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"]
])
const STEP_3: ReadonlyArray<Rule> = rules(mGt0, [
  ["ical", "ic"], ["ness", ""], ["icate", "ic"], ["iciti", "ic"], ["ful", ""], ["ative", ""], ["alize", "al"]
])
const STEP_4: ReadonlyArray<Rule> = [
  ...rules(mGt1, [
    ["al", ""], ["ance", ""], ["ence", ""], ["er", ""], ["ic", ""], ["able", ""], ["ible", ""], ["ant", ""],
    ["ement", ""], ["ment", ""], ["ent", ""]
  ]),
  ...rules(mGt1EndsSOrT, [["ion", ""]]),
  ...rules(mGt1, [["ou", ""], ["ism", ""], ["ate", ""], ["iti", ""], ["ous", ""], ["ive", ""], ["ize", ""]])
]

const endsWith = (w: Uint8Array, n: number, suffix: Uint8Array): boolean => {
  // The stem left behind must be non-empty, as in SQLite.
  if (n <= suffix.length) return false
  const offset = n - suffix.length
  for (let i = 0; i < suffix.length; i++) if (w[offset + i] !== suffix[i]) return false
  return true
}

/** Applies the first rule whose suffix matches; returns the new length and whether it fired. */
const applyStep = (w: Uint8Array, n: number, step: ReadonlyArray<Rule>): readonly [number, boolean] => {
  for (const rule of step) {
    if (!endsWith(w, n, rule.suffix)) continue
    const stem = n - rule.suffix.length
    if (rule.condition !== undefined && !rule.condition(w, stem)) return [n, false]
    w.set(rule.replacement, stem)
    return [stem + rule.replacement.length, true]
  }
  return [n, false]
}

const step1a = (w: Uint8Array, n: number): number => {
  if (w[n - 1] !== S) return n
  if (w[n - 2] === E) {
    const sses = n > 4 && w[n - 4] === S && w[n - 3] === S
    const ies = n > 3 && w[n - 3] === I
    return sses || ies ? n - 2 : n - 1
  }
  return w[n - 2] === S ? n : n - 1
}

/** Stems UTF-8 bytes in place (the buffer has room for growth); returns the new length. */
const stemBytes = (w: Uint8Array, length: number): number => {
  let n = step1a(w, length)
  const [afterEd, strippedEd] = applyStep(w, n, STEP_1B)
  n = afterEd
  if (strippedEd) {
    const [afterFix, fixed] = applyStep(w, n, STEP_1B2)
    n = afterFix
    if (!fixed) {
      const c = w[n - 1]!
      if (!isVowel(c, false) && c !== L && c !== S && c !== Z && c === w[n - 2]) n--
      else if (mEq1(w, n) && endsCvc(w, n)) w[n++] = E
    }
  }
  if (w[n - 1] === Y && hasVowel(w, n - 1)) w[n - 1] = I
  n = applyStep(w, n, STEP_2)[0]
  n = applyStep(w, n, STEP_3)[0]
  n = applyStep(w, n, STEP_4)[0]
  if (w[n - 1] === E && (mGt1(w, n - 1) || (mEq1(w, n - 1) && !endsCvc(w, n - 1)))) n--
  if (n > 1 && w[n - 1] === L && w[n - 2] === L && mGt1(w, n - 1)) n--
  return n
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const ASCII_ONLY = /^[\x00-\x7f]*$/

// Letters some rule's suffix ends with (s, d, g, y, l, i, r, n, m, e, c, t, u), as bits from `a`.
const SUFFIX_ENDINGS = [..."sdgylirnmectu"].reduce((bits, letter) => bits | (1 << (letter.charCodeAt(0) - 97)), 0)

/** No rule can fire on a token whose last letter ends no suffix: a number, an id, `h12345`. */
const passesThrough = (token: string): boolean => {
  const last = token.charCodeAt(token.length - 1) - 97
  return last < 0 || last > 25 || (SUFFIX_ENDINGS & (1 << last)) === 0
}

/** Distinct tokens remembered before the memo starts over; bounds its memory. */
const MAX_MEMOIZED_STEMS = 100_000
// A vocabulary is small and every query, passage and conflict statement stems the same words again.
const memo = new Map<string, string>()

/**
 * Stems one folded token as FTS5's `porter` tokenizer does. Pure and total; linear in the token,
 * and constant time for tokens over 64 bytes, which pass through.
 */
export const stem = (token: string): string => {
  // Checked before the memo, so numbers and ids neither cost a lookup nor crowd out words.
  if (passesThrough(token)) return token
  const known = memo.get(token)
  if (known !== undefined) return known
  const stemmed = stemUncached(token)
  if (memo.size >= MAX_MEMOIZED_STEMS) memo.clear()
  memo.set(token, stemmed)
  return stemmed
}

const stemUncached = (token: string): string => {
  // Every UTF-16 unit is at least one UTF-8 byte, so a long string is a long token.
  if (token.length > MAX_TOKEN_BYTES) return token
  if (ASCII_ONLY.test(token)) {
    if (token.length < MIN_TOKEN_BYTES) return token
    const buffer = new Uint8Array(token.length + 4)
    for (let i = 0; i < token.length; i++) buffer[i] = token.charCodeAt(i)
    return String.fromCharCode(...buffer.subarray(0, stemBytes(buffer, token.length)))
  }
  const bytes = encoder.encode(token)
  if (bytes.length > MAX_TOKEN_BYTES || bytes.length < MIN_TOKEN_BYTES) return token
  const buffer = new Uint8Array(bytes.length + 4)
  buffer.set(bytes)
  return decoder.decode(buffer.subarray(0, stemBytes(buffer, bytes.length)))
}
