/**
 * Markdown analyzer on unified + remark (CommonMark, GFM, YAML frontmatter): the document's title,
 * headings to depth three, a bounded summary, word count, a frontmatter subset, generated regions,
 * and every reference its prose makes, in document order. `.mdx` is read as Markdown.
 */
import type { Nodes, Root, RootContent } from "mdast"
import remarkFrontmatter from "remark-frontmatter"
import remarkGfm from "remark-gfm"
import remarkParse from "remark-parse"
import { unified } from "unified"
import { parse as parseYaml } from "yaml"
import type { Heading, LineRange } from "../domain/Snapshot.ts"
import { MARKDOWN } from "./AnalyzerKinds.ts"
import { readCairnBlock } from "./CairnBlock.ts"
import type { Analysis, Analyzer, DocumentReference, Note } from "./FileAnalysis.ts"
import { generatedRegions, isInside } from "./GeneratedRegions.ts"
import { HTML_ENDS, type Segment, segments } from "./MarkdownSegments.ts"
import { basename } from "../source/Paths.ts"

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ["yaml"])

/** The frontmatter keys a document entity keeps, in code-unit order. */
export const FRONTMATTER_KEYS = [
  "audience",
  "created",
  "lifecycle",
  "owner",
  "status",
  "superseded_by",
  "tier",
  "type",
  "updated",
  "verified"
] as const

/** Summary length bound, in UTF-16 code units. */
export const SUMMARY_LIMIT = 240

