/**
 * Cutting a passage to fit: the longest prefix that ends at a sentence boundary, else a line
 * boundary, else a word boundary, whose cost fits. The opening line (`{title} > {heading path}`)
 * alone is never a passage, so a cut must keep more than it.
 */

const SENTENCE_END = /[.!?。！？](?=\s|$)/gu
const LINE_END = /\n/gu
const WORD_END = /\s/gu

/** Prefix lengths ending at each boundary of one kind, longest first, each longer than `minLength`. */
const boundaries = (text: string, pattern: RegExp, include: number, minLength: number): Array<number> => {
  const ends = new Set<number>()
  for (const match of text.matchAll(pattern)) {
    const end = match.index + include * match[0].length
    if (end > minLength && end < text.length) ends.add(end)
  }
  return [...ends].sort((a, b) => b - a)
}

/**
 * The longest prefix of `text` that ends at the best kind of boundary available and for which
 * `fits(prefix)` holds, or undefined. `fits` must be monotone in prefix length (a cost bound), which
 * lets each kind be searched by bisection.
 */
export const truncateToFit = (text: string, fits: (prefix: string) => boolean): string | undefined => {
  const firstLineEnd = text.indexOf("\n")
  const minLength = firstLineEnd === -1 ? 0 : firstLineEnd
  const kinds = [
    boundaries(text, SENTENCE_END, 1, minLength),
    boundaries(text, LINE_END, 0, minLength),
    boundaries(text, WORD_END, 0, minLength)
  ]
  for (const ends of kinds) {
    // `ends` is longest first; find the first index whose prefix fits.
    let lo = 0
    let hi = ends.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (fits(text.slice(0, ends[mid]).trimEnd())) hi = mid
      else lo = mid + 1
    }
    const end = ends[lo]
    if (end !== undefined) {
      const prefix = text.slice(0, end).trimEnd()
      // Bisection assumes monotone cost; the answer is still checked, so a non-monotone cost only loses length.
      if (prefix.length > minLength && fits(prefix)) return prefix
    }
  }
  return undefined
}

/** What stands for the lines a cut leaves out before the sentence it keeps. */
export const ELISION = "…"

/**
 * A cut that keeps the sentence at `[start, end)` of `text` when the longest fitting prefix would
 * lose it: the opening line, an elision mark, then the longest run from the sentence on that ends at
 * a boundary and fits. Undefined when the prefix already holds the sentence, or nothing from the
 * sentence on fits whole.
 */
export const truncateAround = (
  text: string,
  sentence: { readonly start: number; readonly end: number },
  fits: (candidate: string) => boolean
): string | undefined => {
  const firstLineEnd = text.indexOf("\n")
  if (firstLineEnd === -1 || sentence.start <= firstLineEnd) return undefined
  const prefix = truncateToFit(text, fits)
  if (prefix !== undefined && prefix.length >= sentence.end) return undefined
  const head = `${text.slice(0, firstLineEnd)}\n${ELISION} `
  const rest = text.slice(sentence.start)
  const kept = truncateToFit(`${head}${rest}`, fits) ?? (fits(`${head}${rest}`.trimEnd()) ? `${head}${rest}`.trimEnd() : undefined)
  return kept !== undefined && kept.length >= head.length + (sentence.end - sentence.start) ? kept : undefined
}
