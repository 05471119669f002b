import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { fold, queryTerms, surfaces, surfaceText, terms, words } from "./Words.ts"

describe("Words", () => {
  it("fold - removes diacritics and folds case fully", () => {
    assert.strictEqual(fold("Café"), "cafe")
    assert.strictEqual(fold("NAÏVE"), "naive")
    assert.strictEqual(fold("Straße"), "strasse")
    assert.strictEqual(fold("STRASSE"), fold("straẞe"))
    assert.strictEqual(fold("ΣΟΦΟΣ"), fold("σοφος"))
    assert.strictEqual(fold("ﬁle"), "file")
  })

  it("words - splits on everything but letters, numbers and private-use characters", () => {
    assert.deepStrictEqual(words("Hello, wörld! x-ray 3.14 e\u0301te user_id"), ["hello", "world", "x", "ray", "3", "14", "ete", "user", "id"])
    assert.deepStrictEqual(words("  ...  "), [])
  })

  it("surfaces - adds camelCase, acronym and letter/digit parts after the whole token", () => {
    assert.deepStrictEqual(surfaces("getUserName"), ["getusername", "get", "user", "name"])
    assert.deepStrictEqual(surfaces("HTTPServer"), ["httpserver", "http", "server"])
    assert.deepStrictEqual(surfaces("sha256sum"), ["sha256sum", "sha", "256", "sum"])
    assert.deepStrictEqual(surfaces("plain words"), ["plain", "words"])
    // Parts of a token past ASCII are folded one by one, as the whole is.
    assert.deepStrictEqual(surfaces("ÉcoleNormale"), ["ecolenormale", "ecole", "normale"])
    assert.deepStrictEqual(surfaces("straßeNummer2"), ["strassenummer2", "strasse", "nummer", "2"])
  })

  it("surfaces - joins a snake_case run into one word after its parts", () => {
    assert.deepStrictEqual(surfaces("max_retry_count"), ["max", "retry", "count", "maxretrycount"])
    assert.deepStrictEqual(surfaces("__init__"), ["init"])
    assert.deepStrictEqual(surfaces("a _ b"), ["a", "b"])
    assert.deepStrictEqual(surfaces("café_Crème x_y"), ["cafe", "creme", "cafecreme", "x", "y", "xy"])
  })

  it("surfaceText - the surfaces joined by spaces, for any mix of ASCII and other text", () => {
    assert.strictEqual(surfaceText(""), "")
    assert.strictEqual(surfaceText("-- __ --"), "")
    assert.strictEqual(surfaceText("getUserName max_retry Crème_brûlée HTTPServer 検索"), surfaces("getUserName max_retry Crème_brûlée HTTPServer 検索").join(" "))
    // Larger than the buffer it starts with, and a token past ASCII between ASCII ones.
    const long = `${"wordA_wordB ".repeat(5_000)}É ${"z".repeat(70_000)}`
    assert.strictEqual(surfaceText(long), surfaces(long).join(" "))
    assert.strictEqual(surfaceText("short again"), "short again")
    const piece = fc.constantFrom("a", "B", "_", "__", " ", "1", "é", "ß", "Σ", "ς", "İ", "ﬁ", "\u0301", "検", "😀", "HTTP", "Server", "x9", "-", "ǅ", "\uE000")
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join("")), (text) => {
        assert.strictEqual(surfaceText(text), surfaces(text).join(" "))
      }),
      { seed: 20_261_201, numRuns: 2_000 }
    )
  })

  it("terms - a camelCase identifier meets its snake_case spelling and its prose", () => {
    const camel = new Set(terms("retryCount"))
    for (const term of terms("retry_count")) assert.isTrue(camel.has(term), term)
    assert.isTrue(camel.has(terms("retries")[0]!))
  })

  it("terms - stems every emitted term as FTS5 porter does", () => {
    assert.deepStrictEqual(terms("Connections connecting"), ["connect", "connect"])
  })

  it("queryTerms - distinct terms in order of first appearance", () => {
    assert.deepStrictEqual(queryTerms("run the runner, run!"), ["run", "the", "runner"])
  })

  // Hostile shapes; their cost is measured by bench:recall's hostile queries, not asserted here.
  it("surfaces - a 50,000-letter run, 50,000 alternating-case letters and unspaced CJK", () => {
    assert.deepStrictEqual(surfaces("a".repeat(50_000)), ["a".repeat(50_000)])
    assert.strictEqual(surfaces("aB".repeat(25_000)).length, 25_002)
    assert.strictEqual(surfaces("日本語のテキスト".repeat(6_250)).length, 1)
  })
})
