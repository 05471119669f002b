import { assert, describe, it } from "@effect/vitest"
import { approximateCount, bounded, hasOverlongPiece, longestPieceBytes, MAX_UNBROKEN_RUN_BYTES, utf8Length } from "./TokenCount.ts"

/** A stand-in exact counter that records what it was asked to count. */
const recording = () => {
  const calls: Array<string> = []
  return { calls, count: (text: string) => (calls.push(text), text.length) }
}

describe("tokens", () => {
  it("utf8Length - counts bytes as TextEncoder does, lone surrogates as U+FFFD", () => {
    for (const text of ["", "abc", "é", "字", "😀", "a😀b", "\ud800", "\udc00x", "\ud800\ud800"]) {
      assert.strictEqual(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text))
    }
  })

  it("longestPieceBytes - a word is one piece, digits split in threes", () => {
    assert.strictEqual(longestPieceBytes("hello world"), 6) // " world"
    assert.strictEqual(longestPieceBytes("1".repeat(50)), 3)
    assert.strictEqual(longestPieceBytes("a".repeat(600)), 600)
    assert.strictEqual(longestPieceBytes("字".repeat(10)), 30)
  })

  it("hasOverlongPiece - only past the limit", () => {
    assert.isFalse(hasOverlongPiece("a".repeat(MAX_UNBROKEN_RUN_BYTES)))
    assert.isTrue(hasOverlongPiece("a".repeat(MAX_UNBROKEN_RUN_BYTES + 1)))
    assert.isTrue(hasOverlongPiece("字".repeat(171)))
    assert.isFalse(hasOverlongPiece("word ".repeat(10_000)))
  })

  it("bounded - sums the pieces, asking the encoder once per distinct piece", () => {
    const exact = recording()
    const count = bounded(exact.count)
    assert.strictEqual(count("the cat the cat"), "the cat the cat".length)
    assert.deepStrictEqual(exact.calls, ["the", " cat", " the"])
    count("the cat")
    assert.strictEqual(exact.calls.length, 3)
  })

  it("bounded - an over-long piece is charged its bytes and the rest counted around it", () => {
    const exact = recording()
    const long = "x".repeat(1_000)
    const total = bounded(exact.count)(`before ${long} after`)
    // The letter piece carries its leading space: " xxx…" is 1,001 bytes.
    assert.deepStrictEqual(exact.calls, ["before", " after"])
    assert.strictEqual(total, "before".length + 1_001 + " after".length)
  })

  it("bounded - a long run of spaces is a piece too", () => {
    const exact = recording()
    bounded(exact.count)(`a${" ".repeat(2_000)}b`)
    assert.deepStrictEqual(exact.calls, ["a", " b"])
  })

  it("bounded - a megabyte of one letter costs one byte a token", () => {
    const exact = recording()
    assert.strictEqual(bounded(exact.count)("a".repeat(1_000_000)), 1_000_000)
    assert.deepStrictEqual(exact.calls, [])
  })

  it("approximateCount - four characters a token plus two per message", () => {
    assert.strictEqual(approximateCount(""), 2)
    assert.strictEqual(approximateCount("abcd"), 3)
    assert.strictEqual(approximateCount("abcde"), 4)
  })
})
