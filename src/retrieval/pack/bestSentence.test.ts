import { describe, expect, it } from "@effect/vitest"
import { defaults } from "../../RetrievalConfig.ts"
import { namedTerms } from "../terms.ts"
import { bestSentence, termsIn } from "./bestSentence.ts"

const question = "how is the token budget enforced?"
const terms = namedTerms(question, defaults)
const marked = (text: string, weights?: ReadonlyArray<number>) => {
  const best = bestSentence(text, terms, weights)
  return best === undefined ? undefined : text.slice(best.start, best.end)
}

describe("bestSentence", () => {
  it("picks the sentence holding most of the question's terms, by stem", () => {
    const text = "Packing is stage nine. Claims are ranked by score. The packer enforces the token budget exactly. Gaps follow."
    expect(marked(text)).toBe("The packer enforces the token budget exactly.")
  })

  it("weighs a term by the weight given, so a rare term outweighs a common one", () => {
    const text = "Every token is counted. The budget is a ceiling."
    const tokenIndex = terms.findIndex((t) => t.display === "token")
    const budgetIndex = terms.findIndex((t) => t.display === "budget")
    const weights = terms.map((_, i) => i === budgetIndex ? 1 : i === tokenIndex ? 0.25 : 1)
    expect(marked(text, weights)).toBe("The budget is a ceiling.")
    expect(marked(text)).toBe("Every token is counted.")
  })

  it("is undefined when no sentence holds a term, or the question names none", () => {
    expect(marked("Nothing here matches at all.")).toBeUndefined()
    expect(bestSentence("The token budget.", [])).toBeUndefined()
  })

  it("matches a phrase term only where its words are contiguous", () => {
    const phrase = namedTerms(`what is "blue green" deployment`, defaults)
    const index = phrase.findIndex((t) => t.tokens.length === 2)
    expect(termsIn("We use blue green rollout.", phrase)).toContain(index)
    expect(termsIn("Green is not blue.", phrase)).not.toContain(index)
  })
})
