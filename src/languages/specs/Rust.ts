/**
 * Rust: functions, structs, enums, traits, impl blocks, type aliases, constants, statics, macros and
 * inline modules; `mod name;` resolves to the module's file and `use crate::…`, `self::…` and
 * `super::…` to the deepest module file of the path, within the crate (the nearest directory above
 * holding `lib.rs` or `main.rs`).
 */
import { basename, dirname, join } from "../../source/Paths.ts"
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"

const KINDS: Readonly<Record<string, Described["kind"]>> = {
  function_item: "function",
  struct_item: "struct",
  union_item: "struct",
  enum_item: "enum",
  trait_item: "trait",
  impl_item: "impl",
  type_item: "type",
  const_item: "variable",
  static_item: "variable",
  macro_definition: "macro",
  mod_item: "namespace"
}

const isPublic = (node: Node): boolean => node.namedChildren.some((child) => child?.type === "visibility_modifier")

const describe = (node: Node): Described | undefined => {
  const kind = KINDS[node.type]
  if (kind === undefined) return undefined
  // `mod name;` is a reference to another file, not a declaration here.
  if (node.type === "mod_item" && node.childForFieldName("body") === null) return undefined
  const name = node.type === "impl_item"
    ? [node.childForFieldName("trait")?.text, node.childForFieldName("type")?.text].filter((part) => part !== undefined).join(" for ")
    : node.childForFieldName("name")?.text
  if (name === undefined || name === "") return undefined
  return { kind, name, exported: node.type === "impl_item" || isPublic(node), body: node.childForFieldName("body") }
}

/** The paths a `use` names: each member of a `{…}` list on its own, an alias by its path, a glob by its module. */
const usePaths = (argument: Node, prefix: string, depth = 0): Array<string> => {
  const joined = (path: string) => (prefix === "" ? path : `${prefix}::${path}`)
  switch (argument.type) {
    case "scoped_use_list": {
      const path = argument.childForFieldName("path")?.text
      const list = argument.childForFieldName("list")
      const base = path === undefined ? prefix : joined(path)
      return list === null || depth > 8 ? [base] : usePaths(list, base, depth + 1)
    }
    case "use_list":
      return argument.namedChildren.flatMap((child) => (child === null ? [] : usePaths(child, prefix, depth + 1)))
    case "use_as_clause":
      return [joined(argument.childForFieldName("path")?.text ?? argument.text)]
    case "use_wildcard":
      return [joined(argument.text.replace(/::\*$/, "").replace(/^\*$/, ""))].map((path) => path.replace(/::$/, ""))
    case "self":
      return [prefix === "" ? "self" : prefix]
    default:
      return [joined(argument.text)]
  }
}

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type === "mod_item" && node.childForFieldName("body") === null) {
    const name = node.childForFieldName("name")?.text
    return name === undefined ? [] : [{ specifier: `mod ${name}`, kind: "imports" }]
  }
  if (node.type !== "use_declaration") return []
  const argument = node.childForFieldName("argument")
  return argument === null ? [] : [...new Set(usePaths(argument, ""))].map((specifier) => ({ specifier, kind: "imports" as const }))
}

const ROOTS = new Set(["lib.rs", "main.rs", "mod.rs", "build.rs"])
/** Directories whose files are crate roots of their own (integration tests, examples, benches, binaries). */
const ROOT_DIRECTORIES = /(?:^|\/)(?:tests|examples|benches|src\/bin)$/

/** Whether a file owns its directory's modules: a crate root, or a `mod.rs`. */
const ownsDirectory = (file: string): boolean => ROOTS.has(basename(file)) || ROOT_DIRECTORIES.test(dirname(file))

/** The directory a file's child modules live in: its own for a file that owns it, else one named after it. */
const childDirectory = (file: string): string => ownsDirectory(file) ? dirname(file) : join(dirname(file), basename(file).slice(0, -3))

/** The file of the module whose children live in `directory`: `directory.rs`, `directory/mod.rs`, or a crate root in it. */
const moduleFileOf = (directory: string, modules: ReadonlySet<string>): Array<string> => {
  const candidates = [...(directory === "" ? [] : [`${directory}.rs`]), join(directory, "mod.rs"), join(directory, "lib.rs"), join(directory, "main.rs")]
  return candidates.filter((file) => modules.has(file)).slice(0, 1)
}

/** The module file of `parts` below `directory`: the longest prefix of the path that is one, else the module of `directory` itself. */
const deepestModule = (directory: string, parts: ReadonlyArray<string>, modules: ReadonlySet<string>): Array<string> => {
  for (let n = parts.length; n > 0; n--) {
    const path = join(directory, parts.slice(0, n).join("/"))
    for (const file of [`${path}.rs`, join(path, "mod.rs")]) if (modules.has(file)) return [file]
  }
  return moduleFileOf(directory, modules)
}

const resolve: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  if (specifier.startsWith("mod ")) {
    const directory = childDirectory(from)
    const name = specifier.slice(4)
    return [`${join(directory, name)}.rs`, join(join(directory, name), "mod.rs")].filter((file) => context.modules.has(file)).slice(0, 1)
  }
  const [head, ...parts] = specifier.split("::")
  if (head === "crate") {
    let directory = dirname(from)
    for (;;) {
      if (context.modules.has(join(directory, "lib.rs")) || context.modules.has(join(directory, "main.rs"))) return deepestModule(directory, parts, context.modules)
      if (directory === "") return []
      directory = dirname(directory)
    }
  }
  if (head === "self") return deepestModule(childDirectory(from), parts, context.modules)
  if (head === "super") {
    // The parent of the module `from` is: the module owning the directory `from` sits in, or for a `mod.rs`, the one above.
    const own = childDirectory(from)
    return deepestModule(dirname(own), parts, context.modules)
  }
  return []
}

export const Rust: LanguageSpec = {
  id: "rust",
  name: "Rust",
  extensions: [".rs"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm",
  leadingLine: /^\s*(\/\/(?!!)|#\[)/,
  describe,
  imports,
  resolve,
  external: (specifier) => !/^(crate|self|super)::|^mod /.test(specifier),
  rankedRelations: []
}
