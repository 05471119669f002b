import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repository, repositorySources } from "../../../test/support/RepositorySources.ts"
import { type CodeUnit, withOutline } from "./CodeOutline.ts"

/** The outline with every unit's parts, as plain data. */
const outline = (path: string, source: string, alone: boolean) =>
  withOutline(path, source, (units: ReadonlyArray<CodeUnit>) => units.map(({ children, ...unit }) => ({ ...unit, parts: children?.() ?? [] })), alone)

// Constructs whose ESTree (the default mode) and lazy spellings differ.
const SPELLINGS = `#!/usr/bin/env node
"use strict"
// the module's own comment
import { a } from "a"
export const run = () => {
  "use strict"
  first()
  second()
}
/** A namespace with a dotted name. */
namespace Q.R { export const q = 1; export const r = 2 }
declare global { interface Window { x: 1 } }
declare module "m" { export const y: 1 }
const { z, ...rest } = a
const [head, ...tail] = a
export default function named() { return 1 }
export enum Colour { Red, Green }
`

describe("withOutline alone", () => {
  it("outlines what the lazy mode outlines, where their trees spell it apart", () => {
    const alone = outline("spellings.ts", SPELLINGS, true)
    assert.deepStrictEqual(alone, outline("spellings.ts", SPELLINGS, false))
    const symbols = alone!.map((unit) => unit.symbols)
    assert.deepInclude(symbols, ["Q"])
    assert.deepInclude(symbols, ["z"])
    assert.deepInclude(symbols, ["head"])
    assert.deepInclude(symbols, ["named"])
    // The directive is not a statement of the function's, nor the `#!` line a comment of the file's.
    const run = alone!.find((unit) => unit.symbols.includes("run"))!
    assert.strictEqual(run.parts.length, 2)
    assert.isFalse(alone!.some((unit) => unit.start === 0))
  })

  it("takes no part for a hole in an array literal, which the lazy tree holds as a node and ESTree as null", () => {
    const text = `export const table = [, , ${Array.from({ length: 40 }, (_, i) => `"entry-${i}"`).join(", ")}, , "last", ]\n`
    const alone = outline("holes.ts", text, true)
    assert.deepStrictEqual(alone, outline("holes.ts", text, false))
    assert.strictEqual(alone![0]!.parts.length, 41)
  })

  it("outlines every source file of this repository as the lazy mode does", () => {
    const files = repositorySources()
    assert.isAbove(files.length, 150)
    for (const file of files) {
      const text = readFileSync(join(repository, file), "utf8")
      assert.deepStrictEqual(outline(file, text, true), outline(file, text, false), file)
    }
  }, 60_000) // parses every source file of the repository twice
})
