/**
 * C++: C's declarations and classes, templates, read inside namespaces as at the top; `#include` of
 * project headers resolved. `.h` headers are read as C++, whose grammar also reads C.
 */
import type { Described, LanguageSpec, Node } from "../LanguageSpec.ts"
import { C_LEADING, containerC, describeC, includes, resolveInclude } from "./CFamily.ts"

const describe = (node: Node): Described | undefined => {
  if (node.type === "template_declaration") {
    const inner = node.namedChildren.filter((child): child is Node => child !== null && child.type !== "template_parameter_list").at(-1)
    return inner === undefined ? undefined : describe(inner)
  }
  if (node.type === "class_specifier") {
    const name = node.childForFieldName("name")?.text
    if (name === undefined || node.childForFieldName("body") === null) return undefined
    return { kind: "class", name, exported: true, body: node.childForFieldName("body") }
  }
  return describeC(node)
}

export const Cpp: LanguageSpec = {
  id: "cpp",
  name: "C++",
  extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp", ".tpp"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm",
  leadingLine: C_LEADING,
  describe,
  container: (node) => node.type === "namespace_definition" ? node.childForFieldName("body") ?? undefined : containerC(node),
  imports: includes,
  resolve: resolveInclude,
  external: (specifier) => specifier.startsWith("<"),
  rankedRelations: []
}
