import { assert, describe, it } from "@effect/vitest"
import type { ModuleFacts } from "./FileAnalysis.ts"
import { runAnalyzer } from "./Registry.ts"
import { MAX_PARSE_DEPTH } from "../source/ParseDepth.ts"
import { TypeScriptAnalyzer } from "./TypeScriptAnalyzer.ts"

const SOURCE = `// héllo ✓ — offsets stay UTF-16
import { a, type B } from "./a.js"
import type { C } from "./c"
import "./side-effect"
export * from "./barrel"
export * as ns from "./ns"
export { d as renamed } from "./d"
export { a as again }
export default function main() {}
export const k = 1
export interface Shape {}
function local() {}
const lazy = await import("./lazy")
const computed = import(name)
const required = require("./req")
`

const facts = (path: string, text: string): ModuleFacts => {
  const analysis = TypeScriptAnalyzer.analyze(path, text)
  assert.strictEqual(analysis.facts?._tag, "module")
  return analysis.facts as ModuleFacts
}

describe("TypeScriptAnalyzer", () => {
  it("analyze - records every kind of import with its line", () => {
    const references = facts("src/x.ts", SOURCE).references.map((r) => `${r.kind} ${r.specifier} ${r.line}`).sort()
    assert.deepStrictEqual(references, [
      "imports ./a.js 2",
      "imports ./side-effect 4",
      "imports-dynamic ./lazy 13",
      "imports-type ./c 3",
      "re-exports ./a.js 8",
      "re-exports ./barrel 5",
      "re-exports ./d 7",
      "re-exports ./ns 6",
      "requires ./req 15"
    ])
  })

  it("analyze - marks names declared here apart from names passed through", () => {
    const exports = facts("src/x.ts", SOURCE).exports.map((e) => `${e.name}:${e.declared ? "declared" : "re-export"}:${e.typeOnly}:${e.line}`)
    assert.deepStrictEqual(exports, [
      "Shape:declared:true:11",
      "again:re-export:false:8",
      "default:declared:false:9",
      "k:declared:false:10",
      "ns:re-export:false:6",
      "renamed:re-export:false:7"
    ])
  })

  it("analyze - lists top-level declarations in line order", () => {
    const declarations = facts("src/x.ts", SOURCE).declarations.map((d) => `${d.kind} ${d.name} ${d.line}`)
    assert.deepStrictEqual(declarations, [
      "function main 9",
      "variable k 10",
      "interface Shape 11",
      "function local 12",
      "variable lazy 13",
      "variable computed 14",
      "variable required 15"
    ])
  })

  it("analyze - reports a computed dynamic target as not analysed", () => {
    const notes = TypeScriptAnalyzer.analyze("src/x.ts", SOURCE).notes
    assert.deepStrictEqual(notes.map((n) => n.status), ["not-analyzed"])
    assert.include(notes[0]!.reason, "line 14")
  })

  it("analyze - all-literal dynamic loads are complete", () => {
    const notes = TypeScriptAnalyzer.analyze("src/x.ts", `const a = import("./a")\nconst b = require(\`./b\`)\n`).notes
    assert.deepStrictEqual(notes.map((n) => n.status), ["complete"])
  })

  it("analyze - a syntax error fails the file and keeps no facts", () => {
    const analysis = TypeScriptAnalyzer.analyze("src/bad.ts", "export const = ;\n")
    assert.strictEqual(analysis.facts, undefined)
    assert.deepStrictEqual(analysis.notes.map((n) => n.status), ["failed"])
    assert.include(analysis.notes[0]!.reason, "line 1")
  })

  it("analyze - refuses nesting the parser cannot take, and the registry turns that into a failed note", () => {
    const deep = `${"(".repeat(MAX_PARSE_DEPTH + 1)}${")".repeat(MAX_PARSE_DEPTH + 1)}`
    assert.throws(() => TypeScriptAnalyzer.analyze("src/deep.ts", deep))
    const analysis = runAnalyzer(TypeScriptAnalyzer, "src/deep.ts", deep)
    assert.strictEqual(analysis.facts, undefined)
    assert.strictEqual(analysis.notes[0]?.status, "failed")
  })

  it("analyze - reads JSX and TypeScript's import-equals", () => {
    const tsx = facts("src/view.tsx", `import React from "react"\nexport const View = () => <div>{1}</div>\n`)
    assert.strictEqual(tsx.language, "tsx")
    const cjs = facts("src/old.cts", `import fs = require("node:fs")\n`)
    assert.deepStrictEqual(cjs.references.map((r) => `${r.kind} ${r.specifier}`), ["imports node:fs"])
  })

  it("analyze - a call of an imported binding is a calls reference naming the export, once per line", () => {
    const text = `import { run, type Shape } from "./run"\nimport * as lib from "lib"\nrun(); run(run())\nlib.go()\nconst s: Shape = {}\n`
    const calls = facts("src/x.ts", text).references.filter((r) => r.kind === "calls")
    assert.deepStrictEqual(calls, [
      { kind: "calls", specifier: "./run", line: 3, symbol: "run" },
      { kind: "calls", specifier: "lib", line: 4, symbol: "go" }
    ])
  })
})
