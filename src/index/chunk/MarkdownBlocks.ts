/**
 * The block structure of a Markdown document, read with the same remark stack discovery uses but
 * with inline syntax switched off: emphasis and link resolution in micromark grow faster than
 * linearly on one long line (40 KB of `*a` took 14 s), and chunking needs only blocks and line
 * numbers. Lines longer than {@link MAX_PARSED_LINE} are cut short for the parse alone, since block
 * structure is decided by a line's opening characters; the text itself is always read from the
 * source. Heading text is then read inline on its own, a heading being one short line.
 */
import type { Nodes, Root, RootContent } from "mdast"
import remarkFrontmatter from "remark-frontmatter"
import remarkGfm from "remark-gfm"
import remarkParse from "remark-parse"
import { type Processor, unified } from "unified"
import { HTML_ENDS, HTML_START } from "../../discovery/MarkdownSegments.ts"

/** Longest line the structural parse sees, in UTF-16 code units. */
export const MAX_PARSED_LINE = 1_000

/** Longest heading read inline; beyond it the raw text stands, whitespace collapsed. */
export const MAX_INLINE_HEADING = 300

const INLINE_MARKUP = /[*_`[\]<>&\\~]/

// Inline constructs of CommonMark. Without them a paragraph's text is one literal run.
const INLINE_CONSTRUCTS = [
  "attention",
  "autolink",
  "characterReference",
  "codeText",
  "hardBreakEscape",
  "htmlText",
  "labelEnd",
  "labelStartImage",
  "labelStartLink"
]

function blocksOnly(this: Processor): void {
  const data = this.data()
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: INLINE_CONSTRUCTS } }]
}

// GFM is left out of the structural parse: its table construct made a 10,000-line paragraph cost
// seconds. Tables are recognised from their delimiter row instead (see MarkdownChunker).
const structure = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).use(blocksOnly)
// Frontmatter can only open a document: a stretch after a heading that starts with `---` holds a
// thematic break or a setext underline, never YAML.
const structureWithin = unified().use(remarkParse).use(blocksOnly)
const inline = unified().use(remarkParse).use(remarkGfm)

/** A document's lines by 0-based index: an array of them, or lines read from the text on demand. */
export interface Lines {
  readonly length: number
  at(index: number): string | undefined
}

/** Lines `[from, to)`, each as `each` gives it, joined by `separator`. */
export const joinLines = (lines: Lines, from: number, to: number, separator: string, each: (line: string) => string = (line) => line): string => {
  const parts: Array<string> = []
  for (let i = from; i < to; i++) parts.push(each(lines.at(i)!))
  return parts.join(separator)
}

/** A block or heading, with 1-based inclusive lines. */
export interface Block {
  readonly kind: "heading" | "yaml" | "list" | "blockquote" | "paragraph" | "other"
  readonly startLine: number
  readonly endLine: number
  /** Heading depth, 1 to 6; 0 for other blocks. */
  readonly depth: number
  /** Line ranges of the parts a long block may split along: list items, a quote's blocks. */
  readonly parts: ReadonlyArray<readonly [number, number]>
}

const KINDS: Readonly<Record<string, Block["kind"]>> = {
  heading: "heading",
  yaml: "yaml",
  list: "list",
  blockquote: "blockquote",
  paragraph: "paragraph"
}

const KIND_CODES: ReadonlyArray<Block["kind"]> = ["heading", "yaml", "list", "blockquote", "paragraph", "other"]

/**
 * The blocks of a document in order, held as numbers: a heading-dense file has a block a line, and
 * an object each (with its list of parts) cost more than ten times the file's bytes. A block read
 * back is a fresh object the caller may let go.
 */
export class BlockList implements Iterable<Block> {
  #codes = new Uint8Array(64)
  #lines = new Int32Array(128)
  // Block i's parts are #parts[2 * #partFrom[i] ..] up to block i + 1's first.
  #partFrom = new Int32Array(65)
  #parts = new Int32Array(16)
  #partCount = 0
  length = 0

  push(kind: Block["kind"], startLine: number, endLine: number, depth: number, parts: ReadonlyArray<readonly [number, number]>): void {
    if (this.length === this.#codes.length) {
      this.#codes = grown(this.#codes, this.length * 2)
      this.#lines = grown(this.#lines, this.length * 4)
      this.#partFrom = grown(this.#partFrom, this.length * 2 + 1)
    }
    if ((this.#partCount + parts.length) * 2 > this.#parts.length) this.#parts = grown(this.#parts, Math.max(this.#parts.length * 2, (this.#partCount + parts.length) * 2))
    for (const [first, last] of parts) {
      this.#parts[2 * this.#partCount] = first
      this.#parts[2 * this.#partCount + 1] = last
      this.#partCount++
    }
    this.#codes[this.length] = KIND_CODES.indexOf(kind) * 8 + depth
    this.#lines[2 * this.length] = startLine
    this.#lines[2 * this.length + 1] = endLine
    this.length++
    this.#partFrom[this.length] = this.#partCount
  }

  at(index: number): Block {
    const code = this.#codes[index]!
    const parts: Array<readonly [number, number]> = []
    for (let part = this.#partFrom[index]!; part < this.#partFrom[index + 1]!; part++) {
      parts.push([this.#parts[2 * part]!, this.#parts[2 * part + 1]!])
    }
    return {
      kind: KIND_CODES[code >> 3]!,
      startLine: this.#lines[2 * index]!,
      endLine: this.#lines[2 * index + 1]!,
      depth: code & 7,
      parts: parts.length === 0 ? NO_PARTS : parts
    }
  }

  /** The first block `accept` takes, or undefined. */
  find(accept: (block: Block) => boolean): Block | undefined {
    for (const block of this) if (accept(block)) return block
    return undefined
  }

  *[Symbol.iterator](): Iterator<Block> {
    for (let index = 0; index < this.length; index++) yield this.at(index)
  }
}

/**
 * `array` moved into one of `length`. The old buffer is freed at once rather than at a full
 * collection, which V8 puts off until tens of MB of such memory have built up: a file of 100,000
 * headings outgrew 1.7 MB of these.
 */
const grown = <A extends Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(array: A, length: number): A =>
  new (array.constructor as new (buffer: ArrayBuffer) => A)(array.buffer.transfer(length * array.BYTES_PER_ELEMENT))

// One empty list for every block without parts: a heading-dense file has one per line.
const NO_PARTS: ReadonlyArray<readonly [number, number]> = []

const linesOf = (node: Nodes): readonly [number, number] => [node.position?.start.line ?? 1, node.position?.end.line ?? 1]

/** A parsed block, its lines moved down by `offset`, onto the list. */
const pushNode = (out: BlockList, node: RootContent, offset: number): void => {
  const [startLine, endLine] = linesOf(node)
  const parts = node.type === "list" || node.type === "blockquote" ? node.children.map(linesOf) : NO_PARTS
  out.push(
    Object.hasOwn(KINDS, node.type) ? KINDS[node.type]! : "other",
    startLine + offset,
    endLine + offset,
    node.type === "heading" ? node.depth : 0,
    offset === 0 ? parts : parts.map(([first, last]) => [first + offset, last + offset] as const)
  )
}

// An ATX heading at the first column: it closes every open block, so what comes before and after
// it parse alike whether together or apart (unless inside a fence, HTML or frontmatter).
const ATX = /^(#{1,6})(?=[ \t\r]|$)/
const BLANK = /^[ \t]*\r?$/
// A line no block construct but a paragraph can start with or continue as: it opens with a letter,
// or a digit not followed by an ordered list's `.` or `)`, and holds no table pipe.
const PLAIN = /^ {0,3}(?:\p{L}|\d+(?![\d.)]))[^|]*$/u
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Lines `[from, to)` (0-based) parsed on their own, their line numbers those of the document. */
const segment = (lines: Lines, from: number, to: number, out: BlockList): void => {
  let plain = true
  for (let i = from; i < to && plain; i++) {
    const line = lines.at(i)!
    plain = BLANK.test(line) || PLAIN.test(line)
  }
  if (plain) {
    // Paragraphs between blank lines, as the parser would find them, without building its tree.
    for (let i = from; i < to; i++) {
      if (BLANK.test(lines.at(i)!)) continue
      const start = i
      while (i + 1 < to && !BLANK.test(lines.at(i + 1)!)) i++
      out.push("paragraph", start + 1, i + 1, 0, NO_PARTS)
    }
    return
  }
  const masked = joinLines(lines, from, to, "\n", (line) => (line.length > MAX_PARSED_LINE ? line.slice(0, MAX_PARSED_LINE) : line))
  for (const node of ((from === 0 ? structure : structureWithin).parse(masked) as Root).children) pushNode(out, node, from)
}

/**
 * The top-level blocks of a document, in order. `lines` are the document's lines. The parser
 * builds a tree of some kilobytes per block (100,000 one-line headings took 0.8 GB and 14 s), so
 * the document is cut at its first-column ATX headings, which are read from their line alone, and
 * each stretch between two is parsed on its own; a stretch of plain paragraphs is not parsed at all.
 * Inside a fenced code block, raw HTML or the frontmatter nothing is cut.
 */
export const blocks = (lines: Lines): BlockList => {
  const out = new BlockList()
  let start = 0
  let i = 0
  // Frontmatter (`---` on the first line to the next `---`): its `#` lines are YAML comments.
  if (/^---\r?$/.test(lines.at(0) ?? "")) {
    i = 1
    while (i < lines.length && !/^---\r?$/.test(lines.at(i)!)) i++
    i++
  }
  let fence: RegExp | undefined
  let html: RegExp | "blank" | undefined
  for (; i < lines.length; i++) {
    const line = lines.at(i)!
    if (fence !== undefined) {
      if (fence.test(line)) fence = undefined
      continue
    }
    if (html !== undefined) {
      if (html === "blank" ? BLANK.test(line) : html.test(line)) html = undefined
      continue
    }
    const atx = ATX.exec(line)
    if (atx !== null) {
      if (start < i) segment(lines, start, i, out)
      out.push("heading", i + 1, i + 1, atx[1]!.length, NO_PARTS)
      start = i + 1
      continue
    }
    const opened = FENCE.exec(line)
    if (opened !== null) {
      // Closed by a run of the same character at least as long, and nothing else on its line.
      fence = new RegExp(`^ {0,3}\\${opened[1]![0]}{${opened[1]!.length},}[ \\t]*\\r?$`)
      continue
    }
    if (HTML_START.test(line)) {
      const ends = HTML_ENDS.find(([begins]) => begins.test(line))
      // A block that ends on its own first line is over; any other tag runs to a blank line.
      html = ends === undefined ? "blank" : ends[1].test(line.replace(ends[0], "")) ? undefined : ends[1]
    }
  }
  if (start < lines.length) segment(lines, start, lines.length, out)
  return out
}

