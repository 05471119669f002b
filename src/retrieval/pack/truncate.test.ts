import { assert, describe, it } from "@effect/vitest"
import { truncateToFit } from "./truncate.ts"

const TEXT = "Guide > Budget\nThe packer fills greedily. It skips what does not fit\nand then cuts one claim at a boundary"

describe("truncateToFit", () => {
  it("prefers the longest sentence boundary that fits", () => {
    assert.strictEqual(truncateToFit(TEXT, (p) => p.length <= 60), "Guide > Budget\nThe packer fills greedily.")
  })

  it("takes a line boundary when no sentence boundary exists", () => {
    const text = "Guide > Budget\nno sentence ends here\nnor here and this line is long"
    assert.strictEqual(truncateToFit(text, (p) => p.length <= 50), "Guide > Budget\nno sentence ends here")
  })

  it("falls back to a word boundary", () => {
    const text = "Guide > Budget\nalpha beta gamma delta epsilon"
    assert.strictEqual(truncateToFit(text, (p) => p.length <= 31), "Guide > Budget\nalpha beta gamma")
  })

  it("never returns the opening line alone", () => {
    assert.isUndefined(truncateToFit("Guide > Budget\nalphabetagamma", (p) => p.length <= 20))
  })

  it("returns nothing when no boundary fits", () => {
    assert.isUndefined(truncateToFit(TEXT, () => false))
  })

  it("a single-line text may be cut at a word", () => {
    assert.strictEqual(truncateToFit("one two three four", (p) => p.length <= 9), "one two")
  })
})
