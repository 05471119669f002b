/**
 * Sentence spans of a passage: what a reader's eye lands on. Prose is read as paragraphs, so a
 * sentence may run over the hard-wrapped lines of one; a line that opens a Markdown block (a list
 * item, heading, table row, quote) starts a new paragraph, and inside a code fence, or in code
 * (`lines: true`), every line stands alone. A paragraph is split after a sentence end: a Latin one
 * only when white space follows (`v1.2`, `docs/a.md` stay whole), a CJK full stop always. Blank
 * lines and fence lines are not sentences.
 */

export interface Span {
  /** UTF-16 offset of the first character, in the text given. */
  readonly start: number
  /** Offset one past the last character (white space at either end excluded). */
  readonly end: number
}

export interface SentenceOptions {
  /** Every line is its own unit (source code). */
  readonly lines?: boolean
}

// Closing quotes, brackets and emphasis stay with the sentence they close (`**Done.**`).
const SENTENCE_END = /[.!?]["'”’)\]*_`]*(?=\s)|[。！？]/gu
/** An ordered list's number, which ends in a dot but ends no sentence. */
const NUMBERED = /^\s*\d+[.)]\s+/u
const FENCE = /^\s*(?:```|~~~)/u
/** A line that opens a Markdown block of its own. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||>)/u
/** A line after which nothing joins: a heading or a table row. */
const BLOCK_WHOLE = /^\s*(?:#{1,6}\s|\|)/u
const SPACE = /\s/u

/** Every sentence span of `text`, in order; linear in its length. */
export const sentenceSpans = (text: string, options: SentenceOptions = {}): Array<Span> => {
  const spans: Array<Span> = []
  const push = (start: number, end: number) => {
    let s = start
    let e = end
    while (s < e && SPACE.test(text[s]!)) s++
    while (e > s && SPACE.test(text[e - 1]!)) e--
    if (e > s) spans.push({ start: s, end: e })
  }
  const split = (start: number, end: number) => {
    const paragraph = text.slice(start, end)
    const numbered = NUMBERED.exec(paragraph)?.[0].length ?? 0
    let from = 0
    for (const match of paragraph.matchAll(SENTENCE_END)) {
      if (match.index < numbered) continue
      const stop = match.index + match[0].length
      push(start + from, start + stop)
      from = stop
    }
    push(start + from, end)
  }

  let paragraph: { start: number; end: number; closed: boolean } | undefined
  const flush = () => {
    if (paragraph !== undefined) split(paragraph.start, paragraph.end)
    paragraph = undefined
  }
  let inFence = false
  let lineStart = 0
  while (lineStart <= text.length) {
    const newline = text.indexOf("\n", lineStart)
    const lineEnd = newline === -1 ? text.length : newline
    const line = text.slice(lineStart, lineEnd)
    if (FENCE.test(line)) {
      flush()
      inFence = !inFence
    } else if (line.trim() === "") {
      flush()
    } else if (inFence || options.lines === true) {
      flush()
      split(lineStart, lineEnd)
    } else if (paragraph === undefined || paragraph.closed || BLOCK_START.test(line)) {
      flush()
      paragraph = { start: lineStart, end: lineEnd, closed: BLOCK_WHOLE.test(line) }
    } else {
      paragraph.end = lineEnd
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  flush()
  return spans
}
