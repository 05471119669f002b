import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { stem } from "../index/Porter.ts"
import { queryTerms } from "../index/Tokenizer.ts"
import * as Reduce from "./reduce.ts"

/** Distinct lower-case words that are their own only surface (letters only). */
const word = fc.stringMatching(/^[a-z]{3,10}$/)

describe("reduce", () => {
  it("withinBounds - an ordinary question passes; a long one or one of many terms does not", () => {
    assert.isTrue(Reduce.withinBounds("how is the token budget enforced by the packer?"))
    assert.isFalse(Reduce.withinBounds("budget ".repeat(400)))
    assert.isFalse(Reduce.withinBounds(Array.from({ length: Reduce.MAX_QUESTION_TERMS + 1 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`).join(" ")))
  })

  it("select - at most MAX_QUESTION_TERMS distinct terms are kept, the rarest by document frequency", () =>
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 300, selector: stem }), fc.array(fc.nat(1_000), { minLength: 300, maxLength: 300 }), (words, counts) => {
        const df = new Map(words.map((w, i) => [stem(w), counts[i]!] as const))
        const reduction = Reduce.select(Reduce.read(words.join(" ")), (s) => df.get(s) ?? 0)
        const kept = new Set(queryTerms(reduction.text))
        // The bound holds for the text every stage analyses again, not only for the count reported.
        assert.isAtMost(kept.size, Reduce.MAX_QUESTION_TERMS)
        assert.strictEqual(kept.size, Math.min(words.length, Reduce.MAX_QUESTION_TERMS))
        assert.strictEqual(reduction.keptTerms, kept.size)
        const rarity = (s: string) => (df.get(s)! > 0 ? df.get(s)! : Number.POSITIVE_INFINITY)
        const worstKept = Math.max(...[...kept].map(rarity))
        for (const w of words) {
          if (!kept.has(stem(w))) assert.isAtLeast(rarity(stem(w)), worstKept, `${w} was dropped for a commoner term`)
        }
        // Kept words stay in question order.
        const order = words.filter((w) => kept.has(stem(w)))
        assert.strictEqual(reduction.text, order.join(" "))
      }),
      { seed: 20, numRuns: 200 }
    ))

  it("read - only the first MAX_READ_CHARS characters are analysed, and no word over MAX_TERM_CHARS is kept", () => {
    const reading = Reduce.read(`${"x".repeat(Reduce.MAX_TERM_CHARS + 1)} kept ${"filler ".repeat(3_000)} beyond`)
    // Cut at the last word boundary before the limit: half a word is no term.
    assert.isAtMost(reading.readChars, Reduce.MAX_READ_CHARS)
    assert.isAbove(reading.readChars, Reduce.MAX_READ_CHARS - 8)
    assert.deepStrictEqual(reading.units.map((u) => u.surface), ["kept", "filler"])
    // One unbroken word is cut where the limit falls, never inside a surrogate pair.
    const cut = Reduce.read(`${"a".repeat(Reduce.MAX_READ_CHARS - 1)}😀tail`)
    assert.strictEqual(cut.readChars, Reduce.MAX_READ_CHARS - 1)
  })

  it("select - a word giving several terms (utf8: utf8, utf, 8) costs all of them", () => {
    const words = ["utf8", ...Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)]
    const reduction = Reduce.select(Reduce.read(words.join(" ")), (s) => (s === "utf8" ? 1 : 5))
    assert.isAtMost(new Set(queryTerms(reduction.text)).size, Reduce.MAX_QUESTION_TERMS)
    assert.isTrue(reduction.text.startsWith("utf8 "))
  })
})
