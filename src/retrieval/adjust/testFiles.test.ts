import { assert, describe, it } from "@effect/vitest"
import { asksAboutTests } from "./testFiles.ts"

describe("testFiles", () => {
  it("asksAboutTests - the question names tests, fixtures, benches or mocks", () => {
    for (const query of ["which test covers the budget?", "how is this tested", "Where are the fixtures?", "run the benchmarks", "is there a mock embedder"]) assert.isTrue(asksAboutTests(query), query)
    for (const query of ["how is the token budget enforced?", "what is the latest contest attestation"]) assert.isFalse(asksAboutTests(query), query)
  })
})
