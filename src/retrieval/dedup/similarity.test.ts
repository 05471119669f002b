import { assert, describe, it } from "@effect/vitest"
import { bodyOf, isDuplicate, jaccard, makeProfiler, similarity } from "./similarity.ts"

const profile = makeProfiler(3)

const text = (body: string, title = "a.md > Section") => ({ text: `${title}\n${body}` })
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`)

describe("dedup similarity", () => {
  it("bodyOf - drops the first line, the title > heading prefix; a chunk of one line has no body", () => {
    assert.strictEqual(bodyOf({ text: "a.md > Cache\nTTL is 4h.\nMore." }), "TTL is 4h.\nMore.")
    assert.strictEqual(bodyOf({ text: "a.md > Cache" }), "")
  })

  it("shingles - distinct runs of the given width; fewer words than the width give none", () => {
    // {abc, bca, cab} against {abc}: 1 of 3, where counting repeats would give 2 of 4.
    const repeated = profile(text("a b c a b c"), undefined), once = profile(text("a b c"), undefined)
    assert.strictEqual(repeated.words().shingles.length, 3)
    assert.strictEqual(similarity(repeated, once), 1 / 3)
    assert.strictEqual(profile(text("a b"), undefined).words().shingles.length, 0)
    // Width 2: {ab, bc, ca} against {ab, bc}.
    const pairs = makeProfiler(2)
    assert.strictEqual(similarity(pairs(text("a b c a b c"), undefined), pairs(text("a b c"), undefined)), 2 / 3)
  })

  it("cosine - of the embeddings, whatever their length, when both have one of equal width", () => {
    const a = profile(text("same words"), [2, 0, 0])
    const b = profile(text("same words"), [0.96, 0.28, 0])
    assert.closeTo(similarity(a, b), 0.96, 1e-15)
    // Identical bodies, orthogonal vectors: the embeddings decide, not the text.
    assert.strictEqual(similarity(profile(text("same words"), [1, 0]), profile(text("same words"), [0, 1])), 0)
  })

  it("text equality - when widths differ, a vector is missing or unusable, folded body words decide", () => {
    const a = text("Cache TTL is 4h.", "a.md > Cache")
    const b = text("cache-ttl, is 4H", "b.md > Caching")
    assert.strictEqual(similarity(profile(a, [1, 0, 0]), profile(b, [1, 0])), 1)
    assert.strictEqual(similarity(profile(a, [1, 0]), profile(b, undefined)), 1)
    assert.strictEqual(similarity(profile(a, [0, 0]), profile(b, [1, 0])), 1)
    assert.strictEqual(similarity(profile(a, [Number.NaN, 1]), profile(b, [1, 0])), 1)
  })

  it("text equality - carries bodies too short to shingle", () => {
    const a = profile(text("Use pnpm."), undefined)
    const b = profile(text("use PNPM!"), undefined)
    assert.strictEqual(jaccard(a.words().shingles, b.words().shingles), 0)
    assert.strictEqual(similarity(a, b), 1)
    assert.isTrue(isDuplicate(a, b, 0.92, true))
  })

  it("an empty body is no evidence: two title-only chunks are not duplicates", () => {
    const a = profile({ text: "a.md > Overview" }, undefined)
    const b = profile({ text: "b.md > Overview" }, undefined)
    assert.strictEqual(similarity(a, b), 0)
    assert.isFalse(isDuplicate(a, b, 0.92, true))
  })

  it("shingle Jaccard - one changed last word of nine: 6 shared of 8 distinct is 0.75", () => {
    const a = profile(text("the cache ttl is four hours for every tenant"), undefined)
    const b = profile(text("the cache ttl is four hours for every region"), undefined)
    assert.strictEqual(similarity(a, b), 6 / 8)
    assert.isFalse(isDuplicate(a, b, 0.92, true))
    assert.isTrue(isDuplicate(a, b, 0.75, true))
  })

  it("shingle Jaccard - at the threshold counts: 26 words with the last changed give 23/25 = 0.92", () => {
    const words = numbered(26)
    const a = profile(text(words.join(" ")), undefined)
    const b = profile(text([...words.slice(0, 25), "other"].join(" ")), undefined)
    assert.strictEqual(similarity(a, b), 23 / 25)
    assert.isTrue(isDuplicate(a, b, 0.92, true))
    assert.isTrue(isDuplicate(a, b, 0.92, false))
    const short = numbered(25)
    const c = profile(text(short.join(" ")), undefined)
    const d = profile(text([...short.slice(0, 24), "other"].join(" ")), undefined)
    assert.strictEqual(similarity(c, d), 22 / 24)
    assert.isFalse(isDuplicate(c, d, 0.92, true))
  })

  it("isDuplicate - the size bound and the cosine bound skip only pairs that fail anyway", () => {
    const long = profile(text(numbered(40).join(" ")), undefined)
    const part = profile(text(numbered(20).join(" ")), undefined)
    // 18 of 38 shingles shared: the sizes alone (18/38) rule the pair out.
    assert.strictEqual(similarity(long, part), 18 / 38)
    assert.strictEqual(isDuplicate(long, part, 0.4, true), isDuplicate(long, part, 0.4, false))
    assert.isTrue(isDuplicate(long, part, 18 / 38, true))
    // 129 dimensions: e0 against e20 is decided after the first block; a pair at exactly its own
    // cosine still counts.
    const e = (i: number) => Array.from({ length: 129 }, (_, j) => (j === i ? 1 : 0))
    const near = Array.from({ length: 129 }, (_, j) => (j === 0 ? 1 : 0.01 * ((j % 7) - 3)))
    const x = profile(text("x"), e(0)), y = profile(text("x"), e(20)), z = profile(text("x"), near)
    assert.isFalse(isDuplicate(x, y, 0.92, true))
    const exact = similarity(x, z)
    assert.isTrue(exact > 0.92 && exact < 1)
    assert.isTrue(isDuplicate(x, z, exact, true))
    assert.isFalse(isDuplicate(x, z, exact + 1e-12, true))
  })
})
