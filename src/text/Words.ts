/**
 * The analysis chain shared by the lexical index and the query side: SQLite `unicode61`-style
 * tokens (letters, numbers and private-use characters are token characters; everything else
 * separates), folded (NFKD, diacritics removed, full case folding), plus the parts of identifiers
 * (camelCase, snake_case, letter/digit boundaries), each stemmed as FTS5's `porter` does.
 *
 * Linear in the input: one pass finds the tokens and their identifier parts, and stemming is
 * constant time beyond 64 bytes, so a 50,000-letter run or a page of CJK with no spaces costs what
 * its length does.
 */
import { stem } from "./Porter.ts"

// Character classes for one code point. Marks continue a token but never start one.
const SEPARATOR = 0, UPPER = 1, LOWER = 2, OTHER = 3, DIGIT = 4, MARK = 5

const UPPER_RE = /^[\p{Lu}\p{Lt}]$/u
const LETTER_RE = /^[\p{L}\p{Co}]$/u
const LOWER_RE = /^\p{Ll}$/u
const DIGIT_RE = /^\p{N}$/u
const MARK_RE = /^\p{Mn}$/u

const classify = (cp: number): number => {
  if (cp < 128) {
    if (cp >= 97 && cp <= 122) return LOWER
    if (cp >= 65 && cp <= 90) return UPPER
    if (cp >= 48 && cp <= 57) return DIGIT
    return SEPARATOR
  }
  const ch = String.fromCodePoint(cp)
  if (LOWER_RE.test(ch)) return LOWER
  if (UPPER_RE.test(ch)) return UPPER
  if (LETTER_RE.test(ch)) return OTHER
  if (DIGIT_RE.test(ch)) return DIGIT
  if (MARK_RE.test(ch)) return MARK
  return SEPARATOR
}

const isLetter = (c: number): boolean => c === UPPER || c === LOWER || c === OTHER

// The classes of the Basic Multilingual Plane, filled as met: `classify` runs up to five regular
// expressions on a character past ASCII, and a page of text repeats few characters.
const UNKNOWN = 255
const bmpClasses = new Uint8Array(0x10000).fill(UNKNOWN)
for (let cp = 0; cp < 128; cp++) bmpClasses[cp] = classify(cp)

const classOf = (cp: number): number => {
  if (cp > 0xffff) return classify(cp)
  const known = bmpClasses[cp]!
  return known === UNKNOWN ? (bmpClasses[cp] = classify(cp)) : known
}

/** The code point at `i`: its code unit, unless that starts a surrogate pair. */
const codePointAt = (text: string, i: number): number => {
  const unit = text.charCodeAt(i)
  return unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(i)! : unit
}

const MARKS_RE = /\p{Mn}/gu
const NON_TOKEN_RE = /[^\p{L}\p{N}\p{Co}]/gu
const PLAIN_ASCII_RE = /^[\x00-\x7f]*$/

/**
 * Folds one token: compatibility decomposition, diacritics removed, full case folding (lower, upper,
 * lower again turns ß and ẞ into ss; final sigma becomes σ). Characters that decompose into
 * separators are dropped, so one token stays one token.
 */
export const fold = (token: string): string => {
  if (PLAIN_ASCII_RE.test(token)) return token.toLowerCase()
  return token
    .normalize("NFKD")
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKD")
    .replace(MARKS_RE, "")
    .replaceAll("ς", "σ")
    .replace(NON_TOKEN_RE, "")
}

/**
 * One pass over the unicode61 token spans. For each, `onToken` gets its span, the code-unit offsets
 * inside it where an identifier part begins (camelCase, letter/digit; always 0 first), and whether
 * it is plain ASCII. `cuts` is one array reused for every token, read before returning: analysing
 * the chunks of a large repository found tens of millions of tokens, and an object and an array
 * for each were most of what the write path allocated.
 */
