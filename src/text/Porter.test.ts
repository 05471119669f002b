import { assert, describe, it } from "@effect/vitest"
import { stem } from "./Porter.ts"

// Expected stems are the worked examples of Porter's paper, as FTS5's `porter` returns them.
const CASES: ReadonlyArray<readonly [string, string]> = [
  ["caresses", "caress"], ["ponies", "poni"], ["ties", "ti"], ["caress", "caress"], ["cats", "cat"],
  ["feed", "feed"], ["agreed", "agre"], ["plastered", "plaster"], ["bled", "bled"], ["motoring", "motor"],
  ["sing", "sing"], ["conflated", "conflat"], ["troubled", "troubl"], ["sized", "size"], ["hopping", "hop"],
  ["tanned", "tan"], ["falling", "fall"], ["hissing", "hiss"], ["fizzed", "fizz"], ["failing", "fail"],
  ["filing", "file"], ["happy", "happi"], ["sky", "sky"], ["relational", "relat"], ["conditional", "condit"],
  ["rational", "ration"], ["generalization", "gener"], ["connection", "connect"], ["hopeful", "hope"],
  ["goodness", "good"], ["adjustment", "adjust"], ["controll", "control"], ["roll", "roll"],
  ["probate", "probat"], ["rate", "rate"], ["cease", "ceas"]
]

describe("Porter", () => {
  it("stem - reproduces the paper's worked examples", () => {
    for (const [word, expected] of CASES) assert.strictEqual(stem(word), expected, word)
  })

  it("stem - keeps FTS5's quirks: a bare 'eed' loses 'ed', 'yes' loses 's'", () => {
    assert.strictEqual(stem("eed"), "e")
    assert.strictEqual(stem("yes"), "ye")
  })

  it("stem - passes through tokens under 3 or over 64 UTF-8 bytes", () => {
    assert.strictEqual(stem("is"), "is")
    assert.strictEqual(stem(`${"a".repeat(60)}ings`), "a".repeat(60))
    const long = `${"a".repeat(61)}ings`
    assert.strictEqual(stem(long), long)
  })

  it("stem - counts bytes, not characters: 'és' is 3 bytes and loses its 's'", () => {
    assert.strictEqual(stem("és"), "é")
    // 20 three-byte characters plus "tests" is 65 bytes: passed through although only 25 characters.
    const wide = `${"語".repeat(20)}tests`
    assert.strictEqual(stem(wide), wide)
    assert.strictEqual(stem(`${"語".repeat(19)}tests`), `${"語".repeat(19)}test`)
  })

  it("stem - a token whose last character ends no suffix passes through, one that does is still stemmed", () => {
    for (const token of ["h12345", "relational2", "potato", "v8", "endings_"]) assert.strictEqual(stem(token), token)
    assert.strictEqual(stem("relational"), "relat")
    assert.strictEqual(stem("connections"), "connect")
  })

  it("stem - passes a 50,000-letter token through unchanged", () => {
    const run = "a".repeat(50_000)
    assert.strictEqual(stem(run), run)
  })
})