const WIKILINK = /\[\[([^[\]|#\n]+)(?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?\]\]/g
const RELATIONS_HEADING = /^relations$/i
const VERB_LINE = /^\s*([A-Za-z][\w-]*):?\s+/
const SCHEME = /^[a-z][a-z0-9+.-]*:/i
const BLANK = /^[ \t]*$/

const textOf = (node: Nodes): string => {
  if (node.type === "text" || node.type === "inlineCode") return node.value
  return "children" in node ? node.children.map((child) => textOf(child)).join("") : ""
}

const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0

/** Repository links only: no scheme, no protocol-relative URL, no bare `#anchor`. */
const isRelativeUrl = (url: string): boolean => url !== "" && !SCHEME.test(url) && !url.startsWith("//") && !url.startsWith("#")

const bounded = (text: string): string => {
  const collapsed = text.replace(/\s+/g, " ").trim()
  if (collapsed.length <= SUMMARY_LIMIT) return collapsed
  const cut = collapsed.slice(0, SUMMARY_LIMIT - 1)
  const space = cut.lastIndexOf(" ")
  return `${space > SUMMARY_LIMIT / 2 ? cut.slice(0, space) : cut}…`
}

const scalar = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) {
    const items = value.map(scalar).filter((item): item is string => item !== undefined)
    return items.length > 0 ? items.join(", ") : undefined
  }
  return undefined
}

const readFrontmatter = (value: string, notes: Array<Note>): { fields: Record<string, string>; title: string | undefined } => {
  let data: unknown
  try {
    data = parseYaml(value)
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error)
    notes.push({ status: "partial", reason: `frontmatter is not valid YAML (${message}); its fields were not read` })
    return { fields: {}, title: undefined }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { fields: {}, title: undefined }
  const record = data as Record<string, unknown>
  const fields: Record<string, string> = {}
  for (const key of FRONTMATTER_KEYS) {
    const text = scalar(record[key])
    if (text !== undefined) fields[key] = text
  }
  const title = typeof record["title"] === "string" && record["title"].trim() !== "" ? record["title"].trim() : undefined
  return { fields, title }
}

/** Top-level nodes of one parse, and what to add to their lines to get the document's. */
interface Parsed {
  readonly nodes: ReadonlyArray<RootContent>
  readonly offset: number
}

/**
 * Most headings a document entity lists. No document written by hand comes near it; a generated
 * or heading-only file would otherwise put each of its headings into the snapshot (100,000
 * headings are about 4 MB of snapshot and several times that in memory).
 */
export const MAX_HEADINGS = 1_000

// A heading line with nothing inline syntax (GFM's autolinks included) could read otherwise.
const PLAIN_HEADING = /^(#{1,6})(?:[ \t]+([^*_`[\]<>&\\~@:|!#\t\0]*?))?[ \t]*$/
// A stretch of paragraphs that inline syntax leaves as written: no markup, no autolink, no NUL
// (read as U+FFFD), no tab and no hard break (two trailing spaces).
const PLAIN_LINE = /^ {0,3}(?:\p{L}|\d+(?![\d.)]))[^*_`[\]<>&\\~@:|!\t\0]*$/u
const PLAIN_BREAK = / {2}$|www\./i

/** micromark's label normalisation: whitespace collapsed, then case folded. */
const normalizeLabel = (label: string): string =>
  label.replace(/[\t\n\r ]+/g, " ").replace(/^ | $/g, "").toLowerCase().toUpperCase()

const walk = (node: Nodes, visit: (node: Nodes) => void): void => {
  visit(node)
  if ("children" in node) for (const child of node.children) walk(child, visit)
}

/**
 * Records the link reference and footnote definitions among `nodes`: the url of each identifier,
 * first one winning, and one line per label that defines it for a stretch parsed alone (a
 * reference is a reference only when its label is defined somewhere in the document).
 */
const define = (nodes: ReadonlyArray<RootContent>, urls: Map<string, string>, stubs: Map<string, string>): void => {
  for (const top of nodes) {
    walk(top, (node) => {
      if (node.type === "definition") {
        if (!urls.has(node.identifier)) urls.set(node.identifier, node.url)
        const label = (node.label ?? node.identifier).replace(/[\t\n\r ]+/g, " ")
        stubs.set(normalizeLabel(label), `[${label}]: x`)
      } else if (node.type === "footnoteDefinition") {
        const label = (node.label ?? node.identifier).replace(/[\t\n\r ]+/g, " ")
        stubs.set(`^${normalizeLabel(label)}`, `[^${label}]: x`)
      }
    })
  }
}

/** The definitions a stretch may refer to: every bracketed label it holds that one defines. */
const stubsFor = (text: string, stubs: ReadonlyMap<string, string>): Array<string> => {
  const found = new Set<string>()
  for (let open = text.indexOf("["); open !== -1; open = text.indexOf("[", open + 1)) {
    let close = open + 1
    while (close < text.length && text[close] !== "]" && text[close] !== "[") close += text[close] === "\\" ? 2 : 1
    if (text[close] !== "]") continue
    const key = normalizeLabel(text.slice(open + 1, close))
    const stub = stubs.get(key)
    if (stub !== undefined) found.add(stub)
  }
  return [...found].sort()
}

const lineAt = (text: string, line: number): string => text.split(/\r\n|\r|\n/, line)[line - 1] ?? ""

/**
 * Whether the last top-level node of a stretch parsed alone is a fenced code block or raw HTML
 * still open at its end: then the heading line after it belongs to that block, the cut was wrong
 * (a fence the segmenter took for closed, inside a list item), and the document is parsed whole.
 */
const openAtEnd = (nodes: ReadonlyArray<RootContent>, text: string, lastLine: number): boolean => {
  const last = nodes[nodes.length - 1]
  if (last === undefined || last.position === undefined || last.position.end.line < lastLine) return false
  const first = last.position.start.line
  if (last.type === "code") {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(lineAt(text, first))
    if (opening === null) return false
    const closing = new RegExp(`^ {0,3}\\${opening[1]![0]}{${opening[1]!.length},}[ \\t]*$`)
    return lastLine === first || !closing.test(lineAt(text, lastLine))
  }
  if (last.type === "html") {
    const lines = last.value.split(/\r\n|\r|\n/)
    const ends = HTML_ENDS.find(([begins]) => begins.test(lines[0]!))
    if (ends === undefined) return true
    const tail = lines.length === 1 ? lines[0]!.replace(ends[0], "") : lines[lines.length - 1]!
    return !ends[1].test(tail)
  }
  return false
}

/**
 * Text parsed in one call: consecutive segments are parsed together up to this many UTF-16 code
 * units, since each call costs the parser's set-up (a short document stays one parse) while the
 * tree it holds grows with the text (about 1 KB of heap per byte of heading-dense Markdown).
 */
export const MAX_PARSED_CHARS = 4_096

/** The parse of segments from `first` (a segment's start and line) to `end`; undefined when the cut after them proves wrong. */
const parseGroup = (
  source: string,
  stubs: ReadonlyMap<string, string>,
  first: { readonly start: number; readonly line: number; readonly kind: Segment["kind"] },
  end: number,
  /** Whether a segment follows, which a fence or HTML block left open would take in. */
  followed: boolean
): Parsed | undefined => {
  const text = source.slice(first.start, end)
  // Each definition the text refers to goes above it, so its references read as in the whole
  // document: one a line, a blank line after each (a footnote's text would otherwise run on). Then
  // an empty heading, which closes every block as the heading before the text did, and keeps a
  // `---` that opens the text from being read as frontmatter.
  const defined = stubs.size === 0 || first.kind === "frontmatter" || !text.includes("[") ? [] : stubsFor(text, stubs)
  // A document that opens with `---` but no frontmatter keeps that line first: no room above it.
  if (first.line === 1 && defined.length > 0 && text.startsWith("---")) return undefined
  const headed = first.line > 1 || defined.length > 0
  const prefix = `${defined.map((stub) => `${stub}\n\n`).join("")}${headed ? "#\n" : ""}`
  const prefixLines = 2 * defined.length + (headed ? 1 : 0)
  const all = prefix + text
  const nodes = (processor.parse(all) as Root).children.slice(defined.length + (headed ? 1 : 0))
  if (followed && openAtEnd(nodes, all, prefixLines + lineCount(text))) return undefined
  return { nodes, offset: first.line - 1 - prefixLines }
}

const lineCount = (text: string): number => (text.match(/\r\n|\r|\n/g)?.length ?? 0) + 1

/** A heading line or a stretch read without the parser, when inline syntax leaves it as written. */
const plainSegment = (segment: Segment, text: string): Parsed | undefined => {
  if (segment.kind === "heading") {
    const plain = PLAIN_HEADING.exec(text)
    if (plain === null || /www\./i.test(text)) return undefined
    const value = plain[2] ?? ""
    const children = value === "" ? [] : [{ type: "text" as const, value }]
    const position = { start: { line: segment.line, column: 1 }, end: { line: segment.line, column: text.length + 1 } }
    return { nodes: [{ type: "heading", depth: plain[1]!.length as 1, children, position }], offset: 0 }
  }
  if (segment.kind !== "stretch") return undefined
  const lines = text.split(/\r\n|\r|\n/)
  if (!lines.every((line) => BLANK.test(line) || (PLAIN_LINE.test(line) && !PLAIN_BREAK.test(line)))) return undefined
  return { nodes: paragraphs(lines, segment.line), offset: 0 }
}

/** The document's top-level nodes, a group of segments at a time; undefined once a cut proves wrong. */
function* parsedStretches(
  source: string,
  stubs: ReadonlyMap<string, string>,
  onParsed?: (nodes: ReadonlyArray<RootContent>) => void
): Generator<Parsed | undefined> {
  let group: { readonly start: number; readonly line: number; readonly kind: Segment["kind"]; end: number } | undefined
  const flush = (final: boolean) => {
    const parsed = parseGroup(source, stubs, group!, group!.end, !final)
    group = undefined
    if (parsed !== undefined) onParsed?.(parsed.nodes)
    return parsed
  }
  for (const segment of segments(source)) {
    if (group === undefined) {
      const plain = plainSegment(segment, source.slice(segment.start, segment.end))
      if (plain !== undefined) {
        yield plain
        continue
      }
      group = { start: segment.start, line: segment.line, kind: segment.kind, end: segment.end }
    } else {
      group.end = segment.end
    }
    // The frontmatter is parsed alone, so that no definition is ever put above it.
    if (segment.kind === "frontmatter" || group.end - group.start >= MAX_PARSED_CHARS) {
      const parsed = flush(false)
      yield parsed
      if (parsed === undefined) return
    }
  }
  if (group !== undefined) yield flush(true)
}

/** Paragraphs of a stretch that inline syntax leaves as written, as the parser gives them. */
const paragraphs = (lines: ReadonlyArray<string>, line: number): Array<RootContent> => {
  const out: Array<RootContent> = []
  for (let i = 0; i < lines.length; i++) {
    if (BLANK.test(lines[i]!)) continue
    const start = i
    while (i + 1 < lines.length && !BLANK.test(lines[i + 1]!)) i++
    const value = lines.slice(start, i + 1).map((text) => text.replace(/^ +| +$/g, "")).join("\n")
    const position = { start: { line: line + start, column: 1 }, end: { line: line + i, column: 1 } }
    out.push({ type: "paragraph", children: [{ type: "text", value, position }], position })
  }
  return out
}

/** The facts of a document from its top-level nodes in order; undefined when `parses` gives up. */
const collect = (
  path: string,
  regions: ReadonlyArray<LineRange>,
  definitions: ReadonlyMap<string, string>,
  parses: Iterable<Parsed | undefined>
): Analysis | undefined => {
  const notes: Array<Note> = []
  const references: Array<DocumentReference> = []
  const headings: Array<Heading> = []
  let headingCount = 0
  let firstTopHeading: string | undefined
  let frontmatter: Record<string, string> = {}
  let declaredTitle: string | undefined
  let summary: string | undefined
  let words = 0
  let offset = 0
  // A node the parser gave no position (GFM's literal autolinks) stands at line 1, as it always has.
  const lineOf = (node: Nodes): number => node.position === undefined ? 1 : node.position.start.line + offset

  const refer = (reference: DocumentReference) => {
    if (!isInside(regions, reference.line)) references.push(reference)
  }
  const link = (node: Nodes, url: string) => {
    const line = lineOf(node)
    if (isRelativeUrl(url)) refer({ kind: "link", target: url, line })
    const label = textOf(node).trim()
    if (label !== "" && label !== url) refer({ kind: "link-text", target: label, line })
  }
  const visit = (node: Nodes): void => {
    switch (node.type) {
      case "yaml": {
        const read = readFrontmatter(node.value, notes)
        frontmatter = read.fields
        declaredTitle = read.title
        return
      }
      case "heading":
        if (node.depth <= 3) {
          const text = textOf(node).trim()
          if (node.depth === 1) firstTopHeading ??= text
          // Only a listed heading gets its object: the first thousand all live, and V8 would then
          // allocate every later one straight into the old generation, to linger there as garbage.
          if (headingCount++ < MAX_HEADINGS) headings.push({ depth: node.depth, text, line: lineOf(node) })
        }
        break
      case "paragraph":
        if (summary === undefined && !isInside(regions, lineOf(node))) {
          const candidate = bounded(textOf(node))
          if (candidate !== "") summary = candidate
        }
        break
      case "text": {
        words += countWords(node.value)
        for (const match of node.value.matchAll(WIKILINK)) {
          const offsetLines = node.value.slice(0, match.index).split("\n").length - 1
          refer({ kind: "wikilink", target: match[1]!.trim(), line: lineOf(node) + offsetLines })
        }
        return
      }
      case "inlineCode":
        words += countWords(node.value)
        refer({ kind: "code", target: node.value.trim(), line: lineOf(node) })
        return
      case "link":
        link(node, node.url)
        break
      case "linkReference": {
        const url = definitions.get(node.identifier)
        if (url !== undefined) link(node, url)
        break
      }
      case "code":
        if (node.lang === "cairn" && !isInside(regions, lineOf(node))) {
          const reading = readCairnBlock(node.value, lineOf(node))
          references.push(...reading.references)
          notes.push(...reading.notes)
        }
        return
      case "html":
      case "image":
      case "imageReference":
      case "definition":
        return
    }
    if ("children" in node) for (const child of node.children) visit(child)
  }
  /** One line of a Relations section: `verb [[target]]` or `verb [text](target)`. */
  const relationItem = (item: Nodes) => {
    const itemText = textOf(item)
    const verb = VERB_LINE.exec(itemText)?.[1]
    const wikilink = [...itemText.matchAll(WIKILINK)][0]?.[1]
    let target = wikilink?.trim()
    const findLink = (node: Nodes): void => {
      if (target !== undefined) return
      if (node.type === "link") target = node.url
      else if ("children" in node) node.children.forEach(findLink)
    }
    findLink(item)
    const line = lineOf(item)
    if (verb !== undefined && target !== undefined && !isInside(regions, line)) {
      refer({ kind: "verb", verb, target, line })
    } else if (!isInside(regions, line)) {
      notes.push({ status: "partial", reason: `relations line ${line} is not \`verb [[target]]\`: ${itemText.trim().slice(0, 60)}` })
    }
  }

  let relationsDepth: number | undefined
  for (const parsed of parses) {
    if (parsed === undefined) return undefined
    offset = parsed.offset
    for (const node of parsed.nodes) {
      if (node.type === "heading") {
        if (relationsDepth !== undefined && node.depth <= relationsDepth) relationsDepth = undefined
        if (RELATIONS_HEADING.test(textOf(node).trim())) relationsDepth = node.depth
      }
      if (relationsDepth !== undefined && node.type === "list") {
        for (const item of node.children) {
          words += countWords(textOf(item))
          relationItem(item)
        }
        continue
      }
      visit(node)
    }
  }
  if (headingCount > MAX_HEADINGS) {
    notes.push({ status: "partial", reason: `${headingCount} headings of depth one to three; the first ${MAX_HEADINGS} are listed` })
  }

  const title = declaredTitle ??
    firstTopHeading ??
    headings[0]?.text ??
    basename(path).replace(/\.[^.]+$/, "")
  return {
    facts: {
      _tag: "document",
      title,
      headings,
      summary: summary ?? "",
      wordCount: words,
      frontmatter,
      generatedRegions: regions,
      references
    },
    notes
  }
}

/**
 * The document is read stretch by stretch (`MarkdownSegments`), so its parse holds one stretch's
 * tree at a time. A document that defines link labels is read twice: first to find its definitions
 * (and check every cut), then with the definitions each stretch refers to. The whole-file parse
 * stays for a document whose cuts prove wrong.
 */
const analyze = (path: string, text: string): Analysis => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const regions = generatedRegions(source)
  const urls = new Map<string, string>()
  const stubs = new Map<string, string>()
  const record = source.includes("]:") ? (nodes: ReadonlyArray<RootContent>) => define(nodes, urls, stubs) : undefined
  const first = collect(path, regions, urls, parsedStretches(source, new Map(), record))
  if (first !== undefined && stubs.size === 0) return first
  const second = first === undefined ? undefined : collect(path, regions, urls, parsedStretches(source, stubs))
  if (second !== undefined) return second
  const tree = processor.parse(source) as Root
  const definitions = new Map<string, string>()
  walk(tree, (node) => {
    if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url)
  })
  return collect(path, regions, definitions, [{ nodes: tree.children, offset: 0 }])!
}

export const MarkdownAnalyzer: Analyzer = { ...MARKDOWN, analyze }
