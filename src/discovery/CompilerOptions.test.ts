import { assert, describe, it } from "@effect/vitest"
import { configLookup, resolveCompilerOptions } from "./CompilerOptions.ts"
import type { TsConfigFacts } from "./FileAnalysis.ts"

const config = (facts: Partial<TsConfigFacts>): TsConfigFacts => ({
  _tag: "tsconfig",
  extends: [],
  baseUrl: undefined,
  paths: undefined,
  ...facts
})

describe("CompilerOptions", () => {
  it("resolveCompilerOptions - applies extends, child first, paths relative to baseUrl", () => {
    const resolved = resolveCompilerOptions([
      { path: "tsconfig.base.json", contentHash: "b", facts: config({ baseUrl: ".", paths: [{ pattern: "@x/*", targets: ["lib/x/*"] }] }) },
      { path: "packages/app/tsconfig.json", contentHash: "a", facts: config({ extends: ["../../tsconfig.base.json"] }) },
      { path: "packages/web/tsconfig.json", contentHash: "w", facts: config({ extends: ["../../tsconfig.base"], paths: [{ pattern: "~/*", targets: ["./src/*"] }] }) },
      { path: "packages/ext/tsconfig.json", contentHash: "e", facts: config({ extends: ["@tsconfig/node20/tsconfig.json"] }) }
    ])
    assert.deepStrictEqual(resolved.options.map((o) => [o.path, o.baseUrl, o.paths.map((p) => `${p.pattern}=>${p.targets.join(",")}`)]), [
      ["packages/app/tsconfig.json", "", ["@x/*=>lib/x/*"]],
      ["packages/ext/tsconfig.json", null, []],
      ["packages/web/tsconfig.json", "", ["~/*=>src/*"]]
    ])
    assert.deepStrictEqual([...resolved.notes.keys()], ["packages/ext/tsconfig.json"])
  })

  it("resolveCompilerOptions - without baseUrl, paths are relative to the declaring file", () => {
    const resolved = resolveCompilerOptions([
      { path: "web/tsconfig.json", contentHash: "w", facts: config({ paths: [{ pattern: "~/*", targets: ["./src/*"] }] }) }
    ])
    assert.deepStrictEqual(resolved.options[0]?.paths, [{ pattern: "~/*", targets: ["web/src/*"] }])
  })

  it("configLookup - the nearest project config above a file governs it", () => {
    const lookup = configLookup(resolveCompilerOptions([
      { path: "tsconfig.json", contentHash: "r", facts: config({}) },
      { path: "packages/app/tsconfig.json", contentHash: "a", facts: config({}) }
    ]).options)
    assert.strictEqual(lookup("packages/app/src/x.ts")?.path, "packages/app/tsconfig.json")
    assert.strictEqual(lookup("packages/other/x.ts")?.path, "tsconfig.json")
  })
})
