import { assert, describe, it } from "@effect/vitest"
import * as PieceMemo from "./PieceMemo.ts"

describe("PieceMemo", () => {
  it("finds a piece by a stretch of any text, through growth, and starts over at its limit", () => {
    const memo = PieceMemo.make(10_000)
    const pieces = Array.from({ length: 9_000 }, (_, i) => ` w${i}`)
    pieces.forEach((piece, i) => memo.set(piece, i))
    const text = pieces.join("")
    let start = 0
    pieces.forEach((piece, i) => {
      assert.strictEqual(memo.get(text, start, start + piece.length), i)
      start += piece.length
    })
    // A stretch that is a prefix or an extension of a known piece is not that piece.
    assert.strictEqual(memo.get(" w12x", 0, 5), -1)
    assert.strictEqual(memo.get(" w12x", 0, 2), -1)
    assert.strictEqual(memo.get(" w12x", 0, 4), 12)
    for (let i = 0; i < 1_001; i++) memo.set(`extra${i}`, 1)
    assert.strictEqual(memo.get(" w5", 0, 3), -1)
    assert.strictEqual(memo.get("extra1000", 0, 9), 1)
  })
})
