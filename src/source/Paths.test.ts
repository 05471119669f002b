import { assert, describe, it } from "@effect/vitest"
import { ancestors, extname, normalize, resolve, truncate } from "./Paths.ts"

describe("Paths", () => {
  it("normalize - collapses dot segments and refuses to climb above the root", () => {
    assert.strictEqual(normalize("a/./b//c/../d"), "a/b/d")
    assert.strictEqual(normalize("a/../.."), undefined)
    assert.strictEqual(normalize("./"), "")
  })

  it("resolve - is relative to a directory, or to the root with a leading slash", () => {
    assert.strictEqual(resolve("docs/guide", "../src/x.ts"), "docs/src/x.ts")
    assert.strictEqual(resolve("docs/guide", "/src/x.ts"), "src/x.ts")
    assert.strictEqual(resolve("", "../x"), undefined)
  })

  it("extname - lower-cases and ignores a leading dot", () => {
    assert.strictEqual(extname("src/A.TS"), ".ts")
    assert.strictEqual(extname("src/.env"), "")
    assert.strictEqual(extname("Makefile"), "")
  })

  it("ancestors - nearest first, ending at the root", () => {
    assert.deepStrictEqual(ancestors("a/b/c.ts"), ["a/b", "a", ""])
    assert.deepStrictEqual(ancestors("c.ts"), [""])
  })

  it("truncate - keeps the first segments", () => {
    assert.strictEqual(truncate("src/retrieval/stages", 2), "src/retrieval")
    assert.strictEqual(truncate("src", 2), "src")
  })
})
