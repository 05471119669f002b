import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repository, repositorySources } from "../../test/support/RepositorySources.ts"
import { type ParsedModule, parseModule, parseModuleAlone } from "./OxcModule.ts"

const plain = (parsed: ParsedModule) => ({ ...parsed, importedNames: [...parsed.importedNames].sort() })

// Constructs whose ESTree (the default mode) and lazy spellings differ.
const SPELLINGS = `#!/usr/bin/env node
"use strict"
import a, { b as c, type D } from "x"
import * as NS from "ns"
export { c as d, a }
export * from "star"
export * as S from "star2"
const m = 1
export default m
export const v = 1, w = 2
export class K {}
export interface I {}
export type T = 1
export enum En { A }
export namespace N {}
namespace Q.R { export const q = 1 }
module Legacy {}
declare module "m" {}
declare global {}
function f(): void
function f() { return require(require("inner")) }
const { z, ...rest } = q
const [first, ...others] = list
import y = require("yy")
const dyn = import("dd" + suffix)
const é = "ü😀"; const after = require(\`tpl\`)
export type { T as TT }
`

describe("parseModuleAlone", () => {
  it("reads what the lazy mode reads, where their trees spell it apart", () => {
    const alone = parseModuleAlone("spellings.ts", SPELLINGS)
    assert.deepStrictEqual(plain(alone), plain(parseModule("spellings.ts", SPELLINGS)))
    assert.deepStrictEqual(alone.errors, [])
    assert.deepInclude(alone.declarations, { name: "Q", kind: "namespace", offset: SPELLINGS.indexOf("namespace Q.R") })
    assert.isFalse(alone.declarations.some((d) => d.name === "global"))
    assert.deepInclude(alone.exports, { name: "default", offset: SPELLINGS.indexOf("m\n", SPELLINGS.indexOf("export default")), local: "m", from: null, imported: null, typeOnly: false })
    assert.deepStrictEqual(alone.loads.filter((load) => load.kind === "requires").map((load) => load.text), ["require(\"inner\")", "\"inner\"", "`tpl`"])
  })

  it("reads calls of imported bindings alike in both modes: direct, namespace member, static member, new", () => {
    const text = [
      `import main, { run as go, Cls, type T } from "./x"`,
      `import * as ns from "./ns"`,
      `go(1); ns.f(); ns["g"](); new Cls(); Cls.make(); main?.(); other.call(); T()`,
      `function inner() { return go(ns.h(2)) }`
    ].join("\n")
    const lazy = parseModule("calls.ts", text)
    assert.deepStrictEqual(plain(parseModuleAlone("calls.ts", text)), plain(lazy))
    assert.deepStrictEqual(lazy.calls.map((c) => `${c.specifier} ${c.symbol} ${text.slice(c.offset, c.offset + 4)}`), [
      "./x run go(1",
      "./ns f ns.f",
      "./x Cls new ",
      "./x Cls.make Cls.",
      "./x default main",
      "./x run go(n",
      "./ns h ns.h"
    ])
  })

  it("reads a file nested as deep as the analyzer takes, a require at the bottom", () => {
    const deep = `const x = ${"(".repeat(990)}require("deep")${")".repeat(990)}\n`
    assert.deepStrictEqual(plain(parseModuleAlone("deep.ts", deep)), plain(parseModule("deep.ts", deep)))
    assert.deepStrictEqual(parseModuleAlone("deep.ts", deep).loads.map((load) => load.literal), ["deep"])
  })

  it("passes over a class's extends clause in both modes, since the lazy walker does not visit it", () => {
    const text = `class Emitter extends require("./base") {}\nmodule.exports = class extends require("events") {}\nconst used = require("./used")\n`
    assert.deepStrictEqual(plain(parseModuleAlone("extends.cjs", text)), plain(parseModule("extends.cjs", text)))
    assert.deepStrictEqual(parseModuleAlone("extends.cjs", text).loads.map((load) => load.literal), ["./used"])
  })

  it("reads a chain of thousands of operators, which overflows the lazy walker, as the default mode does", () => {
    const text = `const s = "a"${" + \"a\"".repeat(4000)}\nmodule.exports = require("./x")\n`
    const lazy = parseModule("chain.js", text)
    assert.deepStrictEqual(plain(lazy), plain(parseModuleAlone("chain.js", text)))
    assert.deepStrictEqual(lazy.loads.map((load) => load.literal), ["./x"])
  })

  it("reports a syntax error as the lazy mode does", () => {
    const broken = "export const = 1\n"
    assert.deepStrictEqual(plain(parseModuleAlone("broken.ts", broken)), plain(parseModule("broken.ts", broken)))
    assert.isAbove(parseModuleAlone("broken.ts", broken).errors.length, 0)
  })

  it("reads every source file of this repository as the lazy mode does", () => {
    const files = repositorySources()
    assert.isAbove(files.length, 150)
    for (const file of files) {
      const text = readFileSync(join(repository, file), "utf8")
      assert.deepStrictEqual(plain(parseModuleAlone(file, text)), plain(parseModule(file, text)), file)
    }
  }, 60_000) // parses every source file of the repository twice
})
