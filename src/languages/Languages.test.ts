import { assert, describe, it } from "@effect/vitest"
import { mayMoveRanking } from "./Languages.ts"

describe("Languages", () => {
  it("mayMoveRanking - calls and test siblings move no ranking until a configuration adopts them", () => {
    for (const kind of ["imports", "links-to", "depends_on"]) assert.isTrue(mayMoveRanking("src/pack.ts", kind), kind)
    for (const kind of ["calls", "test_sibling"]) {
      assert.isFalse(mayMoveRanking("src/pack.ts", kind), kind)
      assert.isTrue(mayMoveRanking("src/pack.ts", kind, { typescript: [kind] }), kind)
      assert.isFalse(mayMoveRanking("src/pack.ts", kind, { python: [kind] }), kind)
    }
  })

  it("mayMoveRanking - a tree-sitter language follows only what its spec or the configuration adopted", () => {
    assert.isFalse(mayMoveRanking("app/invoice.py", "imports"))
    assert.isTrue(mayMoveRanking("app/invoice.py", "imports", { python: ["imports"] }))
    assert.isFalse(mayMoveRanking("app/invoice.py", "test_sibling", { python: ["imports"] }))
  })
})
