/**
 * PHP: classes, interfaces, traits, enums and functions, read inside braced namespaces as at the top;
 * `require` and `include` of a literal path (or `__DIR__ . '/…'`) resolve to the file. A `use` names
 * a namespace, which maps to files only through an autoloader's configuration, so it is kept and not
 * resolved.
 */
import { dirname, join, normalize } from "../../source/Paths.ts"
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { describeByType, unquoted } from "../LanguageSpec.ts"

const KINDS: Readonly<Record<string, Described["kind"]>> = {
  class_declaration: "class",
  interface_declaration: "interface",
  trait_declaration: "trait",
  enum_declaration: "enum",
  function_definition: "function"
}

const describe = describeByType(KINDS, () => true)

const INCLUDES = new Set(["require_expression", "require_once_expression", "include_expression", "include_once_expression"])

/** The path an include names: a string literal, or one appended to `__DIR__`. */
const includedPath = (expression: Node): string | undefined => {
  const target = expression.namedChild(0)
  if (target === null) return undefined
  if (target.type === "string" || target.type === "encapsed_string") return unquoted(target.text)
  if (target.type === "binary_expression" && target.childForFieldName("left")?.text === "__DIR__") {
    const right = target.childForFieldName("right")
    if (right?.type === "string" || right?.type === "encapsed_string") return `.${unquoted(right.text)}`
  }
  return undefined
}

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type === "namespace_use_declaration") {
    return node.descendantsOfType("namespace_use_clause").flatMap((clause) => clause === null ? [] : [{ specifier: clause.text.replace(/\s+as\s+\w+$/, ""), kind: "imports" as const }])
  }
  const expression = node.type === "expression_statement" ? node.namedChild(0) : null
  if (expression === null || !INCLUDES.has(expression.type)) return []
  const path = includedPath(expression)
  return path === undefined ? [] : [{ specifier: path, kind: "requires" }]
}

const resolve: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  if (!specifier.endsWith(".php")) return []
  const path = normalize(join(dirname(from), specifier))
  return path !== undefined && context.modules.has(path) ? [path] : []
}

export const Php: LanguageSpec = {
  id: "php",
  name: "PHP",
  extensions: [".php"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm",
  leadingLine: /^\s*(\/\/|\/\*|\*|#)/,
  describe,
  container: (node) => node.type === "namespace_definition" ? node.childForFieldName("body") ?? undefined : undefined,
  imports,
  resolve,
  external: (specifier) => !specifier.endsWith(".php"),
  rankedRelations: []
}
