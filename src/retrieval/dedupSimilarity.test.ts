import { assert, describe, it } from "@effect/vitest"
import { bodyOf, isDuplicate, jaccard, profile, shinglesOf, similarity } from "./dedupSimilarity.ts"

const text = (body: string, title = "a.md > Section") => ({ text: `${title}\n${body}` })
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`)

describe("dedup similarity", () => {
  it("bodyOf - drops the first line, the title > heading prefix; a chunk of one line has no body", () => {
    assert.strictEqual(bodyOf({ text: "a.md > Cache\nTTL is 4h.\nMore." }), "TTL is 4h.\nMore.")
    assert.strictEqual(bodyOf({ text: "a.md > Cache" }), "")
  })

  it("shinglesOf - distinct runs of the given width; fewer words than the width give none", () => {
    assert.deepStrictEqual([...shinglesOf(["a", "b", "c", "a", "b", "c"], 3)], ["a b c", "b c a", "c a b"])
    assert.strictEqual(shinglesOf(["a", "b"], 3).size, 0)
  })

  it("cosine - of the embeddings, whatever their length, when both have one of equal width", () => {
    const a = profile(text("same words"), [2, 0, 0], 3)
    const b = profile(text("same words"), [0.96, 0.28, 0], 3)
    assert.closeTo(similarity(a, b), 0.96, 1e-15)
    // Identical bodies, orthogonal vectors: the embeddings decide, not the text.
    assert.strictEqual(similarity(profile(text("same words"), [1, 0], 3), profile(text("same words"), [0, 1], 3)), 0)
  })

  it("text equality - when widths differ, a vector is missing or unusable, folded body words decide", () => {
    const a = text("Cache TTL is 4h.", "a.md > Cache")
    const b = text("cache-ttl, is 4H", "b.md > Caching")
    assert.strictEqual(similarity(profile(a, [1, 0, 0], 3), profile(b, [1, 0], 3)), 1)
    assert.strictEqual(similarity(profile(a, [1, 0], 3), profile(b, undefined, 3)), 1)
    assert.strictEqual(similarity(profile(a, [0, 0], 3), profile(b, [1, 0], 3)), 1)
    assert.strictEqual(similarity(profile(a, [Number.NaN, 1], 3), profile(b, [1, 0], 3)), 1)
  })

  it("text equality - carries bodies too short to shingle", () => {
    const a = profile(text("Use pnpm."), undefined, 3)
    const b = profile(text("use PNPM!"), undefined, 3)
    assert.strictEqual(jaccard(a.shingles, b.shingles), 0)
    assert.strictEqual(similarity(a, b), 1)
    assert.isTrue(isDuplicate(a, b, 0.92, true))
  })

  it("an empty body is no evidence: two title-only chunks are not duplicates", () => {
    const a = profile({ text: "a.md > Overview" }, undefined, 3)
    const b = profile({ text: "b.md > Overview" }, undefined, 3)
    assert.strictEqual(similarity(a, b), 0)
    assert.isFalse(isDuplicate(a, b, 0.92, true))
  })

  it("shingle Jaccard - one changed last word of nine: 6 shared of 8 distinct is 0.75", () => {
    const a = profile(text("the cache ttl is four hours for every tenant"), undefined, 3)
    const b = profile(text("the cache ttl is four hours for every region"), undefined, 3)
    assert.strictEqual(similarity(a, b), 6 / 8)
    assert.isFalse(isDuplicate(a, b, 0.92, true))
    assert.isTrue(isDuplicate(a, b, 0.75, true))
  })

  it("shingle Jaccard - at the threshold counts: 26 words with the last changed give 23/25 = 0.92", () => {
    const words = numbered(26)
    const a = profile(text(words.join(" ")), undefined, 3)
    const b = profile(text([...words.slice(0, 25), "other"].join(" ")), undefined, 3)
    assert.strictEqual(similarity(a, b), 23 / 25)
    assert.isTrue(isDuplicate(a, b, 0.92, true))
    assert.isTrue(isDuplicate(a, b, 0.92, false))
    const short = numbered(25)
    const c = profile(text(short.join(" ")), undefined, 3)
    const d = profile(text([...short.slice(0, 24), "other"].join(" ")), undefined, 3)
    assert.strictEqual(similarity(c, d), 22 / 24)
    assert.isFalse(isDuplicate(c, d, 0.92, true))
  })

  it("isDuplicate - the size bound and the cosine bound skip only pairs that fail anyway", () => {
    const long = profile(text(numbered(40).join(" ")), undefined, 3)
    const part = profile(text(numbered(20).join(" ")), undefined, 3)
    // 18 of 38 shingles shared: the sizes alone (18/38) rule the pair out.
    assert.strictEqual(similarity(long, part), 18 / 38)
    assert.strictEqual(isDuplicate(long, part, 0.4, true), isDuplicate(long, part, 0.4, false))
    assert.isTrue(isDuplicate(long, part, 18 / 38, true))
    // 129 dimensions: e0 against e20 is decided after the first block; a pair at exactly its own
    // cosine still counts.
    const e = (i: number) => Array.from({ length: 129 }, (_, j) => (j === i ? 1 : 0))
    const near = Array.from({ length: 129 }, (_, j) => (j === 0 ? 1 : 0.01 * ((j % 7) - 3)))
    const x = profile(text("x"), e(0), 3), y = profile(text("x"), e(20), 3), z = profile(text("x"), near, 3)
    assert.isFalse(isDuplicate(x, y, 0.92, true))
    const exact = similarity(x, z)
    assert.isTrue(exact > 0.92 && exact < 1)
    assert.isTrue(isDuplicate(x, z, exact, true))
    assert.isFalse(isDuplicate(x, z, exact + 1e-12, true))
  })
})
