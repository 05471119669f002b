import { assert, describe, it } from "@effect/vitest"
import { bruteForce, makeIndex } from "./NearMiss.ts"

const paths = ["src/retrieval/rank.ts", "src/retrieval/fuse.ts", "docs/guide/setup.md", "src/index.ts"]

describe("NearMiss", () => {
  it("match - accepts a typo with a single candidate above the threshold", () => {
    assert.strictEqual(makeIndex(paths).match("src/retrieval/rnak.ts"), "src/retrieval/rank.ts")
    assert.strictEqual(makeIndex(paths).match("docs/guide/setpu.md"), "docs/guide/setup.md")
  })

  it("match - refuses when two candidates qualify", () => {
    const twins = ["src/retrieval/rank-a.ts", "src/retrieval/rank-b.ts"]
    assert.deepStrictEqual(makeIndex(twins).above("src/retrieval/rank-c.ts"), twins)
    assert.strictEqual(makeIndex(twins).match("src/retrieval/rank-c.ts"), undefined)
  })

  it("match - refuses a reference that is not close to anything", () => {
    assert.strictEqual(makeIndex(paths).match("lib/other/thing.ts"), undefined)
  })

  it("above - agrees with the unpruned comparison on these examples", () => {
    for (const query of ["src/retrieval/rnak.ts", "src/indx.ts", "docs/guide", "s", ""]) {
      assert.deepStrictEqual(makeIndex(paths).above(query), bruteForce(paths).above(query))
    }
  })
})
