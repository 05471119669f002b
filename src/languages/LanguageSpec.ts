/**
 * What cairn knows of one programming language parsed with tree-sitter: the files that are written in
 * it, its grammar, and how its syntax tree reads as an outline (declarations with kind, name and
 * exported-ness, the nodes a large one splits between), as imports, and which of its relations may
 * move a ranking. Plain data and functions over the tree: loading a spec loads no parser.
 */
import type { Node } from "web-tree-sitter"
import type { DeclarationKind } from "../domain/Snapshot.ts"

export type { Node }

/** How an import is written: a language's import statement, or a run-time load of a file (`require_relative`, `source`). */
export type ImportKind = "imports" | "requires"

/** A top-level node read as a declaration. */
export interface Described {
  readonly kind: DeclarationKind
  readonly name: string
  readonly exported: boolean
  /** The node whose children a declaration too large for one chunk splits between (a class body). */
  readonly body?: Node | null | undefined
  /** A doc comment the language writes inside the declaration (a Python docstring). */
  readonly doc?: string | undefined
}

/** An import as written, before it is resolved against the repository's files. */
export interface WrittenImport {
  readonly specifier: string
  readonly kind: ImportKind
}

/** The files a reference may resolve to, given every module path the scan holds. */
export interface ResolveContext {
  readonly modules: ReadonlySet<string>
  /** Module paths by their directory, each list in code-unit order. */
  readonly inDirectory: (directory: string) => ReadonlyArray<string>
  /** Module paths that are `suffix` or end with `/` and `suffix`, in code-unit order. */
  readonly endingWith: (suffix: string) => ReadonlyArray<string>
  /** Directories holding modules that are `suffix` or end with `/` and `suffix`, in code-unit order. */
  readonly directoriesEndingWith: (suffix: string) => ReadonlyArray<string>
  /** Packages a manifest declares (a `go.mod`'s module path), with the directory they are rooted at. */
  readonly packages: ReadonlyArray<{ readonly name: string; readonly directory: string }>
}

export interface LanguageSpec {
  /** The analyzer id and the module language in the snapshot. */
  readonly id: string
  /** As people write it, for docs and coverage notes. */
  readonly name: string
  /** Lower-case extensions with their dot. */
  readonly extensions: ReadonlyArray<string>
  /**
   * The grammar: a packaged WebAssembly file, as a module specifier. Built for tree-sitter's ABI 14
   * or 15 and loaded by `web-tree-sitter` 0.25 (see Grammars.ts for the builds chosen).
   */
  readonly grammar: string
  /**
   * A line that belongs to the declaration below it when nothing but such lines lie between: a
   * comment, an attribute, a decorator or an annotation.
   */
  readonly leadingLine: RegExp
  /** The node as a declaration, or undefined for module code. */
  readonly describe: (node: Node) => Described | undefined
  /**
   * For a node whose members are read as top-level ones (a namespace, a header guard, a Ruby
   * module), the node holding them: its children are outlined in place of the node.
   */
  readonly container?: ((node: Node) => Node | undefined) | undefined
  /** The imports a top-level node writes. */
  readonly imports?: ((node: Node) => ReadonlyArray<WrittenImport>) | undefined
  /**
   * The files an import of `from` names, most likely first; empty when none in the scan (then the
   * reference is external or unresolved, see `external`).
   */
  readonly resolve?: ((from: string, specifier: string, context: ResolveContext) => ReadonlyArray<string>) | undefined
  /** Whether an unresolved specifier names a package outside the repository (`os`, `fmt`), rather than a missing file. */
  readonly external?: ((specifier: string) => boolean) | undefined
  /** Which relations of this language's files may move a ranking (the rest are kept, shown, never scored). */
  readonly rankedRelations: ReadonlyArray<ImportKind>
}

/**
 * A `describe` for a language whose declarations are node types with a `name` and a `body` field:
 * the kind by the node's type, exported when `exported` says so.
 */
export const describeByType = (kinds: Readonly<Record<string, Described["kind"]>>, exported: (node: Node) => boolean) => (node: Node): Described | undefined => {
  const kind = kinds[node.type]
  const name = node.childForFieldName("name")?.text
  if (kind === undefined || name === undefined) return undefined
  return { kind, name, exported: exported(node), body: node.childForFieldName("body") }
}

/** The first named child of one of `types`, or undefined. */
export const childOfType = (node: Node, types: ReadonlyArray<string>): Node | undefined => {
  for (const child of node.namedChildren) if (child !== null && types.includes(child.type)) return child
  return undefined
}

/** The node's field `name`'s text, or the first named child of one of `types`. */
export const nameOf = (node: Node, types: ReadonlyArray<string> = []): string | undefined =>
  node.childForFieldName("name")?.text ?? childOfType(node, types)?.text

/** Whether any child token or modifier node of `node` reads as one of `words`. */
export const hasWord = (node: Node, words: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (child === null) continue
    if (words.includes(child.text)) return true
    if (/modifier/.test(child.type) && child.childCount > 0 && words.some((word) => new RegExp(`\\b${word}\\b`).test(child.text))) return true
  }
  return false
}

/** A node's `body` field, or the last named child of one of `types`. */
export const bodyOf = (node: Node, types: ReadonlyArray<string> = []): Node | undefined =>
  node.childForFieldName("body") ?? node.namedChildren.filter((child): child is Node => child !== null && types.includes(child.type)).at(-1)

/** The first anonymous child token of `node` that is one of `words` (`class`, `struct`). */
export const keywordOf = (node: Node, words: ReadonlyArray<string>): string | undefined => {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (child !== null && !child.isNamed && words.includes(child.type)) return child.type
  }
  return undefined
}

/** A string literal's text without its quotes. */
export const unquoted = (text: string): string => text.replace(/^[rbuf]*(["'`]{1,3})([\s\S]*)\1$/i, "$2")
