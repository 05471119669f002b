/** What C and C++ share: declarators, storage classes, preprocessor blocks and `#include`. */
import { dirname, join, normalize } from "../../source/Paths.ts"
import type { Described, LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { closest } from "./Closest.ts"

const NAMES = new Set(["identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name", "type_identifier"])

/** The name a declarator declares, followed through pointers, arrays and functions; and whether it is a function. */
export const declared = (node: Node): { readonly name: string; readonly function: boolean } | undefined => {
  let at: Node | null = node.childForFieldName("declarator")
  let isFunction = false
  for (let depth = 0; at !== null && depth < 32; depth++) {
    if (NAMES.has(at.type)) return { name: at.text, function: isFunction }
    if (at.type === "function_declarator") isFunction = true
    // A parenthesised declarator (`(*cb)`) has no field of its own: its inner declarator is its child.
    at = at.childForFieldName("declarator") ??
      at.namedChildren.find((child) => child !== null && NAMES.has(child.type)) ??
      at.namedChildren.find((child) => child !== null && child.type.endsWith("declarator")) ??
      null
  }
  return undefined
}

const isStatic = (node: Node): boolean => node.namedChildren.some((child) => child?.type === "storage_class_specifier" && child.text === "static")

/** C's declarations; C++ adds its own before these. */
export const describeC = (node: Node): Described | undefined => {
  switch (node.type) {
    case "function_definition":
    case "declaration": {
      const found = declared(node)
      if (found === undefined) return undefined
      const kind = node.type === "function_definition" || found.function ? (found.name.includes("::") ? "method" : "function") : "variable"
      return { kind, name: found.name, exported: !isStatic(node), body: node.childForFieldName("body") }
    }
    case "struct_specifier":
    case "union_specifier":
    case "enum_specifier": {
      const name = node.childForFieldName("name")?.text
      if (name === undefined || node.childForFieldName("body") === null) return undefined
      return { kind: node.type === "enum_specifier" ? "enum" : "struct", name, exported: true, body: node.childForFieldName("body") }
    }
    case "type_definition": {
      const name = declared(node)?.name
      return name === undefined ? undefined : { kind: "type", name, exported: true }
    }
    case "preproc_def":
    case "preproc_function_def": {
      const name = node.childForFieldName("name")?.text
      // `#define GUARD_H` with no value guards a header; it declares nothing a reader looks for.
      if (name === undefined || (node.type === "preproc_def" && node.childForFieldName("value") === null)) return undefined
      return { kind: "macro", name, exported: true }
    }
    default:
      return undefined
  }
}

const PREPROCESSOR_BLOCKS = new Set(["preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef"])

/** A preprocessor conditional's lines are read as top-level ones, as is an `extern "C"` block's body. */
export const containerC = (node: Node): Node | undefined => {
  if (PREPROCESSOR_BLOCKS.has(node.type)) return node
  if (node.type === "linkage_specification") return node.childForFieldName("body") ?? undefined
  return undefined
}

export const includes = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "preproc_include") return []
  const path = node.childForFieldName("path")
  if (path === null) return []
  return [{ specifier: path.type === "system_lib_string" ? path.text : path.text.replace(/^"|"$/g, ""), kind: "imports" }]
}

/** `"x.h"` beside the file, else under any include directory; `<x/y.h>` of a project directory by its path. */
export const resolveInclude: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  const system = specifier.startsWith("<")
  const path = system ? specifier.slice(1, -1) : specifier
  if (!system) {
    const beside = normalize(join(dirname(from), path))
    if (beside !== undefined && context.modules.has(beside)) return [beside]
  }
  if (system && !path.includes("/")) return []
  const found = closest(from, context.endingWith(path))
  return found === undefined ? [] : [found]
}

export const C_LEADING = /^\s*(\/\/|\/\*|\*)/
