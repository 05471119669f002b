/**
 * C#: classes, structs, records, interfaces, enums and delegates, read inside namespaces as at the
 * top; `using` names a namespace, not a file, so it is kept and not resolved.
 */
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { describeByType, hasWord } from "../LanguageSpec.ts"

const KINDS: Readonly<Record<string, Described["kind"]>> = {
  class_declaration: "class",
  record_declaration: "class",
  struct_declaration: "struct",
  record_struct_declaration: "struct",
  interface_declaration: "interface",
  enum_declaration: "enum",
  delegate_declaration: "type"
}

const describe = describeByType(KINDS, (node) => hasWord(node, ["public"]))

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "using_directive") return []
  const name = node.namedChildren.filter((child) => child !== null && child.type !== "name_equals").at(-1)?.text
  return name === undefined ? [] : [{ specifier: name, kind: "imports" }]
}

export const CSharp: LanguageSpec = {
  id: "csharp",
  name: "C#",
  extensions: [".cs"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm",
  leadingLine: /^\s*(\/\/|\/\*|\*|\[)/,
  describe,
  container: (node) => node.type === "namespace_declaration" ? node.childForFieldName("body") ?? undefined : undefined,
  imports,
  external: () => true,
  rankedRelations: []
}
