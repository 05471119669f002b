import { assert, describe, it } from "@effect/vitest"
import * as Candidate from "../domain/Candidate.ts"
import { chunk } from "../../test/support/Fixtures.ts"
import { answerability } from "./answerability.ts"
import { queryTerms } from "./terms.ts"

const passage = (id: string, body: string) => Candidate.make(chunk({ id, text: body, headingPath: [] }), 0.03)
const termsOf = (query: string) => queryTerms(query, { stopwords: new Set(["how", "the", "are", "for", "is"]), minLength: 4, maxTerms: 24 })

describe("answerability", () => {
  it("is the best single passage's share of the term weight, rarer terms weighing more", () => {
    const terms = termsOf("how are webhook signatures rotated")
    // "webhook" is rare (2 chunks), "signatures" and "rotated" common (400 of 1,000).
    const frequencies = [2, 400, 400]
    const rare = passage("a", "Every webhook is logged.")
    const common = passage("b", "Signatures are rotated yearly.")
    const one = answerability({ terms, termFrequencies: frequencies, corpusSize: 1_000, candidates: [common, rare], depth: 5 })
    const weight = (df: number) => Math.log(1 + 1_001 / (df + 0.5))
    const total = weight(2) + 2 * weight(400)
    assert.closeTo(one.score, weight(2) / total, 1e-12)
    // Scattered over two passages is not one passage holding it: the best single one counts.
    assert.isBelow(one.score, 0.75)
    assert.deepStrictEqual(one.missing, [])
    const whole = passage("c", "A webhook's signatures are rotated monthly.")
    assert.strictEqual(answerability({ terms, termFrequencies: frequencies, corpusSize: 1_000, candidates: [rare, whole], depth: 5 }).score, 1)
  })

  it("reads only the first `depth` passages, and lists what none of them holds, heaviest first", () => {
    const terms = termsOf("webhook signatures rotated")
    const late = [passage("a", "nothing relevant"), passage("b", "webhook signatures rotated")]
    const shallow = answerability({ terms, termFrequencies: [5, 50, undefined], corpusSize: 100, candidates: late, depth: 1 })
    assert.strictEqual(shallow.score, 0)
    // An uncounted word weighs as one the index never saw: the heaviest.
    assert.deepStrictEqual(shallow.missing.map((t) => t.display), ["rotated", "webhook", "signatures"])
    assert.strictEqual(answerability({ terms, termFrequencies: [5, 50, undefined], corpusSize: 100, candidates: late, depth: 2 }).score, 1)
  })

  it("nothing retrieved scores 0; a question without terms scores 1", () => {
    assert.strictEqual(answerability({ terms: termsOf("webhook"), termFrequencies: [1], corpusSize: 10, candidates: [], depth: 5 }).score, 0)
    assert.strictEqual(answerability({ terms: [], termFrequencies: [], corpusSize: 10, candidates: [passage("a", "x")], depth: 5 }).score, 1)
  })
})
