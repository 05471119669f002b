import { assert, describe, it } from "@effect/vitest"
import type { ManifestFacts } from "./FileAnalysis.ts"
import { ManifestAnalyzer } from "./ManifestAnalyzer.ts"

describe("ManifestAnalyzer", () => {
  it("analyze - reads name, dependencies with lines, workspaces and entry points", () => {
    const text = JSON.stringify({
      name: "@demo/app",
      version: "1.0.0",
      workspaces: { packages: ["packages/*"] },
      exports: { ".": { types: "./dist/index.d.ts", import: "./src/index.ts" }, "./internal/*": null, "./*": "./src/*.ts" },
      dependencies: { lodash: "^4" },
      devDependencies: { vitest: "^5" }
    }, null, 2)
    const facts = ManifestAnalyzer.analyze("package.json", text).facts as ManifestFacts
    assert.strictEqual(facts.name, "@demo/app")
    assert.deepStrictEqual(facts.workspaces, ["packages/*"])
    assert.deepStrictEqual(facts.entryPoints, [{ subpath: ".", target: "./src/index.ts" }, { subpath: "./*", target: "./src/*.ts" }])
    const lines = text.split("\n")
    assert.deepStrictEqual(facts.dependencies.map((d) => [d.name, lines[d.line - 1]!.trim()]), [
      ["lodash", "\"lodash\": \"^4\""],
      ["vitest", "\"vitest\": \"^5\""]
    ])
  })

  it("analyze - falls back to main and fails cleanly on broken JSON", () => {
    const facts = ManifestAnalyzer.analyze("package.json", `{"main":"lib/index.js"}`).facts as ManifestFacts
    assert.deepStrictEqual(facts.entryPoints, [{ subpath: ".", target: "lib/index.js" }])
    const broken = ManifestAnalyzer.analyze("package.json", "{ nope")
    assert.strictEqual(broken.facts, undefined)
    assert.strictEqual(broken.notes[0]?.status, "failed")
  })
})
