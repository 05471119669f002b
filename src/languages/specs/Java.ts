/** Java: classes, interfaces, enums, records and annotation types; imports resolved by package path. */
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { describeByType, hasWord } from "../LanguageSpec.ts"
import { resolveJvm } from "./JvmImports.ts"

const KINDS: Readonly<Record<string, Described["kind"]>> = {
  class_declaration: "class",
  record_declaration: "class",
  interface_declaration: "interface",
  annotation_type_declaration: "interface",
  enum_declaration: "enum"
}

const describe = describeByType(KINDS, (node) => hasWord(node, ["public"]))

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "import_declaration") return []
  const path = node.namedChildren.find((child) => child?.type === "scoped_identifier" || child?.type === "identifier")?.text
  if (path === undefined) return []
  return [{ specifier: node.namedChildren.some((child) => child?.type === "asterisk") ? `${path}.*` : path, kind: "imports" }]
}

export const Java: LanguageSpec = {
  id: "java",
  name: "Java",
  extensions: [".java"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm",
  leadingLine: /^\s*(\/\/|\/\*|\*|@)/,
  describe,
  imports,
  resolve: resolveJvm,
  external: () => true,
  rankedRelations: []
}
