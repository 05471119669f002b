/**
 * cl100k_base's pre-tokeniser (`CL100K_PIECE_PATTERN`) as a scanner: where the piece starting at a
 * position ends. It cuts exactly where the pattern's global match cuts, alternative by alternative,
 * without a match object per piece: counting a cold build's chunks walks some 19 million pieces.
 * Letters, numbers and white space are told apart by the same Unicode properties the pattern uses,
 * asked once per code point.
 */

const OTHER = 1
const LETTER = 2
const NUMBER = 3
/** White space other than a line break. */
const SPACE = 4
/** `\r` or `\n`. */
const BREAK = 5

const IS_LETTER = /^\p{L}$/u
const IS_NUMBER = /^\p{N}$/u
const IS_SPACE = /^\p{White_Space}$/u

const classify = (codePoint: number): number => {
  if (codePoint === 0x0a || codePoint === 0x0d) return BREAK
  const character = String.fromCodePoint(codePoint)
  if (IS_LETTER.test(character)) return LETTER
  if (IS_NUMBER.test(character)) return NUMBER
  if (IS_SPACE.test(character)) return SPACE
  return OTHER
}

/** The class of every code point, filled as met (0: not yet asked); 1.1 MB, however varied the text. */
const classes = new Uint8Array(0x110000)

const classOf = (codePoint: number): number => {
  const known = classes[codePoint]!
  if (known !== 0) return known
  const found = classify(codePoint)
  classes[codePoint] = found
  return found
}

/** The code point at `i` (a lone surrogate stands for itself, as in the pattern's `u` mode). */
const codePointAt = (text: string, i: number): number => text.codePointAt(i)!

const width = (codePoint: number): number => (codePoint > 0xffff ? 2 : 1)

/** The end of the run of `kind` code points starting at `i`. */
const runEnd = (text: string, i: number, kind: number): number => {
  while (i < text.length) {
    const codePoint = codePointAt(text, i)
    if (classOf(codePoint) !== kind) break
    i += width(codePoint)
  }
  return i
}

const isContractionLetter = (unit: number): boolean =>
  unit === 0x73 || unit === 0x53 || unit === 0x74 || unit === 0x54 || unit === 0x6d || unit === 0x4d || unit === 0x64 || unit === 0x44

const isLower = (unit: number, letter: number): boolean => unit === letter || unit === letter - 0x20

/** `'re`, `'ve` or `'ll` in any case, after an apostrophe at `i`. */
const isTwoLetterContraction = (text: string, i: number): boolean => {
  const first = text.charCodeAt(i + 1)
  const second = text.charCodeAt(i + 2)
  return (isLower(first, 0x72) && isLower(second, 0x65)) || (isLower(first, 0x76) && isLower(second, 0x65)) ||
    (isLower(first, 0x6c) && isLower(second, 0x6c))
}

/** Where the piece that starts at `start` (< `text.length`) ends. */
export const pieceEnd = (text: string, start: number): number => {
  const first = codePointAt(text, start)
  const kind = classOf(first)
  const next = start + width(first)
  // 's 't 're 've 'm 'll 'd
  if (first === 0x27 && next < text.length) {
    if (isContractionLetter(text.charCodeAt(next))) return next + 1
    if (next + 1 < text.length && isTwoLetterContraction(text, start)) return next + 2
  }
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (kind === LETTER) return runEnd(text, next, LETTER)
  if ((kind === OTHER || kind === SPACE) && next < text.length && classOf(codePointAt(text, next)) === LETTER) {
    return runEnd(text, next, LETTER)
  }
  // \p{N}{1,3}
  if (kind === NUMBER) {
    let end = next
    for (let taken = 1; taken < 3 && end < text.length; taken++) {
      const codePoint = codePointAt(text, end)
      if (classOf(codePoint) !== NUMBER) break
      end += width(codePoint)
    }
    return end
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
  const punctuationStart = kind === OTHER
    ? start
    : first === 0x20 && next < text.length && classOf(codePointAt(text, next)) === OTHER
    ? next
    : -1
  if (punctuationStart >= 0) {
    let end = runEnd(text, punctuationStart, OTHER)
    while (end < text.length && (text.charCodeAt(end) === 0x0a || text.charCodeAt(end) === 0x0d)) end++
    return end
  }
  // White space (every white-space character is one UTF-16 unit).
  let end = start
  let lastBreak = -1
  while (end < text.length) {
    const unitKind = classOf(text.charCodeAt(end))
    if (unitKind === BREAK) lastBreak = end
    else if (unitKind !== SPACE) break
    end++
  }
  // \s*[\r\n]+ takes the run up to its last line break.
  if (lastBreak >= 0) return lastBreak + 1
  // \s+(?!\S) leaves the last space to the word after it; \s+ takes a lone space before one.
  if (end === text.length || end - start < 2) return end
  return end - 1
}
