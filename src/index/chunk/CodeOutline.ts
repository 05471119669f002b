/**
 * The top-level shape of a TypeScript or JavaScript file for chunking, on oxc-parser's lazy mode
 * (the AST stays native and only the nodes read here are built). Discovery's reader keeps only
 * names and start offsets; chunking needs each statement's full span, the comments that belong to
 * it and, for a declaration too large for one chunk, the spans of its body statements or members.
 * A file chunked alone is parsed in the default mode instead, for the reason OxcModule.ts gives;
 * the few types its ESTree names apart are read as the lazy tree's (`typeOf`).
 */
import * as Oxc from "oxc-parser"
import { lazyTypeOf, leftmost } from "../../discovery/OxcModule.ts"
import { MAX_PARSE_DEPTH, mayHoldJsx, parseDepth } from "../../source/ParseDepth.ts"
import type { Unit } from "./Packer.ts"
import type { Span } from "./TextSplit.ts"

/** A top-level stretch of code: a declaration with its symbols, or module code (imports, statements). */
export interface CodeUnit extends Unit {
  readonly symbols: ReadonlyArray<string>
  readonly declaration: boolean
}

/** Lines a non-exported variable may span and still count as module code rather than a declaration. */
export const MODULE_VARIABLE_LINES = 5

/**
 * Lines an exported variable that holds no function may span and still count as module code: a
 * one-line constant (`export const LIMIT = 200`) alone is a chunk too small to be found, while the
 * module chunk, which holds the file's doc comment, is the one a question about the file reaches.
 */
export const MODULE_CONSTANT_LINES = 1

// Loose views of lazy nodes: every field is a getter that may be absent for another node type.
interface Node {
  readonly type?: string
  readonly start?: number
  readonly end?: number
  readonly [key: string]: unknown
}
interface ParseResult {
  readonly program: { readonly body: Iterable<Node> }
  readonly comments: Iterable<{ readonly start: number; readonly end: number }>
  readonly errors: Iterable<{ readonly severity?: string }>
}
interface LazyResult extends ParseResult {
  readonly dispose: () => void
}

const child = (node: Node | undefined, key: string): Node | undefined => {
  const value = node?.[key]
  return typeof value === "object" && value !== null ? (value as Node) : undefined
}

// ESTree keeps a `"use strict"` directive among the statements, where the lazy tree keeps it apart;
// a hole in an array literal is null in ESTree and an `Elision` node in the lazy tree. Neither is a part.
const isPart = (node: Node): boolean =>
  node.type !== "Elision" && !(node.type === "ExpressionStatement" && typeof node["directive"] === "string")

const list = (node: Node | undefined, key: string): Array<Node> => {
  const value = node?.[key]
  if (typeof value !== "object" || value === null || !(Symbol.iterator in value)) return []
  return Array.from(value as Iterable<Node | null>).filter((item): item is Node => item !== null && item !== undefined && isPart(item))
}

/** A node's type as the lazy tree names it: ESTree, from the default mode, spells a few apart. */
const typeOf = lazyTypeOf

const spanOf = (node: Node): Span => ({ start: node.start ?? 0, end: node.end ?? node.start ?? 0 })

/** Names a binding pattern binds, in order. */
const bindingNames = (node: Node | undefined): Array<string> => {
  if (node === undefined) return []
  switch (typeOf(node)) {
    case "BindingIdentifier":
    case "Identifier":
      return typeof node["name"] === "string" ? [node["name"]] : []
    // The lazy tree does not expose a pattern's rest element, so ESTree's is passed over too: both
    // modes must give a file the same symbols, which its chunk ids are made of.
    case "ObjectPattern":
      return list(node, "properties").filter((property) => property.type !== "RestElement").flatMap((property) => bindingNames(child(property, "value")))
    case "ArrayPattern":
      return list(node, "elements").filter((element) => element.type !== "RestElement").flatMap(bindingNames)
    case "AssignmentPattern":
      return bindingNames(child(node, "left"))
    case "RestElement":
    case "BindingRestElement":
      return bindingNames(child(node, "argument"))
    default:
      return []
  }
}

const FUNCTION_LIKE = new Set(["ArrowFunctionExpression", "FunctionExpression", "ClassExpression"])
const NAMED_DECLARATIONS = new Set([
  "FunctionDeclaration",
  "TSDeclareFunction",
  "ClassDeclaration",
  "TSInterfaceDeclaration",
  "TSTypeAliasDeclaration",
  "TSEnumDeclaration",
  "TSNamespaceDeclaration",
  "TSModuleDeclaration",
  "TSExternalModuleDeclaration"
])

