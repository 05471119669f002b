import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import * as Grammars from "./Grammars.ts"
import { languageOfPath } from "./Languages.ts"
import { type OutlineUnit, outlineOf } from "./Outline.ts"
import { pack, unpack } from "./PackedUnits.ts"

const ROOT = join(import.meta.dirname, "../../test/fixtures/polyglot")
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).sort().flatMap((name) => statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)])

/** A unit with its children read, as plain data to compare. */
const plain = (unit: OutlineUnit) => ({ start: unit.start, end: unit.end, symbols: unit.symbols, declaration: unit.declaration, children: unit.children?.() })

describe("PackedUnits", () => {
  it("every fixture's units come back as they went in, children included", async () => {
    const files = filesUnder(ROOT).flatMap((file) => {
      const language = languageOfPath(relative(ROOT, file))
      return language === undefined ? [] : [{ file, language }]
    })
    await Grammars.ready(new Set(files.map(({ language }) => language.grammar)))
    let withChildren = 0
    for (const { file, language } of files) {
      const source = readFileSync(file, "utf8")
      const outline = Grammars.withTree(language.grammar, source, (tree) => outlineOf(language, source, tree))
      assert.notStrictEqual(typeof outline, "string", file)
      if (typeof outline === "string") continue
      const packed = pack(outline.units, source.length)
      assert.strictEqual(packed.sourceLength, source.length)
      assert.deepStrictEqual(unpack(packed).map(plain), outline.units.map(plain), file)
      withChildren += outline.units.filter((unit) => unit.children !== undefined).length
    }
    assert.isAbove(files.length, 20)
    assert.isAbove(withChildren, 5)
  }, 60_000)

  it("names keep every code unit, a lone surrogate and a long name too; an empty outline stays empty", () => {
    const long = "x".repeat(20_000)
    const units: Array<OutlineUnit> = [
      { start: 0, end: 4, symbols: [], declaration: false },
      { start: 5, end: 9, symbols: ["caf\u00e9", "\ud800lone", ""], declaration: true, children: () => [] },
      { start: 10, end: 30_000, symbols: [long], declaration: true, children: () => [{ start: 10, end: 20 }, { start: 21, end: 30_000 }] }
    ]
    assert.deepStrictEqual(unpack(pack(units, 30_000)).map(plain), units.map(plain))
    assert.deepStrictEqual(unpack(pack([], 0)), [])
  })

  it("offsets whose halves are surrogate code units, and past 65,535, come back the same through a worker's message", () => {
    const units: Array<OutlineUnit> = [
      { start: 0xd800, end: 0xdbff, symbols: ["a"], declaration: true, children: () => [{ start: 0xdc00, end: 0xdfff }] },
      { start: 0x1d800, end: 1_048_576, symbols: [], declaration: false }
    ]
    const packed = pack(units, 1_048_576)
    assert.deepStrictEqual(unpack(structuredClone(packed)).map(plain), units.map(plain))
  })
})
