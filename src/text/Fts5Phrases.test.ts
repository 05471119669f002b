import { assert, describe, it } from "@effect/vitest"
import { matchExpression, phrasesOf } from "./Fts5Phrases.ts"

describe("Fts5Phrases", () => {
  it("one phrase per distinct stem, in first-appearance order, quoting the surface, stopwords kept", () => {
    const phrases = phrasesOf("Indexing the index: indexes, Chunks and chunking")
    assert.deepStrictEqual(phrases.map((phrase) => phrase.stem), ["index", "the", "chunk", "and"])
    assert.deepStrictEqual(phrases.map((phrase) => phrase.surface), ["indexing", "the", "chunks", "and"])
    assert.strictEqual(matchExpression(phrases), "\"indexing\" OR \"the\" OR \"chunks\" OR \"and\"")
  })

  it("a question with no words gives no phrases and an empty expression", () => {
    assert.deepStrictEqual(phrasesOf("?! -- ..."), [])
    assert.strictEqual(matchExpression([]), "")
  })

  it("a double quote inside a surface is doubled, so it cannot close the phrase", () => {
    assert.strictEqual(matchExpression([{ surface: "a\"b", stem: "a\"b" }]), "\"a\"\"b\"")
  })
})