const eachToken = (
  text: string,
  onToken: (start: number, end: number, cuts: Array<number>, cutCount: number, ascii: boolean) => void
): void => {
  const cuts: Array<number> = [0]
  let i = 0
  while (i < text.length) {
    const cp = codePointAt(text, i)
    const cls = classOf(cp)
    if (cls === SEPARATOR || cls === MARK) {
      i += cp > 0xffff ? 2 : 1
      continue
    }
    const start = i
    let cutCount = 1
    let ascii = true
    let prevPrev = SEPARATOR
    let prev = SEPARATOR
    let prevAt = start
    while (i < text.length) {
      const c = codePointAt(text, i)
      const k = classOf(c)
      if (k === SEPARATOR) break
      if (c >= 128) ascii = false
      if (k !== MARK) {
        const at = i - start
        if ((prev === LOWER && k === UPPER) || (isLetter(prev) && k === DIGIT) || (prev === DIGIT && isLetter(k))) {
          cuts[cutCount++] = at
        } else if (prevPrev === UPPER && prev === UPPER && k === LOWER && prevAt - start > cuts[cutCount - 1]!) {
          // "HTTPServer": the capital that starts a lower-case run begins the next part.
          cuts[cutCount++] = prevAt - start
        }
        prevPrev = prev
        prev = k
        prevAt = i
      }
      i += c > 0xffff ? 2 : 1
    }
    onToken(start, i, cuts, cutCount, ascii)
  }
}

const onlyUnderscores = (text: string, from: number, to: number): boolean => {
  if (from >= to) return false
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 95) return false
  return true
}

/**
 * The folded tokens as `unicode61` would find them (folded further where noted in {@link fold}):
 * no identifier parts, no stemming.
 */
export const words = (text: string): Array<string> => {
  const out: Array<string> = []
  eachToken(text, (start, end, _cuts, _cutCount, ascii) => {
    const raw = text.slice(start, end)
    const folded = ascii ? raw.toLowerCase() : fold(raw)
    if (folded.length > 0) out.push(folded)
  })
  return out
}

/**
 * Where surfaces go, in emission order: an ASCII surface as the span of `text` it lowers, an ASCII
 * underscore run as its tokens' spans, any other as its folded string.
 */
interface SurfaceSink {
  readonly span: (from: number, to: number) => void
  readonly run: (starts: ReadonlyArray<number>, ends: ReadonlyArray<number>, count: number) => void
  readonly folded: (surface: string) => void
}

/**
 * The surfaces of `text`, handed to `sink`: each token, then its identifier parts when it has more
 * than one, and after a run of tokens joined only by underscores, the run written as one word
 * (`user_id` also gives `userid`, so it meets `userId`). Empty foldings are not handed on.
 */
const eachSurface = (text: string, sink: SurfaceSink): void => {
  const runStarts: Array<number> = []
  const runEnds: Array<number> = []
  let runLength = 0
  let runAscii = true
  const endRun = () => {
    if (runLength > 1) {
      if (runAscii) {
        sink.run(runStarts, runEnds, runLength)
      } else {
        let run = ""
        for (let r = 0; r < runLength; r++) run += fold(text.slice(runStarts[r]!, runEnds[r]!))
        if (run.length > 0) sink.folded(run)
      }
    }
    runLength = 0
    runAscii = true
  }
  eachToken(text, (start, end, cuts, cutCount, ascii) => {
    if (runLength > 0 && !onlyUnderscores(text, runEnds[runLength - 1]!, start)) endRun()
    if (ascii) {
      sink.span(start, end)
      for (let p = 0; cutCount > 1 && p < cutCount; p++) sink.span(start + cuts[p]!, p + 1 < cutCount ? start + cuts[p + 1]! : end)
    } else {
      const raw = text.slice(start, end)
      const whole = fold(raw)
      if (whole.length > 0) sink.folded(whole)
      for (let p = 0; cutCount > 1 && p < cutCount; p++) {
        const part = fold(raw.slice(cuts[p]!, p + 1 < cutCount ? cuts[p + 1]! : raw.length))
        if (part.length > 0) sink.folded(part)
      }
      runAscii = false
    }
    runStarts[runLength] = start
    runEnds[runLength] = end
    runLength++
  })
  endRun()
}

