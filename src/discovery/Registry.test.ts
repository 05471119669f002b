import { assert, describe, it } from "@effect/vitest"
import type { Analyzer } from "./FileAnalysis.ts"
import { kinds, make, runAnalyzer } from "./Registry.ts"
import { standard } from "./StandardAnalyzers.ts"
import { LANGUAGES } from "./TypeScriptAnalyzer.ts"

const throwing: Analyzer = {
  id: "explosive",
  version: "7",
  extensions: [".boom"],
  fileNamePattern: undefined,
  analyze: () => {
    throw new Error("parser blew up\nwith a stack")
  }
}

describe("Registry", () => {
  it("analyzerFor - file names first, then extensions", () => {
    assert.strictEqual(standard.analyzerFor("packages/a/package.json")?.id, "manifest")
    assert.strictEqual(standard.analyzerFor("tsconfig.base.json")?.id, "tsconfig")
    assert.strictEqual(standard.analyzerFor("src/x.MTS")?.id, "typescript")
    assert.strictEqual(standard.analyzerFor("docs/a.mdx")?.id, "markdown")
    // Any other JSON is configuration text, chunked by lines; a container build file by its name.
    assert.strictEqual(standard.analyzerFor("data/file.json")?.id, "text")
    assert.strictEqual(standard.analyzerFor("deploy/Containerfile")?.id, "text")
    assert.strictEqual(standard.analyzerFor("py/billing/invoice.py")?.id, "python")
    assert.strictEqual(standard.analyzerFor("include/util.h")?.id, "cpp")
    assert.strictEqual(standard.analyzerFor("data/file.bin"), undefined)
  })

  it("versions - every analyzer, keys sorted", () => {
    assert.deepStrictEqual(Object.keys(make([throwing, ...standard.analyzers]).versions), [
      "bash",
      "c",
      "cpp",
      "csharp",
      "explosive",
      "go",
      "gomod",
      "java",
      "kotlin",
      "manifest",
      "markdown",
      "php",
      "python",
      "ruby",
      "rust",
      "swift",
      "text",
      "tsconfig",
      "typescript"
    ])
  })

  it("kinds - the standard registry's files, ids and versions, known without its analyzers", () => {
    assert.deepStrictEqual(kinds.versions, standard.versions)
    assert.deepStrictEqual(kinds.analyzers.map((kind) => [kind.id, kind.extensions, String(kind.fileNamePattern)]),
      standard.analyzers.map((analyzer) => [analyzer.id, analyzer.extensions, String(analyzer.fileNamePattern)]))
    for (const path of ["packages/a/package.json", "tsconfig.base.json", "src/x.MTS", "docs/a.mdx", "a.jsx", "data/file.json", "README"]) {
      assert.strictEqual(kinds.analyzerFor(path)?.id, standard.analyzerFor(path)?.id, path)
    }
    assert.deepStrictEqual([...Object.keys(LANGUAGES)].sort(), [...standard.analyzerFor("a.ts")!.extensions].sort())
  })

  it("runAnalyzer - a throw costs that file only, as a failed note", () => {
    const analysis = runAnalyzer(throwing, "x.boom", "")
    assert.strictEqual(analysis.facts, undefined)
    assert.deepStrictEqual(analysis.notes, [{ status: "failed", reason: "explosive analyzer threw: parser blew up" }])
  })
})
