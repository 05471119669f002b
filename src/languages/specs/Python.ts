/** Python: functions, classes and upper-case constants; `import` and `from … import` resolved to modules and packages. */
import { dirname, isWithin, join } from "../../source/Paths.ts"
import type { LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { unquoted } from "../LanguageSpec.ts"
import { closest } from "./Closest.ts"

/** A function or class's docstring: the string its body opens with. */
const docstring = (body: Node | null): string | undefined => {
  const first = body?.namedChild(0)
  const string = first?.type === "expression_statement" ? first.namedChild(0) : undefined
  return string?.type === "string" ? unquoted(string.text).replace(/\s+/g, " ").trim() || undefined : undefined
}

const CONSTANT = /^[A-Z][A-Z0-9_]*$/

const describe: LanguageSpec["describe"] = (node) => {
  const target = node.type === "decorated_definition" ? node.childForFieldName("definition") : node
  if (target === null) return undefined
  if (target.type === "function_definition" || target.type === "class_definition") {
    const name = target.childForFieldName("name")?.text
    if (name === undefined) return undefined
    const body = target.childForFieldName("body")
    return { kind: target.type === "class_definition" ? "class" : "function", name, exported: !name.startsWith("_"), body, doc: docstring(body) }
  }
  const assignment = target.type === "expression_statement" ? target.namedChild(0) : null
  const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null
  if (left?.type === "identifier" && CONSTANT.test(left.text)) return { kind: "variable", name: left.text, exported: !left.text.startsWith("_") }
  return undefined
}

/** The module an imported name is read from: `a.b` of `import a.b as c`. */
const moduleName = (node: Node): string => (node.type === "aliased_import" ? node.childForFieldName("name")?.text ?? node.text : node.text)

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type === "import_statement") {
    return node.namedChildren.filter((child): child is Node => child !== null).map((child) => ({ specifier: moduleName(child), kind: "imports" }))
  }
  if (node.type !== "import_from_statement") return []
  const from = node.childForFieldName("module_name")?.text
  if (from === undefined || from === "__future__") return []
  // `from . import a, b` imports modules a and b of this package, when they are modules.
  if (/^\.+$/.test(from)) {
    const names = node.childrenForFieldName("name").filter((child): child is Node => child !== null)
    return names.length === 0 ? [{ specifier: from, kind: "imports" }] : names.map((child) => ({ specifier: `${from}${moduleName(child)}`, kind: "imports" }))
  }
  return [{ specifier: from, kind: "imports" }]
}

/** The files a module path names, as a module then as a package. */
const candidates = (base: string, parts: ReadonlyArray<string>): Array<string> =>
  parts.length === 0 ? [join(base, "__init__.py")] : [`${join(base, parts.join("/"))}.py`, `${join(base, parts.join("/"))}.pyi`, join(join(base, parts.join("/")), "__init__.py")]

/**
 * A relative import from the importing file's package (one dot) or above it; an absolute one by
 * suffix, closest to the importing file, a one-part name only under a directory above the importing
 * file (a root it runs from), so `import logging` is the standard library's, not `tools/logging.py`.
 * `from . import name` names the module `name` when there is one; a name its package's `__init__`
 * defines is not resolved to the `__init__`, since the written import cannot tell the two apart.
 */
const resolve: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  const dots = /^\.*/.exec(specifier)![0].length
  const parts = specifier.slice(dots).split(".").filter((part) => part !== "")
  if (dots > 0) {
    let base = dirname(from)
    for (let i = 1; i < dots; i++) {
      // Past the root: the import leaves the repository.
      if (base === "") return []
      base = dirname(base)
    }
    const found = candidates(base, parts).find((path) => context.modules.has(path))
    return found === undefined ? [] : [found]
  }
  for (const suffix of candidates("", parts)) {
    const rootOf = (path: string) => (path === suffix ? "" : path.slice(0, path.length - suffix.length - 1))
    const within = context.endingWith(suffix).filter((path) => parts.length > 1 || isWithin(from, rootOf(path)))
    const best = closest(from, within)
    if (best !== undefined) return [best]
  }
  return []
}

export const Python: LanguageSpec = {
  id: "python",
  name: "Python",
  extensions: [".py", ".pyi"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm",
  leadingLine: /^\s*(#|@)/,
  describe,
  imports,
  resolve,
  external: (specifier) => !specifier.startsWith("."),
  rankedRelations: []
}
