/**
 * The one place that talks to oxc-parser, in two modes that read the same facts.
 *
 * Lazy raw transfer (`parseModule`) keeps the AST in a native buffer and materialises only the
 * nodes read here: the module record (static imports, exports, dynamic imports), the top-level
 * statements, and call expressions when the text mentions `require` or imports a value binding. Measured on 1,475 real
 * files, that is about 6x faster than the default `parseSync`, which serialises the whole tree.
 *
 * But its buffer is a 6 GiB `ArrayBuffer`, and allocating one makes V8 run a full, compacting
 * collection for the external memory: 80 ms on the heap of a refresh that holds a large
 * repository's scan cache, for a file that parses in under 1 ms. A few files analysed alone go
 * through `parseModuleAlone`, the default mode, which allocates nothing outside the heap.
 *
 * The lazy mode is typed loosely by the package, so the shapes read here are declared below and
 * every access is guarded. Offsets are UTF-16 indices into the source text in both modes.
 */
import * as Oxc from "oxc-parser"
import type { DeclarationKind } from "../domain/Snapshot.ts"
import { detached } from "../source/Detached.ts"

export interface ParsedImport {
  readonly specifier: string
  readonly offset: number
  /** Every binding is a type (`import type`, or only `type` specifiers). */
  readonly typeOnly: boolean
}

export interface ParsedExport {
  /** The exported name; `default` for a default export; null for `export *`. */
  readonly name: string | null
  readonly offset: number
  /** The local binding it exports, when it exports one. */
  readonly local: string | null
  /** The module it re-exports from, for `export … from`. */
  readonly from: string | null
  /** For `export … from`: the name it has in that module (`*` for `export * as ns`). */
  readonly imported: string | null
  readonly typeOnly: boolean
}

/** A dynamic load (`import()`, `require()`): the target when it is a literal, else the source text. */
export interface ParsedLoad {
  readonly kind: "imports-dynamic" | "requires" | "imports"
  readonly offset: number
  readonly literal: string | null
  readonly text: string
}

/**
 * A call (or `new`) of an imported binding: `f()` of `import { f }`, `ns.f()` of `import * as ns`,
 * `Cls.m()` of `import { Cls }`. Resolved by name alone: a local that shadows the import is not seen.
 */
export interface ParsedCall {
  readonly specifier: string
  /** The export called: a name, `default`, or `Name.member` for a member of an imported binding. */
  readonly symbol: string
  readonly offset: number
}

export interface ParsedDeclaration {
  readonly name: string
  readonly kind: DeclarationKind
  readonly offset: number
}

export interface ParsedModule {
  readonly errors: ReadonlyArray<{ readonly message: string; readonly offset: number }>
  readonly imports: ReadonlyArray<ParsedImport>
  readonly exports: ReadonlyArray<ParsedExport>
  readonly loads: ReadonlyArray<ParsedLoad>
  readonly declarations: ReadonlyArray<ParsedDeclaration>
  /** In source order, a call holding another before it. */
  readonly calls: ReadonlyArray<ParsedCall>
  /** Names bound by import statements, to tell a re-exported binding from a declared one. */
  readonly importedNames: ReadonlySet<string>
  /** Value bindings of import statements: local name to the specifier and the name imported. */
  readonly bindings: ReadonlyMap<string, { readonly specifier: string; readonly imported: string }>
}

// Loose views of the lazy nodes: fields are getters that may be absent for other node types.
interface Node {
  readonly type?: string
  readonly start?: number
  readonly [key: string]: unknown
}
interface NameSpan {
  readonly value?: string
  readonly start?: number
}
interface LazyResult {
  readonly program: { readonly body: Iterable<Node> }
  readonly module: {
    readonly staticImports: Iterable<{
      readonly start: number
      readonly moduleRequest: NameSpan
      readonly entries: Iterable<{ readonly isType: boolean; readonly localName: NameSpan; readonly importName: unknown }>
    }>
    readonly staticExports: Iterable<{
      readonly entries: Iterable<{
        readonly start: number
        readonly moduleRequest: NameSpan | null
        readonly importName: unknown
        readonly exportName: unknown
        readonly localName: unknown
        readonly isType: boolean
      }>
    }>
    readonly dynamicImports: Iterable<{ readonly start: number; readonly moduleRequest: { start: number; end: number } }>
  }
  readonly errors: Iterable<{ readonly message: string; readonly severity?: string; readonly labels?: Iterable<{ start: number }> }>
  readonly visit: (visitor: unknown) => void
  readonly dispose: () => void
}

