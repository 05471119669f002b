import { assert, describe, it } from "@effect/vitest"
import type { ModuleReference } from "./FileAnalysis.ts"
import { moduleRelations, referencesOf } from "./ModuleRelations.ts"
import type { Resolver } from "./ModuleResolution.ts"

const resolve: Resolver = (_from, specifier) =>
  specifier.startsWith("./") ? `module:src/${specifier.slice(2)}.ts` : `external:${specifier}`

const summary = (relations: ReturnType<typeof moduleRelations>) =>
  relations.map((r) => `${r.kind} ${r.to} ${r.evidence.map((e) => `${e.line}:${e.text}${e.symbol === undefined ? "" : `#${e.symbol}`}`).join(",")}`)

describe("moduleRelations", () => {
  it("a call of an imported binding joins the caller to the module, the export called in its evidence; calls into packages are not kept", () => {
    const references: Array<ModuleReference> = [
      { kind: "imports", specifier: "./pack", line: 1 },
      { kind: "imports", specifier: "effect", line: 2 },
      { kind: "calls", specifier: "./pack", line: 5, symbol: "pack" },
      { kind: "calls", specifier: "./pack", line: 7, symbol: "Packer.make" },
      { kind: "calls", specifier: "effect", line: 8, symbol: "Effect.gen" }
    ]
    assert.deepStrictEqual(summary(moduleRelations("src/recall.ts", references, resolve)), [
      "imports module:src/pack.ts 1:./pack",
      "imports external:effect 2:effect",
      "calls module:src/pack.ts 5:./pack#pack,7:./pack#Packer.make"
    ])
  })

  it("a test importing a module of its own name is its test_sibling, with the import's evidence", () => {
    const references: Array<ModuleReference> = [
      { kind: "imports", specifier: "./pack", line: 1 },
      { kind: "imports-type", specifier: "./pack", line: 2 },
      { kind: "imports", specifier: "./tokens", line: 3 },
      { kind: "re-exports", specifier: "./pack", line: 4 }
    ]
    const relations = summary(moduleRelations("src/pack.test.ts", references, resolve))
    assert.include(relations, "test_sibling module:src/pack.ts 1:./pack,2:./pack")
    assert.notInclude(relations.join("\n"), "test_sibling module:src/tokens.ts")
    // A file that is not a test has no sibling, whatever it imports.
    assert.notInclude(summary(moduleRelations("src/pack.bundle.ts", references, resolve)).join("\n"), "test_sibling")
  })

  it("referencesOf - the relations' evidence gives back the references, calls with their exports, so re-resolving changes nothing", () => {
    const references: Array<ModuleReference> = [
      { kind: "imports", specifier: "./pack", line: 1 },
      { kind: "calls", specifier: "./pack", line: 3, symbol: "pack" },
      { kind: "calls", specifier: "./pack", line: 3, symbol: "unpack" }
    ]
    const relations = moduleRelations("src/pack.test.ts", references, resolve)
    assert.deepStrictEqual(moduleRelations("src/pack.test.ts", referencesOf(relations), resolve), relations)
    assert.strictEqual(referencesOf(relations).length, 3)
  })
})
