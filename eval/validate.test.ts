import { assert, describe, it } from "@effect/vitest"
import { chunk } from "../test/support/Fixtures.ts"
import type { EvalCorpus } from "./Corpus.ts"
import type { Question } from "./Question.ts"
import { validate } from "./validate.ts"

const corpus: EvalCorpus = {
  name: "fixture",
  chunks: [chunk({ id: "a.md#0", text: "A > Steps\nRun `deployctl rollback` from the channel.", headingPath: ["**Steps**"] })],
  edges: [],
  documents: new Map([["a.md", "# A\n## **Steps**\nRun `deployctl rollback` from the channel.\n"], ["b.md", "Kubernetes\n1.29 is the version."]]),
  anchor: 0,
  conflicts: [],
  gapPremises: [{ id: "g1", question: "q", mustNotAppear: ["RTO target"] }],
  staleNotes: new Set()
}

const q = (overrides: Partial<Question>): { file: string; question: Question } => ({
  file: "f.json",
  question: { id: "q-1", question: "how do we roll back", intent: "reference", difficulty: "easy", relevant: ["a.md"], primary: "a.md", split: "dev", ...overrides }
})

describe("validate", () => {
  it("accepts a well-formed question, matching headings and needles as the chunker kept them", () => {
    const result = validate([q({ mustContain: ["deployctl rollback"], primaryBlock: "## Steps" })], corpus)
    assert.deepStrictEqual(result.errors, [])
  })

  it("names each error", () => {
    const result = validate([
      q({ id: "q-1", mustContain: ["not there"] }),
      q({ id: "q-1", relevant: ["missing.md"], primary: "missing.md" }),
      q({ id: "neg-1", relevant: [], primary: null, mustNotContain: ["kubernetes 1.29"] }),
      q({ id: "neg-2", relevant: [], primary: null, gapId: "g1", mustNotContain: ["something else"] })
    ], corpus)
    assert.strictEqual(result.errors.length, 5)
    assert.isTrue(result.errors.some((e) => e.includes("mustContain \"not there\"")))
    assert.isTrue(result.errors.some((e) => e.includes("id also used")))
    assert.isTrue(result.errors.some((e) => e.includes("missing.md is not in the corpus")))
    // A line break inside the document does not hide an occurrence.
    assert.isTrue(result.errors.some((e) => e.includes("\"kubernetes 1.29\" must occur nowhere")))
    assert.isTrue(result.errors.some((e) => e.includes("must equal gap g1")))
  })

  it("warns, never errors, about a decoy that cannot fire and an intent the classifier reads differently", () => {
    const result = validate([q({ question: "why did we pick blue-green", mustNotContain: ["never written anywhere"] })], corpus, { intent: true })
    assert.deepStrictEqual(result.errors, [])
    assert.strictEqual(result.warnings.length, 2)
  })
})
