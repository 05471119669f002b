import { assert, describe, it } from "@effect/vitest"
import { utf8Length } from "../../text/TokenCount.ts"
import { defaults } from "./ChunkOptions.ts"
import { chunkCode } from "./CodeChunker.ts"

const SOURCE = [
  "/** The ledger module. */", //           1
  "",
  "import { a } from \"./a.ts\"",
  "import type { B } from \"./b.ts\"",
  "", //                                     5
  "/** Adds two numbers. */",
  "export function add(x: number, y: number): number {",
  "  return x + y",
  "}",
  "", //                                     10
  "const local = 1 // kept with the module",
  "",
  "export const LIMIT = 10",
  "",
  "export class Ledger {", //                15
  "  post() { return add(local, LIMIT) }",
  "}",
  "",
  "export interface Entry { readonly id: string }",
  "export type Id = string", //              20
  "enum Side { Debit, Credit }",
  "const helper = (n: number) => n * 2",
  "",
  "export function over(a: string): string",
  "export function over(a: number): number", // 25
  "export function over(a: unknown) { return a }",
  "",
  "console.log(helper(1))"
].join("\n")

const chunks = (source: string, targetTokens = 350, path = "src/ledger.ts") => chunkCode(path, source, { ...defaults, targetTokens })

describe("chunkCode", () => {
  it("chunkCode - one chunk per top-level declaration with its symbols and line range, in source order", () => {
    const drafts = chunks(SOURCE)!
    assert.deepStrictEqual(drafts.map((d) => [d.symbols, d.lineStart, d.lineEnd]), [
      [["local", "LIMIT"], 1, 28],
      [["add"], 6, 9],
      [["Ledger"], 15, 17],
      [["Entry"], 19, 19],
      [["Id"], 20, 20],
      [["Side"], 21, 21],
      [["helper"], 22, 22],
      [["over"], 24, 26]
    ])
  })

  it("chunkCode - a declaration chunk is headed `{path} > {symbol}` and carries its doc comment", () => {
    const add = chunks(SOURCE)!.find((d) => d.symbols[0] === "add")!
    assert.strictEqual(
      add.text,
      "src/ledger.ts > add\n/** Adds two numbers. */\nexport function add(x: number, y: number): number {\n  return x + y\n}"
    )
  })

  it("chunkCode - imports, loose comments and top-level statements form the module chunk, headed by the path", () => {
    const module = chunks(SOURCE)![0]!
    assert.strictEqual(
      module.text,
      [
        "src/ledger.ts",
        "/** The ledger module. */",
        "",
        "import { a } from \"./a.ts\"",
        "import type { B } from \"./b.ts\"",
        "const local = 1 // kept with the module",
        "",
        "export const LIMIT = 10",
        "console.log(helper(1))"
      ].join("\n")
    )
    assert.deepStrictEqual(module.headingPath, [])
  })

  it("chunkCode - a one-line exported constant joins the module chunk with its comment; a longer one or a function value is its own chunk", () => {
    const source = [
      "/** Limits of the scan. */",
      "import { a } from \"./a.ts\"",
      "",
      "/** The most files one batch holds. */",
      "export const MAX_BATCH = 200",
      "",
      "export const LEVELS = {",
      "  low: 1,",
      "  high: 2",
      "}",
      "",
      "export const double = (n: number) => n * 2"
    ].join("\n")
    const drafts = chunks(source)!
    assert.deepStrictEqual(drafts.map((d) => [d.symbols, d.lineStart, d.lineEnd]), [
      [["MAX_BATCH"], 1, 5],
      [["LEVELS"], 7, 10],
      [["double"], 12, 12]
    ])
    assert.include(drafts[0]!.text, "/** The most files one batch holds. */\nexport const MAX_BATCH = 200")
  })

  it("chunkCode - a declaration over the target is split between its body statements, each piece within it", () => {
    const body = Array.from({ length: 20 }, (_, i) => `  const value${i} = compute(${i}, "some argument text")`).join("\n")
    const source = `export function big(): void {\n${body}\n}\n`
    const drafts = chunks(source, 200)!
    assert.isAbove(drafts.length, 2)
    for (const draft of drafts) {
      assert.deepStrictEqual(draft.symbols, ["big"])
      assert.isTrue(draft.text.startsWith("src/ledger.ts > big\n"))
      assert.isAtMost(utf8Length(draft.text), 200)
    }
    assert.isTrue(drafts[0]!.body.startsWith("export function big(): void {\n  const value0"))
    assert.isTrue(drafts[drafts.length - 1]!.body.endsWith("const value19 = compute(19, \"some argument text\")\n}"))
    // Statements are never cut: every body line is a whole statement.
    for (const draft of drafts) {
      for (const line of draft.body.split("\n")) assert.match(line, /^(export function big\(\): void \{|  const value\d+ = compute\(\d+, "some argument text"\)|\})$/)
    }
    assert.deepStrictEqual(drafts.map((d) => d.lineStart), [...drafts.map((d) => d.lineStart)].sort((a, b) => a - b))
  })

  it("chunkCode - a class over the target is split between members, an Effect.fn between its generator's statements", () => {
    const members = Array.from({ length: 10 }, (_, i) => `  method${i}() { return "a method body number ${i}" }`).join("\n")
    const classDrafts = chunks(`class Wide {\n${members}\n}\n`, 150)!
    assert.isAbove(classDrafts.length, 1)
    assert.isTrue(classDrafts.every((d) => d.body.split("\n").every((l) => /^(class Wide \{|  method\d+\(\) \{ return "a method body number \d+" \}|\})$/.test(l))))
    const steps = Array.from({ length: 10 }, (_, i) => `  const step${i} = yield* service.call("step number ${i}")`).join("\n")
    const fnDrafts = chunks(`export const run = Effect.fn("run")(function*() {\n${steps}\n})\n`, 150)!
    assert.isAbove(fnDrafts.length, 1)
    assert.isTrue(fnDrafts.every((d) => d.symbols[0] === "run" && d.body.split("\n").every((l) => /^(export const run = Effect\.fn\("run"\)\(function\*\(\) \{|  const step\d+ = yield\* service\.call\("step number \d+"\)|\}\))$/.test(l))))
  })

  it("chunkCode - a 60,000-character string literal chunks without error into pieces that rebuild it", () => {
    const literal = "x".repeat(60_000)
    const drafts = chunks(`export const blob = "${literal}"\n`)!
    assert.isTrue(drafts.every((d) => d.symbols[0] === "blob" && utf8Length(d.text) <= 350))
    assert.isTrue(drafts.map((d) => d.body).join("").includes(literal))
  })

  it("chunkCode - a 300 KB one-line script chunks without error", () => {
    const line = `var total="${"k1+".repeat(100_000)}"`
    const drafts = chunks(line, 350, "dist/bundle.js")!
    // Only the space between words falls between pieces; compared as a boolean so a failure stays readable.
    assert.isTrue(drafts.map((d) => d.body).join("") === line.replace(" ", ""))
    assert.isTrue(drafts.every((d) => d.lineStart === 1 && d.lineEnd === 1 && utf8Length(d.text) <= 350))
  })

  it("chunkCode - a default export and destructured bindings name their symbols", () => {
    const drafts = chunks("export default function () {}\nexport const { a, b: [c, d = 1] } = load()\n")!
    assert.deepStrictEqual(drafts.map((d) => d.symbols), [["default"], ["a", "c", "d"]])
  })

  it("chunkCode - a file that does not parse gives none, for the caller's line fallback", () => {
    assert.isUndefined(chunks("export function (", 350))
  })

  it("chunkCode - a chain of 150,000 operators is not handed to the parser, for the caller's line fallback", () => {
    // Serialising a tree that deep overflows the stack; the depth guard refuses it first.
    assert.isUndefined(chunks(`var total=${"1+".repeat(150_000)}1`, 350, "dist/bundle.js"))
  })
})
