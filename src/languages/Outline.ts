/**
 * A file's outline from its syntax tree, by its language's spec: the top-level declarations (kind,
 * name, line range, exported-ness, doc comment), the imports written at the top level, and the file
 * cut into units that cover every character that is not white space, each declaration with the
 * comments and attributes directly above it, so a chunker can pack them as it packs TypeScript's.
 * Members of a container (a namespace, a header guard, a Ruby module) are read as top-level ones.
 */
import type { Tree } from "web-tree-sitter"
import type { DeclarationKind } from "../domain/Snapshot.ts"
import { lineIndex, lineStarts } from "../source/Lines.ts"
import type { ImportKind, LanguageSpec, Node } from "./LanguageSpec.ts"
import type { OutlineUnit, Span } from "./OutlineUnit.ts"

export interface OutlineDeclaration {
  readonly name: string
  readonly kind: DeclarationKind
  /** 1-based lines of the declaration itself, doc comment not included. */
  readonly line: number
  readonly endLine: number
  readonly exported: boolean
  /** The comment directly above, markers stripped, or the language's own doc (a docstring). */
  readonly doc: string | undefined
}

export interface OutlineImport {
  readonly specifier: string
  readonly kind: ImportKind
  readonly line: number
}

export type { OutlineUnit, Span } from "./OutlineUnit.ts"

export interface Outline {
  readonly declarations: ReadonlyArray<OutlineDeclaration>
  readonly imports: ReadonlyArray<OutlineImport>
  readonly units: ReadonlyArray<OutlineUnit>
  /** The first line holding a syntax error, when the tree has one. */
  readonly firstErrorLine: number | undefined
}

/** Containers nested deeper than this are read as module code: the walk's depth is bounded. */
export const MAX_CONTAINER_DEPTH = 16

/** A sibling that belongs to the declaration after it: a comment, or an outer attribute (Rust's `#[…]`). */
const isAttached = (node: Node): boolean => node.type.includes("comment") || node.type === "attribute_item"

const isComment = (node: Node): boolean => node.type.includes("comment")

