import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { stem } from "../text/Porter.ts"
import { queryTerms } from "../text/Words.ts"
import * as Reduce from "./reduce.ts"

const NONE: ReadonlySet<string> = new Set()

/** Distinct lower-case words that are their own only surface (letters only). */
const word = fc.stringMatching(/^[a-z]{3,10}$/)

describe("reduce", () => {
  it("withinBounds - an ordinary question passes; a long one or one of many terms does not", () => {
    assert.isTrue(Reduce.withinBounds("how is the token budget enforced by the packer?"))
    assert.isFalse(Reduce.withinBounds("budget ".repeat(400)))
    assert.isFalse(Reduce.withinBounds(Array.from({ length: Reduce.MAX_QUESTION_TERMS + 1 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`).join(" ")))
  })

  it("select - at most MAX_QUESTION_TERMS distinct terms are kept, the rarest by document frequency, few of them common", () =>
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: Reduce.MAX_LOOKUPS, selector: stem }), fc.array(fc.nat(2_000), { minLength: Reduce.MAX_LOOKUPS, maxLength: Reduce.MAX_LOOKUPS }), (words, counts) => {
        // As a backend counts: no further than the cap.
        const df = new Map(words.map((w, i) => [stem(w), Math.min(counts[i]!, Reduce.FREQUENCY_CAP)] as const))
        const reading = Reduce.read(words.join(" "), NONE)
        const reduction = Reduce.select(reading, reading.lookups.map((w) => df.get(stem(w))!))
        const kept = new Set(queryTerms(reduction.text))
        // The bound holds for the text every stage analyses again, not only for the count reported.
        assert.isAtMost(kept.size, Reduce.MAX_QUESTION_TERMS)
        assert.strictEqual(reduction.keptTerms, kept.size)
        const isCommon = (s: string) => df.get(s)! >= Reduce.FREQUENCY_CAP
        const keptCommon = [...kept].filter(isCommon).length
        assert.isAtMost(keptCommon, Reduce.MAX_COMMON_TERMS)
        const rarity = (s: string) => (df.get(s)! > 0 ? df.get(s)! : Number.POSITIVE_INFINITY)
        const worstKept = Math.max(...[...kept].map(rarity))
        for (const w of words) {
          const s = stem(w)
          if (kept.has(s)) continue
          if (isCommon(s)) assert.isTrue(keptCommon === Reduce.MAX_COMMON_TERMS || kept.size === Reduce.MAX_QUESTION_TERMS, `${w} was dropped with room left`)
          else assert.isAtLeast(rarity(s), worstKept, `${w} was dropped for a commoner term`)
          if (!isCommon(s)) assert.strictEqual(kept.size, Reduce.MAX_QUESTION_TERMS, `${w} was dropped with room left`)
        }
        // Kept words stay in question order.
        assert.strictEqual(reduction.text, words.filter((w) => kept.has(stem(w))).join(" "))
      }),
      { seed: 20, numRuns: 300 }
    ))

  it("read - only the first MAX_READ_CHARS characters are analysed, and no word over MAX_TERM_CHARS is kept", () => {
    const reading = Reduce.read(`${"x".repeat(Reduce.MAX_TERM_CHARS + 1)} kept ${"filler ".repeat(3_000)} beyond`, NONE)
    // Cut at the last word boundary before the limit: half a word is no term.
    assert.isAtMost(reading.readChars, Reduce.MAX_READ_CHARS)
    assert.isAbove(reading.readChars, Reduce.MAX_READ_CHARS - 8)
    assert.deepStrictEqual(reading.units.map((u) => u.surface), ["kept", "filler"])
    // One unbroken word is cut where the limit falls, never inside a surrogate pair.
    const cut = Reduce.read(`${"a".repeat(Reduce.MAX_READ_CHARS - 1)}😀tail`, NONE)
    assert.strictEqual(cut.readChars, Reduce.MAX_READ_CHARS - 1)
  })

  it("select - a word giving several terms (utf8: utf8, utf, 8) costs all of them", () => {
    const words = ["utf8", ...Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)]
    const reading = Reduce.read(words.join(" "), NONE)
    const reduction = Reduce.select(reading, reading.lookups.map((w) => (w === "utf8" ? 1 : 5)))
    assert.isAtMost(new Set(queryTerms(reduction.text)).size, Reduce.MAX_QUESTION_TERMS)
    assert.isTrue(reduction.text.startsWith("utf8 "))
  })

  it("read - only the first MAX_LOOKUPS distinct words that are not stopwords are looked up", () => {
    const many = Array.from({ length: 2 * Reduce.MAX_LOOKUPS }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)
    const reading = Reduce.read(["the", ...many].join(" "), new Set([stem("the")]))
    assert.deepStrictEqual(reading.units.map((u) => u.surface), many.slice(0, Reduce.MAX_LOOKUPS))
    assert.strictEqual(reading.distinctTerms, many.length + 1)
  })

  it("select - a rare identifier whose parts are common brings no more than MAX_COMMON_TERMS common terms", () => {
    // `compute12x3` gives compute, 12, x and 3, each in most chunks; the identifiers are rare.
    const ids = Array.from({ length: 20 }, (_, i) => `compute${i + 10}x${i % 10}`)
    const reading = Reduce.read(ids.join(" "), NONE)
    const reduction = Reduce.select(reading, reading.lookups.map((w) => (w.startsWith("compute") && w !== "compute" ? 1 : Reduce.FREQUENCY_CAP)))
    const kept = queryTerms(reduction.text)
    const rare = new Set(ids.map(stem))
    assert.isAtMost(kept.filter((t) => !rare.has(t)).length, Reduce.MAX_COMMON_TERMS)
    assert.isAbove(kept.filter((t) => rare.has(t)).length, 0)
  })
  it("describe - says what was kept in words that agree with the counts", () => {
    const said = (distinctTerms: number, keptTerms: number) =>
      Reduce.describe({ text: "", reduced: true, totalChars: 20_000, readChars: 20_000, distinctTerms, keptTerms })
    assert.include(said(1, 0), "its one distinct term could not be looked up")
    assert.include(said(1, 1), "its one distinct term was kept")
    assert.include(said(5, 0), "none of its 5 distinct terms could be looked up")
    assert.include(said(20, 20), "all 20 distinct terms were kept")
    assert.include(said(1_700, 32), "of its 1,700 distinct terms, the 32 rarest in the index were kept")
    assert.include(said(3, 1), "of its 3 distinct terms, the rarest in the index was kept")
  })
})
