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

/** The path a `use` names, up to a `{…}` list or an alias. */
const usePath = (argument: Node): string => {
  if (argument.type === "scoped_use_list") return argument.childForFieldName("path")?.text ?? argument.text
  if (argument.type === "use_as_clause") return argument.childForFieldName("path")?.text ?? argument.text
  if (argument.type === "use_wildcard") return argument.text.replace(/::\*$/, "")
  return argument.text
}

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type === "mod_item" && node.childForFieldName("body") === null) {
    const name = node.childForFieldName("name")?.text
    return name === undefined ? [] : [{ specifier: `mod ${name}`, kind: "imports" }]
  }
  if (node.type !== "use_declaration") return []
  const argument = node.childForFieldName("argument")
  return argument === null ? [] : [{ specifier: usePath(argument), kind: "imports" }]
}

const ROOTS = new Set(["lib.rs", "main.rs", "mod.rs"])

/** The directory a file's child modules live in: its own for `lib.rs`, `main.rs` and `mod.rs`, else one named after it. */
const childDirectory = (file: string): string => ROOTS.has(basename(file)) ? dirname(file) : join(dirname(file), basename(file).slice(0, -3))

/** The module file of `parts` below `directory`, the longest prefix of the path that is one. */
const deepestModule = (directory: string, parts: ReadonlyArray<string>, modules: ReadonlySet<string>): Array<string> => {
  for (let n = parts.length; n > 0; n--) {
    const path = join(directory, parts.slice(0, n).join("/"))
    for (const file of [`${path}.rs`, join(path, "mod.rs")]) if (modules.has(file)) return [file]
  }
  return []
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
  if (head === "super") return deepestModule(dirname(childDirectory(from)), parts, context.modules)
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