/** A comment's text without its markers, lines joined by a space. */
export const commentText = (text: string): string =>
  text
    .split("\n")
    .map((line) => line.trim().replace(/^(\/\/[/!]?|\/\*\*?|\*\/|\*|#+|--|;+)\s?/, "").replace(/\s*\*\/$/, "").trim())
    .filter((line) => line !== "")
    .join(" ")

interface Item {
  readonly node: Node
  readonly start: number
  readonly end: number
}

/** The children of `node` in order, a container's children read in its place. */
const flatten = (spec: LanguageSpec, node: Node, depth: number, out: Array<Item>): void => {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (child === null) continue
    const inner = depth < MAX_CONTAINER_DEPTH ? spec.container?.(child) : undefined
    if (inner === undefined) out.push({ node: child, start: child.startIndex, end: child.endIndex })
    else if (inner.id === child.id) flatten(spec, child, depth + 1, out)
    else {
      for (let j = 0; j < child.childCount; j++) {
        const part = child.child(j)
        if (part === null) continue
        if (part.id === inner.id) flatten(spec, part, depth + 1, out)
        else out.push({ node: part, start: part.startIndex, end: part.endIndex })
      }
    }
  }
}

/**
 * Module code with comments at its end (a grammar may nest the comment above a declaration in the
 * import list before it): the code, then each comment as an item of its own, free to join what follows.
 */
const withoutTrailingComments = (item: Item): Array<Item> => {
  let at = item.node
  for (let depth = 0; depth < MAX_CONTAINER_DEPTH && at.childCount > 0; depth++) {
    const last = at.childCount - 1
    let first = last
    while (first >= 0 && isComment(at.child(first)!)) first--
    if (first < last) {
      const end = first >= 0 ? at.child(first)!.endIndex : at.startIndex
      if (end <= item.start) return [item]
      const comments: Array<Item> = []
      for (let i = first + 1; i <= last; i++) comments.push({ node: at.child(i)!, start: at.child(i)!.startIndex, end: at.child(i)!.endIndex })
      return [{ ...item, end }, ...comments]
    }
    at = at.child(last)!
  }
  return [item]
}

/** Offsets of line starts, the line of an offset (0-based) and a line's text. */
const lines = (source: string) => {
  const starts = lineStarts(source)
  const lineOfOne = lineIndex(source, starts)
  const lineOf = (offset: number): number => lineOfOne(offset) - 1
  const lineAt = (line: number): string => source.slice(starts[line]!, line + 1 < starts.length ? starts[line + 1]! - 1 : source.length)
  return { starts, lineOf, lineAt }
}

type Lines = ReturnType<typeof lines>

/** Moves `start` back to the start of its line when only indentation precedes it there, never below `floor`. */
const toLineStart = (source: string, start: number, floor: number): number => {
  let at = start
  while (at > floor && (source.charCodeAt(at - 1) === 32 || source.charCodeAt(at - 1) === 9)) at--
  return at === 0 || source.charCodeAt(at - 1) === 10 ? at : start
}

/** `start` moved up over the lines directly above it that `leading` accepts (no blank line between), never above `floor`. */
const leadingStart = (spec: LanguageSpec, text: Lines, start: number, floor: number): number => {
  let at = start
  for (let line = text.lineOf(start) - 1; line >= 0 && text.starts[line]! >= floor; line--) {
    if (!spec.leadingLine.test(text.lineAt(line))) break
    at = text.starts[line]!
  }
  return at
}

/**
 * Spans covering `items`: each attached comment or attribute joins the node after it when that node
 * is `joins` and starts the line below, and a node starting on the line another ends on joins that one.
 */
const spansOf = (
  spec: LanguageSpec,
  source: string,
  text: Lines,
  items: ReadonlyArray<Item>,
  floor: number,
  joins: (item: Item) => boolean
): Array<Span & { readonly item: Item; readonly attached: ReadonlyArray<Item> }> => {
  const out: Array<Span & { item: Item; attached: ReadonlyArray<Item> }> = []
  let pending: Array<Item> = []
  let last = floor
  const emit = (item: Item, start: number, attached: ReadonlyArray<Item>) => {
    const previous = out[out.length - 1]
    const sameLine = previous !== undefined && text.lineOf(previous.end) === text.lineOf(start) && !joins(item)
    if (sameLine) out[out.length - 1] = { ...previous, end: Math.max(previous.end, item.end) }
    else out.push({ start, end: item.end, item, attached })
    last = Math.max(last, item.end)
  }
  for (const item of items) {
    // Zero-width nodes (a missing token the parser inserted) cover nothing.
    if (item.end <= item.start) continue
    if (isAttached(item.node)) {
      pending.push(item)
      continue
    }
    if (joins(item)) {
      let start = leadingStart(spec, text, item.start, last)
      // A comment the climb stopped inside (a block comment with a line `leadingLine` does not
      // take) stays whole before the declaration: the declaration starts on the line after it.
      for (const comment of pending) {
        if (comment.start < start && comment.end > start) start = Math.min(item.start, text.starts[text.lineOf(comment.end) + 1] ?? item.start)
      }
      const attached = pending.filter((comment) => comment.start >= start)
      for (const comment of pending) if (comment.start < start) emit(comment, toLineStart(source, comment.start, last), [])
      pending = []
      const from = toLineStart(source, Math.min(start, ...attached.map((comment) => comment.start)), last)
      out.push({ start: from, end: item.end, item, attached })
      last = item.end
      continue
    }
    for (const comment of pending) emit(comment, toLineStart(source, comment.start, last), [])
    pending = []
    emit(item, toLineStart(source, item.start, last), [])
  }
  for (const comment of pending) emit(comment, toLineStart(source, comment.start, last), [])
  return out
}

/** The spans a large declaration splits between: its body's children, with the comments above each. */
const memberSpans = (spec: LanguageSpec, source: string, text: Lines, body: Node, floor: number): ReadonlyArray<Span> => {
  const items: Array<Item> = []
  for (let i = 0; i < body.childCount; i++) {
    const child = body.child(i)
    if (child !== null) items.push({ node: child, start: child.startIndex, end: child.endIndex })
  }
  const spans = spansOf(spec, source, text, items, floor, (item) => item.node.isNamed && !isAttached(item.node))
  // Spans out of order would break the packer's cover; such a declaration is split by lines instead.
  for (let i = 1; i < spans.length; i++) if (spans[i]!.start < spans[i - 1]!.end) return []
  return spans.map(({ start, end }) => ({ start, end }))
}

/** The first line (1-based) of an error or missing node, when the tree has one. */
const firstError = (root: Node): number | undefined => {
  if (!root.hasError) return undefined
  const cursor = root.walk()
  try {
    for (;;) {
      const node = cursor.currentNode
      if (node.isError || node.isMissing) return node.startPosition.row + 1
      if (node.hasError && cursor.gotoFirstChild()) continue
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return root.startPosition.row + 1
    }
  } finally {
    cursor.delete()
  }
}

/** The outline of a parsed file. */
export const outlineOf = (spec: LanguageSpec, source: string, tree: Tree): Outline => {
  const text = lines(source)
  const flat: Array<Item> = []
  flatten(spec, tree.rootNode, 0, flat)
  const described = new Map<number, ReturnType<LanguageSpec["describe"]>>()
  const items: Array<Item> = []
  for (const item of flat) {
    const found = !isAttached(item.node) && item.node.isNamed ? spec.describe(item.node) : undefined
    if (found !== undefined) described.set(item.node.id, found)
    if (found === undefined && !isAttached(item.node)) items.push(...withoutTrailingComments(item))
    else items.push(item)
  }
  const spans = spansOf(spec, source, text, items, 0, (item) => described.has(item.node.id))
  const declarations: Array<OutlineDeclaration> = []
  const imports: Array<OutlineImport> = []
  const units: Array<OutlineUnit> = []
  for (const span of spans) {
    const found = described.get(span.item.node.id)
    if (found === undefined) {
      units.push({ start: span.start, end: span.end, symbols: [], declaration: false })
      continue
    }
    const node = span.item.node
    const comments = span.attached.filter((item) => isComment(item.node)).map((item) => commentText(item.node.text)).filter((doc) => doc !== "")
    declarations.push({
      name: found.name,
      kind: found.kind,
      line: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1 - (node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? 1 : 0),
      exported: found.exported,
      doc: comments.length > 0 ? comments.join(" ") : found.doc
    })
    // Read now, not when a chunker asks: the tree is freed once the outline is made.
    const members = found.body === undefined || found.body === null ? undefined : memberSpans(spec, source, text, found.body, node.startIndex)
    units.push({
      start: span.start,
      end: span.end,
      symbols: [found.name],
      declaration: true,
      children: members === undefined ? undefined : () => members
    })
  }
  if (spec.imports !== undefined) {
    for (const item of items) {
      if (!item.node.isNamed || isAttached(item.node)) continue
      for (const written of spec.imports(item.node)) imports.push({ ...written, line: item.node.startPosition.row + 1 })
    }
  }
  return { declarations, imports, units, firstErrorLine: firstError(tree.rootNode) }
}
