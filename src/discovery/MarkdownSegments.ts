/**
 * A Markdown document cut into stretches that parse alike alone or together. A first-column ATX
 * heading closes every open block, so the text before it, the heading line and the text after it
 * give the same top-level nodes whether parsed as one document or one by one, unless the heading
 * line sits inside a fenced code block, raw HTML or the frontmatter, where nothing is cut. remark
 * builds some kilobytes of tree and events per block and holds them until the parse ends (100,000
 * one-line headings took 0.9 GB and 14 s in one parse), so a reader that parses stretch by stretch
 * holds one stretch's tree at a time. Lines end as micromark ends them: `\r\n`, `\r` or `\n`.
 */

/** One cut: the frontmatter, a first-column ATX heading line, or the lines between two cuts. */
export interface Segment {
  readonly kind: "frontmatter" | "heading" | "stretch"
  /** UTF-16 offsets of the segment's text, its last line ending excluded. */
  readonly start: number
  readonly end: number
  /** 1-based line of `start`. */
  readonly line: number
  /** ATX depth of a heading, 0 otherwise. */
  readonly depth: number
}

const FRONTMATTER_FENCE = /^---[ \t]*$/
const ATX = /^(#{1,6})(?=[ \t]|$)/
const BLANK = /^[ \t]*$/
// A backtick fence's info string holds no backtick, or the line is no fence at all.
const FENCE = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/
/** Raw HTML that runs to an end marker rather than a blank line (CommonMark types 1 to 5). */
export const HTML_ENDS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
  [/^ {0,3}<![A-Za-z]/, />/]
]
/** Where raw HTML may open a block. */
export const HTML_START = /^ {0,3}</

/** The segments of `source` (no byte-order mark) in document order; together they cover every line. */
export function* segments(source: string): Generator<Segment> {
  let line = 1
  let offset = 0
  /** Start offset and line of the open stretch, and the end of its last line so far. */
  let stretch: { start: number; line: number; end: number } | undefined
  let fence: RegExp | undefined
  let html: RegExp | "blank" | undefined
  let first = true
  let frontmatterOpen = false
  const lineEnd = /\r\n|\r|\n/g
  while (offset <= source.length) {
    const ending = lineEnd.exec(source)
    const end = ending === null ? source.length : ending.index
    const next = ending === null ? source.length + 1 : ending.index + ending[0].length
    const text = source.slice(offset, end)
    const here = { start: offset, line, end }
    offset = next
    line++
    if (first) {
      first = false
      // Frontmatter only when a closing fence follows; otherwise `---` is a thematic break.
      if (FRONTMATTER_FENCE.test(text) && closesFrontmatter(source, next)) {
        frontmatterOpen = true
        stretch = here
        continue
      }
    }
    if (frontmatterOpen) {
      stretch!.end = end
      if (FRONTMATTER_FENCE.test(text)) {
        frontmatterOpen = false
        yield { kind: "frontmatter", start: stretch!.start, end, line: stretch!.line, depth: 0 }
        stretch = undefined
      }
      continue
    }
    if (fence !== undefined || html !== undefined) {
      if (fence !== undefined && fence.test(text)) fence = undefined
      else if (html !== undefined && (html === "blank" ? BLANK.test(text) : html.test(text))) html = undefined
    } else {
      const atx = ATX.exec(text)
      if (atx !== null) {
        if (stretch !== undefined) yield { kind: "stretch", start: stretch.start, end: stretch.end, line: stretch.line, depth: 0 }
        stretch = undefined
        yield { kind: "heading", start: here.start, end, line: here.line, depth: atx[1]!.length }
        continue
      }
      const opened = FENCE.exec(text)
      if (opened !== null) {
        const run = opened[1] ?? opened[2]!
        // Closed by a run of the same character at least as long, and nothing else on its line.
        fence = new RegExp(`^ {0,3}\\${run[0]}{${run.length},}[ \\t]*$`)
      } else if (HTML_START.test(text)) {
        const ends = HTML_ENDS.find(([begins]) => begins.test(text))
        // A block that ends on its own first line is over; any other tag runs to a blank line.
        html = ends === undefined ? "blank" : ends[1].test(text.replace(ends[0], "")) ? undefined : ends[1]
      }
    }
    if (stretch === undefined) stretch = here
    else stretch.end = end
  }
  if (stretch !== undefined) yield { kind: frontmatterOpen ? "frontmatter" : "stretch", start: stretch.start, end: stretch.end, line: stretch.line, depth: 0 }
}

/** Whether a line of `---` follows `from` (the frontmatter's closing fence). */
const closesFrontmatter = (source: string, from: number): boolean => {
  const lineEnd = /\r\n|\r|\n/g
  lineEnd.lastIndex = from
  for (let offset = from; offset <= source.length;) {
    const ending = lineEnd.exec(source)
    const end = ending === null ? source.length : ending.index
    if (FRONTMATTER_FENCE.test(source.slice(offset, end))) return true
    if (ending === null) return false
    offset = ending.index + ending[0].length
  }
  return false
}
