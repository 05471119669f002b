/**
 * Small generated repositories and edit scripts for the discovery properties, described by Schemas
 * so `it.effect.prop` can generate and shrink them. Names are drawn from tiny vocabularies so that
 * imports resolve, collide, dangle and nearly match often.
 */
import { Schema } from "effect"
import type { MemoryNode } from "../layers/reference/SourceTreeMemory.ts"

const DIRECTORIES = ["src", "src/core", "src/util", "lib"] as const
const NAMES = ["a", "b", "c", "index", "rank"] as const
const SYMBOLS = ["rank", "fuse", "run", "Model"] as const
const SPECIFIERS = ["./a.js", "./b", "../core/c.js", "@core/a", "@util/index", "src/util/b", "lodash/fp", "./missing", "../util"] as const
const DOC_PARTS = [
  "`rank` ranks.",
  "`src/core/a.ts` is core.",
  "See [[notes]].",
  "[a](../src/a.ts)",
  "`src/core/aa.ts` is a typo.",
  "[guide](./guide.md)",
  "`demo` is the package.",
  "```cairn\ncovers:\n  - src/core\n```",
  "<!-- cairn:generated -->\n`src/b.ts`\n<!-- /cairn:generated -->",
  "## Relations\n- depends_on [[guide]]"
] as const

const short = <S extends Schema.Top>(item: S, max: number) => Schema.Array(item).check(Schema.isMaxLength(max))

export const ModuleSpec = Schema.Struct({
  directory: Schema.Literals(DIRECTORIES),
  name: Schema.Literals(NAMES),
  imports: short(Schema.Literals(SPECIFIERS), 3),
  exports: short(Schema.Literals(SYMBOLS), 2),
  reexport: Schema.Boolean
})

export const DocumentSpec = Schema.Struct({
  name: Schema.Literals(["guide", "notes", "adr"]),
  directory: Schema.Literals(["docs", "docs/sub"]),
  parts: short(Schema.Literals(DOC_PARTS), 4),
  bom: Schema.Boolean
})

/** A file of a language read with tree-sitter: its imports name the same few files, so they resolve, repeat and dangle. */
export const SourceSpec = Schema.Struct({
  language: Schema.Literals(["python", "go", "rust", "java", "c", "ruby", "bash", "swift"]),
  directory: Schema.Literals(["svc", "svc/core"]),
  name: Schema.Literals(["a", "b", "c"]),
  imports: short(Schema.Literals(["a", "b", "c", "missing"]), 3),
  functions: short(Schema.Literals(["run", "parse", "Model"]), 2)
})
type SourceSpec = typeof SourceSpec.Type

const EXTENSIONS: Readonly<Record<SourceSpec["language"], string>> = { python: "py", go: "go", rust: "rs", java: "java", c: "c", ruby: "rb", bash: "sh", swift: "swift" }

const sourceText = (source: SourceSpec): string => {
  const { functions, imports } = source
  switch (source.language) {
    case "python":
      return [...imports.map((name) => `from . import ${name}`), ...functions.map((name) => `def ${name}():\n    return ${JSON.stringify(name)}`)].join("\n")
    case "go":
      return [`package ${source.name}`, ...imports.map((name) => `import "example.com/demo/svc/${name}"`), ...functions.map((name) => `func ${name}() {}`)].join("\n")
    case "rust":
      return [...imports.map((name) => `mod ${name};\nuse crate::${name}::Item;`), ...functions.map((name) => `pub fn ${name}() {}`)].join("\n")
    case "java":
      return [`package ${source.directory.replace("/", ".")};`, ...imports.map((name) => `import svc.core.${name};`), `public class ${source.name.toUpperCase()} {`, ...functions.map((name) => `  void ${name}() {}`), "}"].join("\n")
    case "c":
      return [...imports.map((name) => `#include "${name}.c"`), ...functions.map((name) => `int ${name}(void) { return 0; }`)].join("\n")
    case "ruby":
      return [...imports.map((name) => `require_relative "${name}"`), ...functions.map((name) => `def ${name}\nend`)].join("\n")
    case "bash":
      return [...imports.map((name) => `source ./${name}.sh`), ...functions.map((name) => `${name}() {\n  echo ${name}\n}`)].join("\n")
    case "swift":
      return [...imports.map((name) => `import ${name}`), ...functions.map((name) => `public func ${name}() -> String {\n    "${name}"\n}`)].join("\n")
  }
}

