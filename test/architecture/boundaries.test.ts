/**
 * The house's import rules (DESIGN.md §1, §3 and the style guide's §1) and its determinism rule
 * (DESIGN.md §5), checked over every TypeScript file of the repository, static imports, re-exports
 * and dynamic `import()` alike:
 *
 * - imports point one way, `src` ← `layers` ← `pipelines` ← `eval` ← the consumers (tests, property
 *   tests, benches, scripts, bin), which may import anything;
 * - `src` does no I/O: no `node:` module, no `@effect/platform-node`;
 * - the reference backends are imported by neither `src` nor any other backend (`layers/sqlite`,
 *   `layers/node`, `layers/tokens`, …); only the named layer sets at the top of `layers/` and tests
 *   may, so every other backend stands on the ports alone;
 * - a contract suite in `layers/contracts` names no backend, so a new backend can run it as it is;
 * - inside `src`, `source/` imports nothing else of `src`, `text/` only `source/`, and neither of
 *   `index/` and `retrieval/` imports the other, nor `ports/` anything of `retrieval/`, tests
 *   included (a test of `source/` or `text/` may still check itself against the parser it stands in
 *   for): what both need lives below them;
 * - `pipelines/cli/main.ts` is the only caller of `runMain`;
 * - `src` reads neither the wall clock nor unseeded randomness (DESIGN.md §5): no `Date.now()`,
 *   `new Date()` without arguments, `Math.random()` or `performance.now()` outside its tests, since
 *   time enters as `now` and randomness from a seeded generator.
 *
 * A rule that today's code breaks is listed in ALLOWED with the reason it stands, so a new breach
 * fails the test and a mended one fails it too until its entry goes.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import { builtinModules } from "node:module"
import * as NodePath from "node:path"
import { parseSync, Visitor } from "oxc-parser"

const ROOT = NodePath.resolve(import.meta.dirname, "../..")

/** Rank in the one-way order; a file may import only from its own rank or below. */
const RANK: Readonly<Record<string, number>> = {
  src: 0,
  layers: 1,
  pipelines: 2,
  eval: 3,
  test: 4,
  "property-tests": 4,
  bench: 4,
  scripts: 4,
  bin: 4
}

/**
 * Breaches that stand, as `rule file -> target` (the target a root-relative path or a package
 * name), each with why.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map<string, string>([
  [
    "src-io src/languages/Grammars.ts -> node:v8",
    "no I/O: it turns V8's WebAssembly tier-up off before the Swift grammar loads, which the process would otherwise die of; only the module that loads the grammars knows when"
  ]
])

const isTest = (path: string): boolean => /\.test\.ts$/.test(path) || path.includes("/testing/")

const sources = (dir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "fixtures" && dir === "eval/corpora" ? [] : sources(path)
    return /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : []
  })

// The package's own name resolves to the sources its exports are built from, as in vitest.config.ts.
const exportsMap = (JSON.parse(NodeFs.readFileSync(NodePath.join(ROOT, "package.json"), "utf8")) as {
  readonly exports: Readonly<Record<string, string | { readonly import: string }>>
}).exports
const selfImport = (specifier: string): string | undefined => {
  const subpath = specifier === "cairn" ? "." : specifier.startsWith("cairn/") ? `./${specifier.slice("cairn/".length)}` : undefined
  if (subpath === undefined) return undefined
  for (const [key, target] of Object.entries(exportsMap)) {
    const built = typeof target === "string" ? target : target.import
    const source = (path: string) => path.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")
    if (key === subpath) return source(built)
    if (key.endsWith("/*") && subpath.startsWith(key.slice(0, -1))) return source(built.replace("*", subpath.slice(key.length - 1)))
  }
  return undefined
}

/** What `specifier` names from `file`: a root-relative path, or a package (`node:fs`, `effect`). */
const target = (file: string, specifier: string): string => {
  if (specifier.startsWith(".")) return NodePath.relative(ROOT, NodePath.resolve(ROOT, NodePath.dirname(file), specifier)).split(NodePath.sep).join("/")
  return selfImport(specifier) ?? specifier
}

