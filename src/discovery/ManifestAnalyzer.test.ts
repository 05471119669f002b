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

  it("analyze - reads subpath imports with every file target in condition order, leaving out what names no file", () => {
    const facts = ManifestAnalyzer.analyze("package.json", JSON.stringify({
      imports: {
        "#lib/*": "./src/lib/*.ts",
        "#config": { types: "./src/config.ts", import: "./dist/config.js", default: "./dist/config.js" },
        "#fallback": ["./src/a.js", { node: "./src/b.js" }],
        "#dep": "lodash",
        "#blocked": null,
        "not-a-subpath": "./x.ts"
      }
    })).facts as ManifestFacts
    assert.deepStrictEqual(facts.imports, [
      { pattern: "#lib/*", targets: ["./src/lib/*.ts"] },
      { pattern: "#config", targets: ["./dist/config.js", "./src/config.ts"] },
      { pattern: "#fallback", targets: ["./src/a.js", "./src/b.js"] }
    ])
    assert.deepStrictEqual((ManifestAnalyzer.analyze("package.json", "{}").facts as ManifestFacts).imports, [])
  })

  it("analyze - falls back to main and fails cleanly on broken JSON", () => {
    const facts = ManifestAnalyzer.analyze("package.json", `{"main":"lib/index.js"}`).facts as ManifestFacts
    assert.deepStrictEqual(facts.entryPoints, [{ subpath: ".", target: "lib/index.js" }])
    const broken = ManifestAnalyzer.analyze("package.json", "{ nope")
    assert.strictEqual(broken.facts, undefined)
    assert.strictEqual(broken.notes[0]?.status, "failed")
  })
})