export const RepoSpec = Schema.Struct({
  modules: short(ModuleSpec, 7),
  documents: short(DocumentSpec, 3),
  sources: short(SourceSpec, 5),
  pathsTo: Schema.Literals(["src/core", "src/util"])
})
export type RepoSpec = typeof RepoSpec.Type

export const EditSpec = Schema.Struct({
  op: Schema.Literals(["add", "delete", "rename", "edit", "bom", "paths", "exports"]),
  index: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 31 })),
  variant: Schema.Literals(["x", "y"])
})
export type EditSpec = typeof EditSpec.Type

export type Files = Record<string, MemoryNode>

const tsconfig = (target: string): string =>
  JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@core/*": [`${target}/*`], "@util/*": ["src/util/*"] } } })

/** The files a spec describes; a later module with the same path replaces an earlier one. */
export const buildRepo = (spec: RepoSpec): Files => {
  const files: Files = {
    "package.json": JSON.stringify({ name: "demo", dependencies: { lodash: "^4" } }),
    "tsconfig.json": tsconfig(spec.pathsTo)
  }
  for (const module of spec.modules) {
    const lines = module.imports.map((specifier, i) => `import * as m${i} from "${specifier}"`)
    if (module.reexport) lines.push(`export * from "./a.js"`)
    for (const symbol of module.exports) lines.push(`export const ${symbol} = ${JSON.stringify(module.name)}`)
    files[`${module.directory}/${module.name}.ts`] = `${lines.join("\n")}\n`
  }
  for (const source of spec.sources) files[`${source.directory}/${source.name}.${EXTENSIONS[source.language]}`] = `${sourceText(source)}\n`
  if (spec.sources.some((source) => source.language === "go")) files["go.mod"] = "module example.com/demo\n\ngo 1.22\n"
  for (const document of spec.documents) {
    const text = `# ${document.name}\n\n${document.parts.join("\n\n")}\n`
    files[`${document.directory}/${document.name}.md`] = document.bom ? `\uFEFF${text}` : text
  }
  return files
}

const renamed = (path: string): string => path.replace(/(\.[a-z]+)$/, "-moved$1")

/** Applies one edit; every operation is defined on any tree, so edit scripts never fail. */
export const applyEdit = (files: Files, edit: EditSpec): Files => {
  const paths = Object.keys(files).filter((path) => path !== "package.json" && path !== "tsconfig.json").sort()
  const target = paths.length === 0 ? undefined : paths[edit.index % paths.length]!
  const next: Files = { ...files }
  const text = (path: string): string => {
    const node = next[path]
    return typeof node === "string" ? node : ""
  }
  switch (edit.op) {
    case "add":
      if (edit.variant === "x") next[`src/new-${edit.index}.ts`] = `import { rank } from "./a.js"\nexport const added${edit.index} = rank\n`
      else next[`docs/new-${edit.index}.md`] = `# New ${edit.index}\n\nMentions \`src/new-${edit.index}.ts\` and \`rank\`.\n`
      break
    case "delete":
      if (target !== undefined) delete next[target]
      break
    case "rename":
      if (target !== undefined) {
        next[renamed(target)] = next[target]!
        delete next[target]
      }
      break
    case "edit":
      if (target !== undefined) next[target] = target.endsWith(".md") ? `${text(target)}\nMore about \`fuse\`.\n` : `${text(target)}// edited\n`
      break
    case "bom":
      if (target !== undefined && !text(target).startsWith("\uFEFF")) next[target] = `\uFEFF${text(target)}`
      break
    case "paths":
      next["tsconfig.json"] = tsconfig(edit.variant === "x" ? "src/util" : "lib")
      break
    case "exports":
      if (target !== undefined && target.endsWith(".ts")) next[target] = `${text(target)}export const ${edit.variant === "x" ? "rank" : "Model"} = 0\n`
      break
  }
  return next
}

