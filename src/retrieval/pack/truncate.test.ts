import { assert, describe, it } from "@effect/vitest"
import { ELISION, truncateAround, truncateToFit } from "./truncate.ts"

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

describe("truncateAround", () => {
  const text = "Guide > Budget\nThe packer fills greedily. It skips what does not fit. The budget is never exceeded. Done."
  const sentence = { start: text.indexOf("The budget"), end: text.indexOf(" Done.") }

  it("keeps the opening line, an elision and the sentence when the prefix would lose it", () => {
    assert.strictEqual(truncateAround(text, sentence, (p) => p.length <= 50), `Guide > Budget\n${ELISION} The budget is never exceeded.`)
  })

  it("is undefined when the fitting prefix already holds the sentence", () => {
    assert.isUndefined(truncateAround(text, sentence, (p) => p.length <= text.length - 2))
  })

  it("is undefined when the sentence itself does not fit, or sits on the opening line", () => {
    assert.isUndefined(truncateAround(text, sentence, (p) => p.length <= 30))
    assert.isUndefined(truncateAround(text, { start: 0, end: 5 }, () => true))
  })
})
