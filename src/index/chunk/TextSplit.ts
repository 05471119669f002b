/**
 * Cutting a stretch of text into finer spans, from coarse to fine: lines, sentences, words, and
 * fixed windows of UTF-8 bytes for a run with no break at all. Every function is one linear pass and
 * returns spans in order, leaving out only the whitespace between them.
 */

/** A half-open range `[start, end)` of UTF-16 offsets into one source text. */
export interface Span {
  readonly start: number
  readonly end: number
}

const isBlank = (source: string, start: number, end: number): boolean => {
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10 && c !== 12 && c !== 11) return false
  }
  return true
}

/** Lines of `[start, end)` that hold more than whitespace, each without its line break. */
export const lineSpans = (source: string, start: number, end: number): Array<Span> => {
  const out: Array<Span> = []
  let from = start
  while (from < end) {
    const newline = source.indexOf("\n", from)
    const to = newline < 0 || newline >= end ? end : newline
    const trimmed = to > from && source.charCodeAt(to - 1) === 13 ? to - 1 : to
    if (!isBlank(source, from, trimmed)) out.push({ start: from, end: trimmed })
    from = to + 1
  }
  return out
}

// A sentence ends at terminal punctuation, with any closing quotes or brackets, before whitespace;
// CJK full stops end one without a following space.
const SENTENCE_END = /[.!?]+["'\u2019\u201d)\]]*(?=\s)|[\u3002\uff01\uff1f]+/gu

/** Sentences of `[start, end)`, trimmed of surrounding whitespace. */
export const sentenceSpans = (source: string, start: number, end: number): Array<Span> => {
  const out: Array<Span> = []
  const push = (from: number, to: number) => {
    let a = from, b = to
    while (a < b && isBlank(source, a, a + 1)) a++
    while (b > a && isBlank(source, b - 1, b)) b--
    if (b > a) out.push({ start: a, end: b })
  }
  // Matching on the slice, not the whole source, keeps a search from running on past `end`.
  let from = start
  for (const match of source.slice(start, end).matchAll(SENTENCE_END)) {
    const to = start + match.index + match[0].length
    push(from, to)
    from = to
  }
  push(from, end)
  return out
}

/** Whitespace-separated words of `[start, end)`. */
export const wordSpans = (source: string, start: number, end: number): Array<Span> => {
  const out: Array<Span> = []
  let from = -1
  for (let i = start; i < end; i++) {
    const blank = isBlank(source, i, i + 1)
    if (blank && from >= 0) {
      out.push({ start: from, end: i })
      from = -1
    } else if (!blank && from < 0) from = i
  }
  if (from >= 0) out.push({ start: from, end })
  return out
}

/**
 * Consecutive windows of `[start, end)` of at most `maxBytes` UTF-8 bytes each (at least one code
 * point each), never cutting a surrogate pair. A byte budget bounds the tokens of any byte-level
 * BPE, so a window can never cost more than `maxBytes` tokens.
 */
export const windowSpans = (source: string, start: number, end: number, maxBytes: number): Array<Span> => {
  const out: Array<Span> = []
  let from = start
  let bytes = 0
  for (let i = start; i < end;) {
    const unit = source.charCodeAt(i)
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < end &&
      source.charCodeAt(i + 1) >= 0xdc00 && source.charCodeAt(i + 1) <= 0xdfff
    const width = pair ? 2 : 1
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
    if (bytes + size > maxBytes && i > from) {
      out.push({ start: from, end: i })
      from = i
      bytes = 0
    }
    bytes += size
    i += width
  }
  if (end > from) out.push({ start: from, end })
  return out
}