const plain = (node: Nodes): string => {
  if (node.type === "text" || node.type === "inlineCode") return node.value
  return "children" in node ? node.children.map(plain).join("") : ""
}

/** The words of a heading as a reader sees them (`Using \`x\`` reads `Using x`), from its raw text. */
export const headingText = (raw: string): string => {
  const collapsed = raw.replace(/\s+/g, " ").trim()
  // Without any character inline syntax starts with, the words are already what a reader sees.
  if (collapsed.length > MAX_INLINE_HEADING || !INLINE_MARKUP.test(collapsed)) return collapsed
  // Parsed as a heading so that text such as `1. Intro` is not read as a list.
  const tree = inline.parse(`# ${collapsed}`) as Root
  return plain(tree).replace(/\s+/g, " ").trim()
}

/**
 * `headingText` remembering what the inline parser read, so that repeated headings (`Status`,
 * `Example`) are parsed once. Headings without markup are read without the parser and not kept:
 * a heading-dense file has a distinct heading a line.
 */
export const headingReader = (): (raw: string) => string => {
  const read = new Map<string, string>()
  return (raw) => {
    if (!INLINE_MARKUP.test(raw)) return headingText(raw)
    const known = read.get(raw)
    if (known !== undefined) return known
    const words = headingText(raw)
    if (read.size >= 4_096) read.clear()
    read.set(raw, words)
    return words
  }
}

/** The raw text of a heading block: an ATX line without its hashes, or a setext heading's lines. */
export const rawHeading = (lines: Lines, block: Block): string => {
  const first = lines.at(block.startLine - 1) ?? ""
  const atx = /^ {0,3}#{1,6}(?=\s|$)/.exec(first)
  if (atx !== null && block.endLine === block.startLine) return first.slice(atx[0].length).replace(/\s+#+\s*$/, "")
  return joinLines(lines, block.startLine - 1, block.endLine - 1, " ")
}
