import { assert, describe, it } from "@effect/vitest"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { chunk } from "../../test/support/Fixtures.ts"
import { containsSequence, coveredTerms, passageStems, queryTerms } from "./terms.ts"
import { foldedStopwords } from "../text/Stopwords.ts"

const options = { stopwords: foldedStopwords(RetrievalConfig.defaults.gapStopwords), minLength: 4, maxTerms: 24 }

describe("terms", () => {
  it("names content words of at least four letters, stemmed, in query order, once each", () => {
    assert.deepStrictEqual(queryTerms("How do we rotate the API keys, and keys again?", options).map((t) => t.display), ["rotate", "keys", "again"])
    assert.deepStrictEqual(queryTerms("rotating keys", options).map((t) => t.tokens), [["rotat"], ["kei"]])
  })

  it("a hyphenated or quoted group is one phrase term, matched contiguously", () => {
    const terms = queryTerms(`blue-green deploys and "release train"`, options)
    assert.deepStrictEqual(terms.map((t) => t.display), ["blue green", "deploys", "release train"])
    const stems = passageStems(chunk({ id: "a.md#0", text: "We run blue green deploys on the release train." }))
    assert.deepStrictEqual([...coveredTerms(stems, terms)].sort(), [0, 1, 2])
    const apart = passageStems(chunk({ id: "b.md#0", text: "A blue car and a green train for a release." }))
    assert.deepStrictEqual([...coveredTerms(apart, terms)], [])
  })

  it("a passage's heading path, tags and path count as its words", () => {
    const c = { ...chunk({ id: "runbooks/rotation.md#0", text: "body", headingPath: ["Secrets"] }), tags: ["vault"] }
    const terms = queryTerms("secrets vault rotation", options)
    assert.strictEqual(coveredTerms(passageStems(c), terms).size, 3)
  })

  it("containsSequence finds a run anywhere, and nothing for an empty one", () => {
    assert.isTrue(containsSequence(["a", "b", "c", "d"], ["c", "d"]))
    assert.isFalse(containsSequence(["a", "b", "c"], ["a", "c"]))
    assert.isFalse(containsSequence(["a"], []))
  })

  it("stays bounded: at most maxTerms terms", () => {
    assert.strictEqual(queryTerms(Array.from({ length: 100 }, (_, i) => `word${i}x`).join(" "), options).length, 24)
  })
})