interface LazyExtras {
  readonly experimentalGetLazyVisitor: () => new(handlers: Record<string, (node: Node) => void>) => unknown
}

// Names and texts are cut from the source: detached, so what keeps them does not keep the file.
const nameOf = (value: unknown): string | undefined => {
  const name = typeof value === "object" && value !== null ? (value as NameSpan).value : undefined
  return typeof name === "string" ? detached(name) : undefined
}

// A lazy `Span` (no value) in the export-name slot is the `default` export.
const isSpan = (value: unknown): boolean => typeof value === "object" && value !== null

/** A string or template literal without substitutions, as written in the source. */
export const literalOf = (text: string): string | null => {
  const match = /^(['"`])([^'"`\\]*)\1$/.exec(text.trim())
  if (match === null) return null
  const [, quote, body] = match
  return quote === "`" && body!.includes("${") ? null : body!
}

const DECLARATION_KINDS: Readonly<Record<string, DeclarationKind>> = {
  FunctionDeclaration: "function",
  TSDeclareFunction: "function",
  ClassDeclaration: "class",
  TSInterfaceDeclaration: "interface",
  TSTypeAliasDeclaration: "type",
  TSEnumDeclaration: "enum",
  TSNamespaceDeclaration: "namespace"
}

/**
 * How a mode's tree spells what is read here. Statement types are given in the lazy mode's
 * vocabulary (oxc's own AST); the default mode serialises ESTree, which names some apart.
 */
interface Dialect {
  readonly typeOf: (node: Node) => string
  /** The name a declaration's `id` binds, when it binds a plain one. */
  readonly boundName: (id: Node | null | undefined) => string | undefined
  /** An export entry's exported name: a name, `default`, or null for `export *`. */
  readonly exportedName: (value: unknown) => string | null
  readonly localName: (value: unknown) => string | null
  /** An import entry's imported name: a name, `default`, or `*` for a namespace. */
  readonly importedName: (value: unknown) => string
  /** Calls `onCall` with every call and `new` expression of the tree, in source order. */
  readonly calls: (onCall: (node: Node) => void) => void
  /** The node type of a reference to a name, such as the callee `require`. */
  readonly reference: string
  /** `a.b` with a plain name on the left, as `[a, b]`; anything else undefined. */
  readonly staticMember: (node: Node) => readonly [string, string] | undefined
}

const declarationsOf = (node: Node, out: Array<ParsedDeclaration>, dialect: Dialect): void => {
  const type = dialect.typeOf(node)
  if (type === "VariableDeclaration") {
    for (const declarator of (node["declarations"] as Iterable<Node> | undefined) ?? []) {
      const name = dialect.boundName(declarator["id"] as Node | undefined)
      if (name !== undefined) out.push({ name, kind: "variable", offset: declarator.start ?? node.start ?? 0 })
    }
    return
  }
  const kind = DECLARATION_KINDS[type]
  if (kind === undefined) return
  const name = dialect.boundName(node["id"] as Node | null | undefined)
  if (name === undefined) return
  // Overload signatures precede the implementation; one declaration per name and kind is enough.
  if (out.some((d) => d.name === name && d.kind === kind)) return
  out.push({ name, kind, offset: node.start ?? 0 })
}

/** What an import binds to: the specifier and the export's name, for value bindings only. */
type Bindings = Map<string, { readonly specifier: string; readonly imported: string }>

/** The calls of imported bindings, and, when `withRequire`, every `require(…)` as a load. */
const readCalls = (dialect: Dialect, source: string, bindings: Bindings, withRequire: boolean, loads: Array<ParsedLoad>): Array<ParsedCall> => {
  const calls: Array<ParsedCall> = []
  dialect.calls((node) => {
    const callee = node["callee"] as Node | undefined
    if (callee === undefined) return
    const offset = node.start ?? 0
    if (callee.type === dialect.reference) {
      const name = callee["name"] as string
      const bound = bindings.get(name)
      if (bound !== undefined && bound.imported !== "*") calls.push({ specifier: bound.specifier, symbol: bound.imported, offset })
      if (!withRequire || name !== "require" || node.type !== "CallExpression") return
      const first = Array.from((node["arguments"] as Iterable<Node> | undefined) ?? [])[0]
      if (first === undefined) return
      const text = detached(source.slice(first.start ?? 0, (first["end"] as number | undefined) ?? 0))
      loads.push({ kind: "requires", offset, literal: literalOf(text), text })
      return
    }
    const member = dialect.staticMember(callee)
    const bound = member === undefined ? undefined : bindings.get(member[0])
    if (bound === undefined) return
    const symbol = bound.imported === "*" ? member![1] : `${bound.imported}.${member![1]}`
    calls.push({ specifier: bound.specifier, symbol: detached(symbol), offset })
  })
  return calls
}

/** The facts of a parsed file, read through `dialect`. */
const readModule = (result: LazyResult, source: string, dialect: Dialect): ParsedModule => {
  const errors = Array.from(result.errors)
    .filter((error) => error.severity === undefined || error.severity === "Error")
    .map((error) => ({ message: error.message, offset: Array.from(error.labels ?? [])[0]?.start ?? 0 }))
  if (errors.length > 0) {
    return { errors, imports: [], exports: [], loads: [], declarations: [], calls: [], importedNames: new Set(), bindings: new Map() }
  }
  const imports: Array<ParsedImport> = []
  const importedNames = new Set<string>()
  const bindings: Bindings = new Map()
  for (const statement of result.module.staticImports) {
    const entries = Array.from(statement.entries)
    const specifier = detached(statement.moduleRequest.value ?? "")
    for (const entry of entries) {
      const local = nameOf(entry.localName)
      if (local === undefined) continue
      importedNames.add(local)
      if (!entry.isType) bindings.set(local, { specifier, imported: dialect.importedName(entry.importName) })
    }
    imports.push({
      specifier,
      offset: statement.start,
      typeOnly: entries.length > 0 && entries.every((entry) => entry.isType)
    })
  }
  const exports: Array<ParsedExport> = []
  for (const statement of result.module.staticExports) {
    for (const entry of statement.entries) {
      exports.push({
        name: dialect.exportedName(entry.exportName),
        offset: entry.start,
        local: dialect.localName(entry.localName),
        from: entry.moduleRequest === null ? null : (nameOf(entry.moduleRequest) ?? null),
        imported: entry.moduleRequest === null ? null : dialect.importedName(entry.importName),
        typeOnly: entry.isType
      })
    }
  }
  const loads: Array<ParsedLoad> = []
  for (const load of result.module.dynamicImports) {
    const text = detached(source.slice(load.moduleRequest.start, load.moduleRequest.end))
    loads.push({ kind: "imports-dynamic", offset: load.start, literal: literalOf(text), text })
  }
  const declarations: Array<ParsedDeclaration> = []
  for (const statement of result.program.body) {
    const type = dialect.typeOf(statement)
    if (type === "ExportDeclaration" || type === "ExportDefaultDeclaration") {
      const inner = statement["declaration"] as Node | null | undefined
      if (inner) declarationsOf(inner, declarations, dialect)
    } else if (type === "TSImportEqualsDeclaration") {
      // `import x = require("y")`: a static import in TypeScript's CommonJS spelling.
      const reference = statement["moduleReference"] as Node | undefined
      const expression = reference?.type === "TSExternalModuleReference" ? (reference["expression"] as Node) : undefined
      const value = expression === undefined ? undefined : nameOf(expression)
      if (value !== undefined) loads.push({ kind: "imports", offset: statement.start ?? 0, literal: value, text: value })
    } else {
      declarationsOf(statement, declarations, dialect)
    }
  }
  const withRequire = source.includes("require")
  const calls = withRequire || bindings.size > 0 ? readCalls(dialect, source, bindings, withRequire, loads) : []
  return { errors, imports, exports, loads, declarations, calls, importedNames, bindings }
}

const lazyDialect = (result: LazyResult): Dialect => ({
  typeOf: (node) => node.type ?? "",
  boundName: (id) => (id?.type === "BindingIdentifier" ? detached(id["name"] as string) : undefined),
  exportedName: (value) => nameOf(value) ?? (isSpan(value) ? "default" : null),
  localName: (value) => nameOf(value) ?? null,
  // A lazy `Span` (no value) is the default import; a namespace import is the string `namespaceObject`.
  importedName: (value) => nameOf(value) ?? (isSpan(value) ? "default" : "*"),
  calls: (onCall) => {
    const Visitor = (Oxc as unknown as LazyExtras).experimentalGetLazyVisitor()
    result.visit(new Visitor({ CallExpression: onCall, NewExpression: onCall }))
  },
  reference: "IdentifierReference",
  staticMember: (node) => {
    if (node.type !== "StaticMemberExpression") return undefined
    const object = node["object"] as Node | undefined
    const property = node["property"] as Node | undefined
    return object?.type === "IdentifierReference" && typeof property?.["name"] === "string"
      ? [object["name"] as string, property["name"] as string]
      : undefined
  }
})

/**
 * Parses one file. Never throws for syntax errors: they come back in `errors`. The lazy walker
 * recurses, and overflows the stack on an expression nested a few thousand deep without brackets
 * (a long chain of `+`); such a file is read as `parseModuleAlone` reads it, which does not.
 */
export const parseModule = (path: string, source: string): ParsedModule => {
  const options = { experimentalLazy: true, sourceType: "unambiguous" } as unknown as Parameters<typeof Oxc.parseSync>[2]
  const result = Oxc.parseSync(path, source, options) as unknown as LazyResult
  try {
    return readModule(result, source, lazyDialect(result))
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
  } finally {
    result.dispose()
  }
  return parseModuleAlone(path, source)
}

// The default mode's module record gives an export slot a kind (`Name`, `Default`, `None`) and a name.
interface KindName {
  readonly kind?: string
  readonly name?: string | null
}

const kindName = (value: unknown): KindName => (typeof value === "object" && value !== null ? (value as KindName) : {})

/** The leftmost name of `A.B.C`, which is what the lazy tree binds for `namespace A.B.C {}`. */
export const leftmost = <N extends Node>(node: N): N => (node.type === "TSQualifiedName" ? leftmost(node["left"] as N) : node)

/**
 * A node's type in the lazy tree's vocabulary, whichever mode's tree it comes from: ESTree spells
 * an export with a declaration and the three kinds of `module` apart, and a lazy type is its own.
 */
export const lazyTypeOf = (node: Node | undefined): string => {
  const type = node?.type ?? ""
  if (type === "ExportNamedDeclaration") return "ExportDeclaration"
  if (type !== "TSModuleDeclaration") return type
  const id = node!["id"] as Node | undefined
  return node!["kind"] === "global" ? "TSGlobalDeclaration" : id?.type === "Literal" ? "TSExternalModuleDeclaration" : "TSNamespaceDeclaration"
}

/**
 * Fields the lazy mode's walker does not visit (oxc-parser 0.159 skips a class's `extends` clause),
 * passed over here too, so both modes find the same calls: a `require` there is missed by both.
 */
const UNVISITED = new Set(["parent", "superClass", "superTypeArguments"])

/**
 * Every call and `new` expression under `root`, in source order (a parent before what it holds). With a stack
 * of its own rather than recursion: a file may nest up to `MAX_PARSE_DEPTH` levels, each several
 * nodes and arrays deep, and a chain of thousands of `+` is as deep.
 */
const eachCall = (root: unknown, onCall: (node: Node) => void): void => {
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const next = stack.pop()
    if (typeof next !== "object" || next === null) continue
    const children = Array.isArray(next) ? next : Object.entries(next).filter(([key]) => !UNVISITED.has(key)).map(([, value]) => value)
    const type = Array.isArray(next) ? undefined : (next as Node).type
    if (type === "CallExpression" || type === "NewExpression") onCall(next as Node)
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index])
  }
}