const nameOf = (node: Node): string | undefined => {
  const found = child(node, "id")
  const id = found === undefined ? undefined : leftmost(found)
  const name = id?.["name"] ?? id?.["value"]
  return typeof name === "string" ? name : undefined
}

/** The expression wrapped by casts and parentheses. */
const unwrap = (node: Node | undefined): Node | undefined =>
  node !== undefined && ["TSAsExpression", "TSSatisfiesExpression", "ParenthesizedExpression", "TSNonNullExpression"].includes(typeOf(node))
    ? unwrap(child(node, "expression"))
    : node

/**
 * The parts a large node splits along: a function's body statements, a class's or interface's
 * members, an object's properties, an array's elements, the members of a type literal; through
 * calls (`Effect.fn(...)(function*() {...})`) the largest argument is followed.
 */
const partsOf = (start: Node | undefined): Array<Node> => {
  const node = unwrap(start)
  switch (typeOf(node)) {
    case "FunctionDeclaration":
    case "FunctionExpression":
    case "ArrowFunctionExpression": {
      const body = child(node, "body")
      // ESTree calls a function's body a block statement.
      return body?.type === "FunctionBody" || body?.type === "BlockStatement" ? list(body, "body") : partsOf(body)
    }
    case "TSNamespaceDeclaration":
    case "TSModuleDeclaration":
      // The lazy tree holds `namespace A.B {}` as A holding B, no block of statements: no parts.
      // ESTree names it `A.B` over the block; read alike.
      return child(node, "id")?.type === "TSQualifiedName" ? [] : list(child(node, "body"), "body")
    case "ClassDeclaration":
    case "ClassExpression":
    case "TSInterfaceDeclaration":
      return list(child(node, "body"), "body")
    case "TSEnumDeclaration":
      return list(child(node, "body"), "members")
    case "TSTypeAliasDeclaration":
      return partsOf(child(node, "typeAnnotation"))
    case "TSTypeLiteral":
      return list(node, "members")
    case "TSUnionType":
    case "TSIntersectionType":
      return list(node, "types")
    case "ObjectExpression":
      return list(node, "properties")
    case "ArrayExpression":
      return list(node, "elements")
    case "CallExpression":
    case "NewExpression": {
      const largest = list(node, "arguments").reduce<Node | undefined>(
        (best, argument) => best === undefined || (argument.end ?? 0) - (argument.start ?? 0) > (best.end ?? 0) - (best.start ?? 0) ? argument : best,
        undefined
      )
      const inner = partsOf(largest)
      return inner.length > 0 ? inner : partsOf(child(node, "callee"))
    }
    case "VariableDeclaration": {
      const declarators = list(node, "declarations")
      return declarators.length > 1 ? declarators : partsOf(child(declarators[0], "init"))
    }
    case "ExportDeclaration":
    case "ExportDefaultDeclaration":
      return partsOf(child(node, "declaration"))
    default:
      return []
  }
}

interface Described {
  readonly symbols: ReadonlyArray<string>
  readonly declaration: boolean
}

const lineCount = (source: string, span: Span): number => {
  let lines = 1
  for (let i = span.start; i < span.end; i++) if (source.charCodeAt(i) === 10) lines++
  return lines
}

/** What a top-level statement declares, and whether it is a declaration chunk or module code. */
const describe = (statement: Node, source: string): Described => {
  const type = typeOf(statement)
  if (type === "ExportDefaultDeclaration") {
    const inner = child(statement, "declaration")
    return { symbols: [(inner && nameOf(inner)) ?? "default"], declaration: true }
  }
  const exported = type === "ExportDeclaration"
  const node = exported ? child(statement, "declaration") : statement
  if (node === undefined) return { symbols: [], declaration: false }
  if (NAMED_DECLARATIONS.has(typeOf(node))) return { symbols: [nameOf(node) ?? "default"], declaration: true }
  if (typeOf(node) === "VariableDeclaration") {
    const declarators = list(node, "declarations")
    const symbols = declarators.flatMap((declarator) => bindingNames(child(declarator, "id")))
    const functionLike = declarators.some((declarator) => FUNCTION_LIKE.has(typeOf(unwrap(child(declarator, "init")))))
    const lines = lineCount(source, spanOf(statement))
    const declaration = functionLike || lines > (exported ? MODULE_CONSTANT_LINES : MODULE_VARIABLE_LINES)
    return { symbols, declaration }
  }
  return { symbols: [], declaration: false }
}

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 13 || code === 11 || code === 12

