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
const inline = unified().use(remarkParse).use(remarkGfm)

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

const linesOf = (node: Nodes): readonly [number, number] => [node.position?.start.line ?? 1, node.position?.end.line ?? 1]

const blockOf = (node: RootContent): Block => {
  const [startLine, endLine] = linesOf(node)
  const parts = node.type === "list" || node.type === "blockquote" ? node.children.map(linesOf) : []
  return {
    kind: Object.hasOwn(KINDS, node.type) ? KINDS[node.type]! : "other",
    startLine,
    endLine,
    depth: node.type === "heading" ? node.depth : 0,
    parts
  }
}

/** The top-level blocks of a document, in order. `lines` are the document's lines. */
export const blocks = (lines: ReadonlyArray<string>): Array<Block> => {
  const masked = lines.map((line) => (line.length > MAX_PARSED_LINE ? line.slice(0, MAX_PARSED_LINE) : line)).join("\n")
  const tree = structure.parse(masked) as Root
  return tree.children.map(blockOf)
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

/** The raw text of a heading block: an ATX line without its hashes, or a setext heading's lines. */
export const rawHeading = (lines: ReadonlyArray<string>, block: Block): string => {
  const first = lines[block.startLine - 1] ?? ""
  const atx = /^ {0,3}#{1,6}(?=\s|$)/.exec(first)
  if (atx !== null && block.endLine === block.startLine) return first.slice(atx[0].length).replace(/\s+#+\s*$/, "")
  return lines.slice(block.startLine - 1, block.endLine - 1).join(" ")
}