const estreeDialect = (program: unknown): Dialect => ({
  typeOf: lazyTypeOf,
  boundName: (id) => {
    const name = id === null || id === undefined ? undefined : leftmost(id)
    return name?.type === "Identifier" ? (name["name"] as string) : undefined
  },
  exportedName: (value) => {
    const { kind, name } = kindName(value)
    return kind === "Name" && typeof name === "string" ? name : kind === "Default" ? "default" : null
  },
  // `export default x` names its local binding under the `Default` kind.
  localName: (value) => kindName(value).name ?? null,
  importedName: (value) => {
    const { kind, name } = kindName(value)
    return kind === "Name" && typeof name === "string" ? name : kind === "Default" ? "default" : "*"
  },
  calls: (onCall) => eachCall(program, onCall),
  reference: "Identifier",
  staticMember: (node) => {
    if (node.type !== "MemberExpression" || node["computed"] === true) return undefined
    const object = node["object"] as Node | undefined
    const property = node["property"] as Node | undefined
    return object?.type === "Identifier" && property?.type === "Identifier"
      ? [object["name"] as string, property["name"] as string]
      : undefined
  }
})

/**
 * `parseModule` for a file analysed alone, on a thread whose heap may be large: the default mode,
 * which serialises the whole tree (slower per file) but allocates no buffer outside the heap.
 * The same facts, to the offset.
 */
export const parseModuleAlone = (path: string, source: string): ParsedModule => {
  const options = { sourceType: "unambiguous" } as Parameters<typeof Oxc.parseSync>[2]
  const result = Oxc.parseSync(path, source, options)
  return readModule(result as unknown as LazyResult, source, estreeDialect(result.program))
}
