import { assert, describe, it } from "@effect/vitest"
import { relatedPaths, subjectName, MAX_RELATED_PATHS } from "./relatedPaths.ts"

const edge = (from: string, to: string, verb = "imports") => ({ from, to, verb })

describe("relatedPaths", () => {
  it("a file's tests are its siblings, not among what imports it; the rest split by direction", () => {
    const edges = [
      edge("src/pack.ts", "src/tokens.ts"),
      edge("src/pack.ts", "src/types.ts", "imports-type"),
      edge("src/recall.ts", "src/pack.ts"),
      edge("src/pack.test.ts", "src/pack.ts"),
      // A test of something else that happens to import it.
      edge("test/recall.test.ts", "src/pack.ts"),
      edge("docs/packing.md", "src/pack.ts", "mentions"),
      edge("src/other.ts", "src/elsewhere.ts")
    ]
    assert.deepStrictEqual(relatedPaths("src/pack.ts", edges), {
      imports: ["src/tokens.ts", "src/types.ts"],
      importedBy: ["src/recall.ts", "test/recall.test.ts"],
      testSiblings: ["src/pack.test.ts"]
    })
    // From the test's side, its subject is the sibling.
    assert.deepStrictEqual(relatedPaths("src/pack.test.ts", edges), { imports: [], importedBy: [], testSiblings: ["src/pack.ts"] })
  })

  it("names a test by each language's convention, in any folder", () => {
    assert.strictEqual(subjectName("src/retrieval/pack.test.ts"), "pack")
    assert.strictEqual(subjectName("web/Cart.spec.tsx"), "cart")
    assert.strictEqual(subjectName("go/cart/cart_test.go"), "cart")
    assert.strictEqual(subjectName("tests/test_invoice.py"), "invoice")
    assert.strictEqual(subjectName("Makefile"), "makefile")
    const edges = [edge("tests/test_invoice.py", "billing/invoice.py"), edge("tests/test_invoice.py", "billing/tax.py")]
    assert.deepStrictEqual(relatedPaths("billing/invoice.py", edges).testSiblings, ["tests/test_invoice.py"])
    assert.deepStrictEqual(relatedPaths("billing/tax.py", edges), { imports: [], importedBy: ["tests/test_invoice.py"], testSiblings: [] })
  })

  it("keeps the first paths of each kind in path order, each once", () => {
    const edges = Array.from({ length: 25 }, (_, i) => edge(`src/caller${String(i).padStart(2, "0")}.ts`, "src/hub.ts"))
    const related = relatedPaths("src/hub.ts", [...edges, ...edges].reverse())
    assert.strictEqual(related.importedBy.length, MAX_RELATED_PATHS)
    assert.deepStrictEqual(related.importedBy, edges.slice(0, MAX_RELATED_PATHS).map((e) => e.from))
  })
})