/** Folded, unstemmed terms in emission order (see {@link eachSurface}). */
export const surfaces = (text: string): Array<string> => {
  const out: Array<string> = []
  // The last whole token lowered: its parts, which follow it, are sliced from it (lowering ASCII maps
  // each character alone).
  let wholeStart = -1
  let wholeEnd = -1
  let whole = ""
  eachSurface(text, {
    span: (from, to) => {
      if (from >= wholeStart && to <= wholeEnd) {
        out.push(whole.slice(from - wholeStart, to - wholeStart))
        return
      }
      wholeStart = from
      wholeEnd = to
      whole = text.slice(from, to).toLowerCase()
      out.push(whole)
    },
    run: (starts, ends, count) => {
      let surface = ""
      for (let r = 0; r < count; r++) surface += text.slice(starts[r]!, ends[r]!)
      out.push(surface.toLowerCase())
    },
    folded: (surface) => out.push(surface)
  })
  return out
}

/** Bytes of `surfaceText`'s ASCII output, reused between calls; dropped after a call that grew it past this. */
const KEPT_BUFFER = 1 << 20
let asciiOut = new Uint8Array(1 << 14)
const decoder = new TextDecoder()

const lowerAscii = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code)

/**
 * `surfaces(text).join(" ")`, without a string per surface: ASCII surfaces, most of any repository's
 * text, are lowered straight into one reused byte buffer, and only a surface past ASCII is a string
 * of its own. The FTS feed analyses every chunk of a rebuild; as arrays of strings, that was the
 * write path's largest allocation.
 */
export const surfaceText = (text: string): string => {
  const pieces: Array<string> = []
  let length = 0
  let empty = true
  // Room for `extra` more bytes and the separator before them.
  const room = (extra: number) => {
    if (length + extra + 1 <= asciiOut.length) return
    const grown = new Uint8Array(Math.max(asciiOut.length * 2, length + extra + 1))
    grown.set(asciiOut.subarray(0, length))
    asciiOut = grown
  }
  const separate = () => {
    if (!empty) asciiOut[length++] = 32
    empty = false
  }
  const lower = (from: number, to: number) => {
    for (let i = from; i < to; i++) asciiOut[length++] = lowerAscii(text.charCodeAt(i))
  }
  eachSurface(text, {
    span: (from, to) => {
      room(to - from)
      separate()
      lower(from, to)
    },
    run: (starts, ends, count) => {
      let size = 0
      for (let r = 0; r < count; r++) size += ends[r]! - starts[r]!
      room(size)
      separate()
      for (let r = 0; r < count; r++) lower(starts[r]!, ends[r]!)
    },
    folded: (surface) => {
      room(0)
      separate()
      if (length > 0) pieces.push(decoder.decode(asciiOut.subarray(0, length)))
      length = 0
      pieces.push(surface)
    }
  })
  if (length > 0) pieces.push(decoder.decode(asciiOut.subarray(0, length)))
  if (asciiOut.length > KEPT_BUFFER) asciiOut = new Uint8Array(1 << 14)
  return pieces.length === 1 ? pieces[0]! : pieces.join("")
}

/** The analysed terms of `text`: {@link surfaces}, each stemmed. */
export const terms = (text: string): Array<string> => {
  const out = surfaces(text)
  for (let i = 0; i < out.length; i++) out[i] = stem(out[i]!)
  return out
}

/** Distinct analysed terms in order of first appearance: the OR-joined terms of a query. */
export const queryTerms = (text: string): Array<string> => [...new Set(terms(text))]
