/**
 * Ruby: classes and methods, read inside modules as at the top; `require_relative` resolves beside
 * the file, `require` under a `lib` directory.
 */
import { dirname, normalize, join } from "../../source/Paths.ts"
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { unquoted } from "../LanguageSpec.ts"
import { closest } from "./Closest.ts"

const describe = (node: Node): Described | undefined => {
  switch (node.type) {
    case "class": {
      const name = node.childForFieldName("name")?.text
      return name === undefined ? undefined : { kind: "class", name, exported: true, body: node.namedChildren.find((child) => child?.type === "body_statement") }
    }
    case "method":
    case "singleton_method": {
      const name = node.childForFieldName("name")?.text
      if (name === undefined) return undefined
      const owner = node.type === "singleton_method" ? `${node.childForFieldName("object")?.text ?? "self"}.` : ""
      return { kind: "method", name: `${owner}${name}`, exported: true }
    }
    default:
      return undefined
  }
}

const LOADS = new Set(["require", "require_relative", "load"])

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "call" || node.childForFieldName("receiver") !== null) return []
  const method = node.childForFieldName("method")?.text
  const argument = node.childForFieldName("arguments")?.namedChild(0)
  if (method === undefined || !LOADS.has(method) || argument?.type !== "string" || argument.namedChildren.some((part) => part?.type === "interpolation")) return []
  const path = unquoted(argument.text)
  return [{ specifier: method === "require_relative" ? `./${path}` : path, kind: "requires" }]
}

const withExtension = (path: string): string => (path.endsWith(".rb") ? path : `${path}.rb`)

const resolve: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  if (specifier.startsWith("./")) {
    const path = normalize(join(dirname(from), withExtension(specifier.slice(2))))
    return path !== undefined && context.modules.has(path) ? [path] : []
  }
  const found = closest(from, context.endingWith(`lib/${withExtension(specifier)}`))
  return found === undefined ? [] : [found]
}

export const Ruby: LanguageSpec = {
  id: "ruby",
  name: "Ruby",
  extensions: [".rb", ".rake", ".gemspec"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm",
  leadingLine: /^\s*#/,
  describe,
  container: (node) => node.type === "module" ? node.namedChildren.find((child) => child?.type === "body_statement") ?? undefined : undefined,
  imports,
  resolve,
  external: (specifier) => !specifier.startsWith("./"),
  rankedRelations: []
}
