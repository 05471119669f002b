/**
 * Swift: classes, actors, structs, enums, protocols, extensions, functions, type aliases and
 * top-level `let`/`var`; `#if` blocks are read as at the top, since the grammar keeps their
 * directives as siblings. `import Module` names a module, not a file, so it is kept and not resolved.
 *
 * The grammar is `tree-sitter-wasms`' (tree-sitter-swift 0.4, ABI 13): the newer builds on npm read
 * more of today's Swift wrong, not less (docs/languages.md). Its lexer is the function V8's
 * optimising compiler runs out of memory on, so Grammars.ts loads it without tier-up.
 */
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { childOfType } from "../LanguageSpec.ts"

/** Internal, the default, is seen by every file of the module; only `private` and `fileprivate` keep a declaration in its file. */
const hidden = (node: Node): boolean => {
  const modifiers = childOfType(node, ["modifiers"])
  return modifiers !== undefined && modifiers.namedChildren.some((child) => child?.type === "visibility_modifier" && /^(private|fileprivate)$/.test(child.text))
}

const TYPE_KINDS: Readonly<Record<string, Described["kind"]>> = { class: "class", actor: "class", struct: "struct", enum: "enum" }

/** `extension Type`, with the protocols it adds when it names them (`extension Type: Codable`). */
const extensionName = (node: Node): string | undefined => {
  const type = node.childForFieldName("name")?.text
  if (type === undefined) return undefined
  const adopted = node.namedChildren.filter((child) => child?.type === "inheritance_specifier").map((child) => child!.text)
  return adopted.length === 0 ? `extension ${type}` : `extension ${type}: ${adopted.join(", ")}`
}

const describe = (node: Node): Described | undefined => {
  switch (node.type) {
    case "class_declaration": {
      const keyword = node.childForFieldName("declaration_kind")?.type
      const body = node.childForFieldName("body")
      if (keyword === "extension") {
        const name = extensionName(node)
        return name === undefined ? undefined : { kind: "impl", name, exported: !hidden(node), body }
      }
      const kind = keyword === undefined ? undefined : TYPE_KINDS[keyword]
      const name = node.childForFieldName("name")?.text
      return kind === undefined || name === undefined ? undefined : { kind, name, exported: !hidden(node), body }
    }
    case "protocol_declaration": {
      const name = node.childForFieldName("name")?.text
      return name === undefined ? undefined : { kind: "interface", name, exported: !hidden(node), body: node.childForFieldName("body") }
    }
    case "function_declaration": {
      const name = node.childForFieldName("name")?.text
      return name === undefined ? undefined : { kind: "function", name, exported: !hidden(node), body: node.childForFieldName("body") }
    }
    case "typealias_declaration": {
      const name = node.childForFieldName("name")?.text
      return name === undefined ? undefined : { kind: "type", name, exported: !hidden(node) }
    }
    case "property_declaration": {
      // `let a = 1, b = 2` and `let (a, b) = …` are named by their first binding.
      const name = node.childForFieldName("name")?.descendantsOfType("simple_identifier")[0]?.text
      return name === undefined ? undefined : { kind: "variable", name, exported: !hidden(node) }
    }
    default:
      return undefined
  }
}

/** `import Foundation`, `@testable import App`, `import struct Swift.Array`: the path as written. */
const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "import_declaration") return []
  const path = childOfType(node, ["identifier"])?.text
  return path === undefined ? [] : [{ specifier: path, kind: "imports" }]
}

export const Swift: LanguageSpec = {
  id: "swift",
  name: "Swift",
  extensions: [".swift"],
  grammar: "tree-sitter-wasms/out/tree-sitter-swift.wasm",
  leadingLine: /^\s*(\/\/|\/\*|\*|@)/,
  describe,
  imports,
  external: () => true,
  rankedRelations: []
}
