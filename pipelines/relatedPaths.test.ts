import { assert, describe, it } from "@effect/vitest"
import { relatedPaths, MAX_RELATED_PATHS } from "./relatedPaths.ts"

const edge = (from: string, to: string, verb = "imports") => ({ from, to, verb })

describe("relatedPaths", () => {
  it("a file's tests are its siblings, not among what imports it; the rest split by direction", () => {
    const edges = [
      edge("src/pack.ts", "src/tokens.ts"),
      edge("src/pack.ts", "src/types.ts", "imports-type"),
      edge("src/recall.ts", "src/pack.ts"),
      edge("src/pack.test.ts", "src/pack.ts"),
      edge("src/pack.test.ts", "src/pack.ts", "calls"),
      edge("src/pack.test.ts", "src/pack.ts", "test_sibling"),
      // A test of something else that happens to import it.
      edge("test/recall.test.ts", "src/pack.ts"),
      edge("docs/packing.md", "src/pack.ts", "mentions"),
      edge("src/other.ts", "src/elsewhere.ts")
    ]
    assert.deepStrictEqual(relatedPaths("src/pack.ts", edges), {
      imports: ["src/tokens.ts", "src/types.ts"],
      importedBy: ["src/recall.ts", "test/recall.test.ts"],
      calls: [],
      calledBy: [],
      testSiblings: ["src/pack.test.ts"]
    })
    // From the test's side, its subject is the sibling.
    assert.deepStrictEqual(relatedPaths("src/pack.test.ts", edges), { imports: [], importedBy: [], calls: [], calledBy: [], testSiblings: ["src/pack.ts"] })
  })

  it("calls split by direction, beside the imports that carry them", () => {
    const edges = [
      edge("src/recall.ts", "src/pack.ts"),
      edge("src/recall.ts", "src/pack.ts", "calls"),
      edge("src/pack.ts", "src/tokens.ts"),
      edge("src/pack.ts", "src/tokens.ts", "calls"),
      edge("src/pack.ts", "src/types.ts", "imports-type")
    ]
    assert.deepStrictEqual(relatedPaths("src/pack.ts", edges), {
      imports: ["src/tokens.ts", "src/types.ts"],
      importedBy: ["src/recall.ts"],
      calls: ["src/tokens.ts"],
      calledBy: ["src/recall.ts"],
      testSiblings: []
    })
  })

  it("a test is a sibling only where discovery said so: an import of a same-named file is an import", () => {
    const edges = [edge("tests/test_invoice.py", "billing/invoice.py"), edge("tests/test_invoice.py", "billing/tax.py")]
    assert.deepStrictEqual(relatedPaths("billing/invoice.py", edges).testSiblings, [])
    const stored = [...edges, edge("tests/test_invoice.py", "billing/invoice.py", "test_sibling")]
    assert.deepStrictEqual(relatedPaths("billing/invoice.py", stored).testSiblings, ["tests/test_invoice.py"])
    assert.deepStrictEqual(relatedPaths("billing/tax.py", stored), { imports: [], importedBy: ["tests/test_invoice.py"], calls: [], calledBy: [], testSiblings: [] })
  })

  it("keeps the first paths of each kind in path order, each once", () => {
    const edges = Array.from({ length: 25 }, (_, i) => edge(`src/caller${String(i).padStart(2, "0")}.ts`, "src/hub.ts"))
    const related = relatedPaths("src/hub.ts", [...edges, ...edges].reverse())
    assert.strictEqual(related.importedBy.length, MAX_RELATED_PATHS)
    assert.deepStrictEqual(related.importedBy, edges.slice(0, MAX_RELATED_PATHS).map((e) => e.from))
  })
})