/** Every module `file` imports: static imports, `export … from`, and `import()` with a literal argument. */
const importsOf = (file: string, text: string): Array<string> => {
  const { module, errors } = parseSync(file, text, { lang: "ts" })
  assert.deepStrictEqual(errors.map((error) => error.message), [], file)
  const out = [
    ...module.staticImports.map((entry) => entry.moduleRequest.value),
    ...module.staticExports.flatMap((entry) => entry.entries.flatMap((e) => (e.moduleRequest === null ? [] : [e.moduleRequest.value])))
  ]
  for (const dynamic of module.dynamicImports) {
    const argument = text.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end)
    const literal = /^(["'`])([^"'`$]*)\1$/.exec(argument)
    // A computed specifier cannot be checked here: it must stay inside its own folder's conventions.
    if (literal !== null) out.push(literal[2]!)
  }
  return out
}

/** The calls that read the wall clock or unseeded randomness, as `object.property`. */
const CLOCK_CALLS: ReadonlySet<string> = new Set(["Date.now", "Math.random", "performance.now"])

/** The reads of the wall clock or of unseeded randomness in `file`, found in its syntax, so comments and strings are not. */
const clockReadsOf = (file: string, text: string): Array<string> => {
  const out: Array<string> = []
  new Visitor({
    CallExpression: (node) => {
      const callee = node.callee
      if (callee.type !== "MemberExpression" || callee.computed || callee.object.type !== "Identifier" || callee.property.type !== "Identifier") return
      const name = `${callee.object.name}.${callee.property.name}`
      if (CLOCK_CALLS.has(name)) out.push(`${name}()`)
    },
    NewExpression: (node) => {
      if (node.callee.type === "Identifier" && node.callee.name === "Date" && node.arguments.length === 0) out.push("new Date()")
    }
  }).visit(parseSync(file, text, { lang: "ts" }).program)
  return out
}

const folderOf = (path: string): string => path.split("/")[0]!

const NODE_BUILTINS = new Set(builtinModules)
const isIo = (name: string): boolean =>
  name.startsWith("node:") || NODE_BUILTINS.has(name.split("/")[0]!) || name === "@effect/platform-node" || name.startsWith("@effect/platform-node/")

/** A file of `src`, or of a backend folder other than the reference one (`layers/<backend>/…`). */
const isBackendOrSrc = (file: string): boolean => {
  if (file.startsWith("src/")) return true
  const [top, folder, rest] = file.split("/", 3)
  return top === "layers" && rest !== undefined && folder !== "reference" && folder !== "contracts"
}

/** The folders of `src` that may import only these others of `src`, and pairs that may not meet. */
const SRC_BELOW: Readonly<Record<string, ReadonlyArray<string>>> = { source: [], text: ["source"] }
// A port is what its backends implement, so it may not lean on a stage's helpers either.
const SRC_APART: ReadonlyArray<readonly [string, string]> = [["index", "retrieval"], ["retrieval", "index"], ["ports", "retrieval"]]

/** Whether `file` importing `name` breaks the order inside `src`. */
const breaksSrcOrder = (file: string, name: string, test = false): boolean => {
  if (!file.startsWith("src/") || !name.startsWith("src/")) return false
  const from = file.split("/")[1]!
  const to = name.split("/").length > 2 ? name.split("/")[1]! : ""
  if (from === to) return false
  const below = SRC_BELOW[from]
  if (below !== undefined && !below.includes(to) && !test) return true
  return SRC_APART.some(([a, b]) => a === from && b === to)
}

/** Every breach of the rules in the repository as it is, as `rule file -> target`. */
const breaches = (): Array<string> => {
  const out: Array<string> = []
  for (const file of Object.keys(RANK).flatMap(sources)) {
    const text = NodeFs.readFileSync(NodePath.join(ROOT, file), "utf8")
    const rank = RANK[folderOf(file)]!
    const test = isTest(file)
    for (const name of new Set(importsOf(file, text).map((specifier) => target(file, specifier)))) {
      const rankOf = RANK[folderOf(name)]
      // Tests sit beside the code they test and may reach up to fixtures and backends to run it.
      if (!test && rankOf !== undefined && rankOf > rank) out.push(`order ${file} -> ${name}`)
      if (!test && file.startsWith("src/") && isIo(name)) out.push(`src-io ${file} -> ${name}`)
      if (!test && isBackendOrSrc(file) && name.startsWith("layers/reference/")) out.push(`reference ${file} -> ${name}`)
      if (breaksSrcOrder(file, name, test)) out.push(`src-order ${file} -> ${name}`)
      if (file.startsWith("layers/contracts/") && name.startsWith("layers/") && !name.startsWith("layers/contracts/")) out.push(`contract ${file} -> ${name}`)
    }
    if (!test && rank < RANK["test"]! && file !== "pipelines/cli/main.ts" && /\brunMain\s*\(/.test(text)) out.push(`run-main ${file} -> runMain`)
    if (!test && file.startsWith("src/")) for (const read of new Set(clockReadsOf(file, text))) out.push(`determinism ${file} -> ${read}`)
  }
  return out.sort()
}

describe("architecture", () => {
  // Parsed once, inside the first test that asks, so the parse runs under a test's timeout.
  let cached: Array<string> | undefined
  const found = () => (cached ??= breaches())

  it("imports - every file keeps the house's import and determinism rules, or is a listed exception", () => {
    const unlisted = found().filter((breach) => !ALLOWED.has(breach))
    assert.deepStrictEqual(unlisted, [], "a new breach: mend it, or list it in ALLOWED with its reason")
  }, 60_000) // parses every file of the repository

  it("imports - every listed exception still happens, so a mended one leaves the list", () => {
    const stale = [...ALLOWED.keys()].filter((breach) => !found().includes(breach))
    assert.deepStrictEqual(stale, [])
  }, 60_000)

  it("imports - the check sees imports: the repository has hundreds, crossing folders, dynamic ones included", () => {
    const files = Object.keys(RANK).flatMap(sources)
    assert.isAbove(files.length, 300)
    const all = files.flatMap((file) => importsOf(file, NodeFs.readFileSync(NodePath.join(ROOT, file), "utf8")).map((specifier) => target(file, specifier)))
    assert.isTrue(all.some((name) => name.startsWith("src/ports/")))
    assert.isTrue(all.some((name) => name === "node:fs"))
    // A planted breach of each kind is caught.
    assert.deepStrictEqual(importsOf("src/x.ts", "import { a } from \"../layers/b.ts\"\nexport * from \"node:fs\"\nconst c = await import('../pipelines/d.ts')\n"), [
      "../layers/b.ts",
      "node:fs",
      "../pipelines/d.ts"
    ])
    assert.strictEqual(target("test/x.test.ts", "cairn/layers"), "layers/index.ts")
    assert.isTrue(breaksSrcOrder("src/retrieval/pack.ts", "src/index/chunk/Packer.ts"))
    assert.isTrue(breaksSrcOrder("src/index/chunk/Packer.ts", "src/retrieval/tokens.ts"))
    assert.isTrue(breaksSrcOrder("src/text/Words.ts", "src/domain/Chunk.ts"))
    assert.isTrue(breaksSrcOrder("src/source/Paths.ts", "src/text/Words.ts"))
    assert.isFalse(breaksSrcOrder("src/text/TokenCount.ts", "src/source/Detached.ts"))
    assert.isFalse(breaksSrcOrder("src/retrieval/terms.ts", "src/text/Words.ts"))
    assert.isTrue(breaksSrcOrder("src/ports/SymbolIndex.ts", "src/retrieval/symbolTable.ts"))
    assert.isFalse(breaksSrcOrder("src/ports/SymbolIndex.ts", "src/domain/SymbolMatch.ts"))
    assert.isTrue(breaksSrcOrder("src/retrieval/pack.test.ts", "src/index/chunk/Packer.ts", true))
    assert.isFalse(breaksSrcOrder("src/source/Lines.test.ts", "src/discovery/OxcModule.ts", true))
    assert.isFalse(breaksSrcOrder("src/index/chunk/ChunkFile.ts", "src/index/chunk/Packer.ts"))
  }, 60_000)

  it("determinism - the check sees clock reads: a planted one of each kind is caught, a date from an argument, a comment or a string is not", () => {
    const planted = "const a = Date.now()\nconst b = new Date()\nconst c = Math.random()\nconst d = performance.now()\n"
    const innocent = "const e = new Date(0)\nconst f = Date.UTC(2025, 0, 1)\n// Date.now()\nconst g = \"Math.random()\"\nconst h = clock.now()\n"
    assert.deepStrictEqual(clockReadsOf("src/x.ts", planted + innocent), ["Date.now()", "new Date()", "Math.random()", "performance.now()"])
  })
})

