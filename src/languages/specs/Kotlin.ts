/** Kotlin: classes, interfaces, objects, functions, properties and type aliases; imports resolved by package path. */
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { bodyOf, childOfType, hasWord, keywordOf } from "../LanguageSpec.ts"
import { resolveJvm } from "./JvmImports.ts"

const hidden = (node: Node): boolean => hasWord(node, ["private", "internal"])

const describe = (node: Node): Described | undefined => {
  switch (node.type) {
    case "class_declaration":
    case "object_declaration": {
      const name = childOfType(node, ["type_identifier", "simple_identifier"])?.text
      if (name === undefined) return undefined
      const kind = node.type === "object_declaration" ? "class" : keywordOf(node, ["interface"]) !== undefined ? "interface" : hasWord(node, ["enum"]) ? "enum" : "class"
      return { kind, name, exported: !hidden(node), body: bodyOf(node, ["class_body", "enum_class_body"]) }
    }
    case "function_declaration": {
      const name = childOfType(node, ["simple_identifier"])?.text
      return name === undefined ? undefined : { kind: "function", name, exported: !hidden(node), body: bodyOf(node, ["function_body"]) }
    }
    case "property_declaration": {
      const name = node.descendantsOfType("simple_identifier")[0]?.text
      return name === undefined ? undefined : { kind: "variable", name, exported: !hidden(node) }
    }
    case "type_alias": {
      const name = childOfType(node, ["type_identifier"])?.text
      return name === undefined ? undefined : { kind: "type", name, exported: !hidden(node) }
    }
    default:
      return undefined
  }
}

const imports = (node: Node): ReadonlyArray<WrittenImport> =>
  node.type !== "import_list" && node.type !== "import_header" ? [] : node.descendantsOfType("import_header").flatMap((header) => {
    const path = header === null ? undefined : childOfType(header, ["identifier"])?.text
    if (header === null || path === undefined) return []
    return [{ specifier: header.namedChildren.some((child) => child?.type === "wildcard_import") ? `${path}.*` : path, kind: "imports" as const }]
  })

export const Kotlin: LanguageSpec = {
  id: "kotlin",
  name: "Kotlin",
  extensions: [".kt", ".kts"],
  grammar: "tree-sitter-wasms/out/tree-sitter-kotlin.wasm",
  leadingLine: /^\s*(\/\/|\/\*|\*|@)/,
  describe,
  imports,
  resolve: resolveJvm,
  external: () => true,
  rankedRelations: []
}
