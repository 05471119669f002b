/**
 * Go: functions, methods, types, constants and variables; an import resolves to the files of its
 * package, found through the `go.mod` whose module path prefixes it.
 */
import { join } from "../../source/Paths.ts"
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { unquoted } from "../LanguageSpec.ts"

const exported = (name: string): boolean => /^\p{Lu}/u.test(name)

const specs = (node: Node, type: string): Array<Node> =>
  node.descendantsOfType(type).filter((spec): spec is Node => spec !== null && (spec.parent?.id === node.id || spec.parent?.parent?.id === node.id))

const describe = (node: Node): Described | undefined => {
  switch (node.type) {
    case "function_declaration":
    case "method_declaration": {
      const name = node.childForFieldName("name")?.text
      if (name === undefined) return undefined
      const receiver = node.type === "method_declaration"
        ? node.childForFieldName("receiver")?.descendantsOfType("type_identifier")[0]?.text
        : undefined
      return { kind: node.type === "method_declaration" ? "method" : "function", name: receiver === undefined ? name : `${receiver}.${name}`, exported: exported(name), body: node.childForFieldName("body") }
    }
    case "type_declaration": {
      const spec = specs(node, "type_spec")[0] ?? specs(node, "type_alias")[0]
      const name = spec?.childForFieldName("name")?.text
      if (spec === undefined || name === undefined) return undefined
      const type = spec.childForFieldName("type")?.type
      return { kind: type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : "type", name, exported: exported(name) }
    }
    case "const_declaration":
    case "var_declaration": {
      const spec = specs(node, node.type === "const_declaration" ? "const_spec" : "var_spec")[0]
      const name = spec?.childForFieldName("name")?.text
      return name === undefined ? undefined : { kind: "variable", name, exported: exported(name) }
    }
    default:
      return undefined
  }
}

const imports = (node: Node): ReadonlyArray<WrittenImport> =>
  node.type !== "import_declaration" ? [] : node.descendantsOfType("import_spec").flatMap((spec) => {
    const path = spec?.childForFieldName("path")?.text
    return path === undefined ? [] : [{ specifier: unquoted(path), kind: "imports" as const }]
  })

/** The non-test Go files of the package an import path names, through the module whose path prefixes it. */
const resolve: NonNullable<LanguageSpec["resolve"]> = (_from, specifier, context) => {
  const owner = context.packages
    .filter((module) => specifier === module.name || specifier.startsWith(`${module.name}/`))
    .sort((a, b) => b.name.length - a.name.length)[0]
  if (owner === undefined) return []
  const directory = join(owner.directory, specifier.slice(owner.name.length + 1))
  return context.inDirectory(directory).filter((path) => path.endsWith(".go") && !path.endsWith("_test.go"))
}

export const Go: LanguageSpec = {
  id: "go",
  name: "Go",
  extensions: [".go"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm",
  leadingLine: /^\s*\/\//,
  describe,
  imports,
  resolve,
  external: () => true,
  rankedRelations: []
}