/** Moves a start back over indentation to the start of its line, when only indentation precedes it. */
const toLineStart = (source: string, offset: number): number => {
  let at = offset
  while (at > 0 && isSpace(source.charCodeAt(at - 1))) at--
  return at === 0 || source.charCodeAt(at - 1) === 10 ? at : offset
}

/** Comments, sorted, and the attachment rules: a comment on the lines right above a node is its doc. */
const commentIndex = (source: string, comments: ReadonlyArray<Span>) => {
  // Index of the first comment ending after `offset`.
  const firstAfter = (offset: number): number => {
    let low = 0
    let high = comments.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (comments[middle]!.end <= offset) low = middle + 1
      else high = middle
    }
    return low
  }
  /** `start` moved back over the comments directly above it (no blank line between), not before `floor`. */
  const leading = (start: number, floor: number): number => {
    let at = start
    for (let i = firstAfter(start) - 1; i >= 0; i--) {
      const comment = comments[i]!
      if (comment.start < floor) break
      const between = source.slice(comment.end, at)
      if (!/^\s*$/.test(between) || (between.match(/\n/g)?.length ?? 0) > 1) break
      at = comment.start
    }
    return at
  }
  /** `end` moved past a comment that starts later on the same line. */
  const trailing = (end: number, ceiling: number): number => {
    const next = comments[firstAfter(end)]
    if (next === undefined || next.start < end || next.end > ceiling) return end
    return /^[ \t]*$/.test(source.slice(end, next.start)) ? next.end : end
  }
  return { leading, trailing, firstAfter }
}

/** Spans of a node's parts, each with the comments above it and its indentation. */
const partSpans = (source: string, parts: ReadonlyArray<Node>, comments: ReturnType<typeof commentIndex>): Array<Unit> => {
  const out: Array<Unit> = []
  let floor = 0
  for (const part of parts) {
    const span = spanOf(part)
    // Parts out of order or overlapping would break the packer's cover; such a node is split by lines instead.
    if (span.start < floor || span.end <= span.start) return []
    const start = toLineStart(source, comments.leading(span.start, floor))
    out.push({ start: Math.max(start, floor), end: span.end })
    floor = span.end
  }
  return out
}

/**
 * Calls `use` with the file's top-level units in source order, while the parse is alive (the lazy
 * AST is freed afterwards). Undefined when the file does not parse or nests too deep to parse
 * safely; the caller then falls back to line windows. `alone`: the file is one of a few, parsed in
 * the default mode (the same units).
 */
export const withOutline = <A>(path: string, source: string, use: (units: ReadonlyArray<CodeUnit>) => A, alone = false): A | undefined => {
  if (parseDepth(source, mayHoldJsx(path)) > MAX_PARSE_DEPTH) return undefined
  if (alone) return outlineOf(Oxc.parseSync(path, source, { sourceType: "unambiguous" }) as unknown as ParseResult, source, use)
  const options = { experimentalLazy: true, sourceType: "unambiguous" } as unknown as Parameters<typeof Oxc.parseSync>[2]
  const result = Oxc.parseSync(path, source, options) as unknown as LazyResult
  try {
    return outlineOf(result, source, use)
  } finally {
    result.dispose()
  }
}

const outlineOf = <A>(result: ParseResult, source: string, use: (units: ReadonlyArray<CodeUnit>) => A): A | undefined => {
  if (Array.from(result.errors).some((error) => error.severity === undefined || error.severity === "Error")) return undefined
  // ESTree counts a `#!` line as a comment; the lazy tree does not.
  const all = Array.from(result.comments, (comment) => ({ start: comment.start, end: comment.end }))
    .filter((comment) => comment.start > 0 || !source.startsWith("#!"))
  const comments = commentIndex(source, all)
  const units: Array<CodeUnit> = []
  let floor = 0
  // Comments between the previous unit and `limit` that no statement claimed are module text of their own.
  const looseComments = (limit: number) => {
    for (let c = comments.firstAfter(floor); c < all.length && all[c]!.end <= limit; c++) {
      units.push({ start: toLineStart(source, all[c]!.start), end: all[c]!.end, symbols: [], declaration: false })
    }
  }
  const statements = list(result.program as unknown as Node, "body")
  statements.forEach((statement, i) => {
    const span = spanOf(statement)
    const described = describe(statement, source)
    const start = toLineStart(source, described.declaration ? comments.leading(span.start, floor) : span.start)
    const end = comments.trailing(span.end, statements[i + 1]?.start ?? source.length)
    looseComments(start)
    units.push({
      start,
      end,
      symbols: described.symbols,
      declaration: described.declaration,
      children: () => partSpans(source, partsOf(statement), comments)
    })
    floor = end
  })
  looseComments(source.length)
  return use(units)
}
