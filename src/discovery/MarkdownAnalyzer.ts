/**
 * Markdown analyzer on unified + remark (CommonMark, GFM, YAML frontmatter): the document's title,
 * headings to depth three, a bounded summary, word count, a frontmatter subset, generated regions,
 * and every reference its prose makes, in document order. `.mdx` is read as Markdown.
 */
import type { Nodes, Root } from "mdast"
import remarkFrontmatter from "remark-frontmatter"
import remarkGfm from "remark-gfm"
import remarkParse from "remark-parse"
import { unified } from "unified"
import { parse as parseYaml } from "yaml"
import type { Heading } from "../domain/Snapshot.ts"
import { MARKDOWN } from "./AnalyzerKinds.ts"
import { readCairnBlock } from "./CairnBlock.ts"
import type { Analysis, Analyzer, DocumentReference, Note } from "./FileAnalysis.ts"
import { generatedRegions, isInside } from "./GeneratedRegions.ts"
import { basename } from "./Paths.ts"

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

const lineOf = (node: Nodes): number => node.position?.start.line ?? 1

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

const analyze = (path: string, text: string): Analysis => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const regions = generatedRegions(source)
  const tree = processor.parse(source) as Root
  const notes: Array<Note> = []
  const references: Array<DocumentReference> = []
  const headings: Array<Heading> = []
  const definitions = new Map<string, string>()
  let frontmatter: Record<string, string> = {}
  let declaredTitle: string | undefined
  let summary: string | undefined
  let words = 0

  const refer = (reference: DocumentReference) => {
    if (!isInside(regions, reference.line)) references.push(reference)
  }
  const collectDefinitions = (node: Nodes) => {
    if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url)
    if ("children" in node) for (const child of node.children) collectDefinitions(child)
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
        if (node.depth <= 3) headings.push({ depth: node.depth, text: textOf(node).trim(), line: lineOf(node) })
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

  collectDefinitions(tree)
  let relationsDepth: number | undefined
  for (const node of tree.children) {
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

  const title = declaredTitle ??
    headings.find((heading) => heading.depth === 1)?.text ??
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

export const MarkdownAnalyzer: Analyzer = { ...MARKDOWN, analyze }
