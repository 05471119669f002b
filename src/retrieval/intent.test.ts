import { assert, describe, it } from "@effect/vitest"
import { classify, NOTE_TYPES } from "./intent.ts"

const mean = (weights: Record<string, number>) => NOTE_TYPES.reduce((sum, t) => sum + weights[t]!, 0) / NOTE_TYPES.length

describe("intent", () => {
  it("a why question wants decisions; the weights keep mean 1", () => {
    const intent = classify("why did we choose blue-green deploys?")
    assert.deepStrictEqual(intent.fired, ["decision.why", "decision.decided"])
    // Raw weights: decision 2.4, the other five 1; mean 7.4/6.
    assert.closeTo(intent.typeWeights.decision, 2.4 / (7.4 / 6), 1e-12)
    assert.closeTo(intent.typeWeights.note, 1 / (7.4 / 6), 1e-12)
    assert.closeTo(mean(intent.typeWeights), 1, 1e-12)
  })

  it("a choice made wants decisions; how a mechanism decides or chooses does not", () => {
    for (const question of ["why did we decide on SQLite", "what did they choose for the queue", "who decided the retention", "the rationale for leases"]) {
      assert.include(classify(question).fired, "decision.decided", question)
    }
    for (const question of ["How does cairn decide that two notes contradict each other?", "how does the ranker choose a budget"]) {
      assert.notInclude(classify(question).fired, "decision.decided", question)
      assert.strictEqual(classify(question).typeWeights.decision, Math.min(...Object.values(classify(question).typeWeights)), question)
    }
  })

  it("a status question wants state and the latest word", () => {
    const intent = classify("what is the current status of the checkout migration")
    assert.isAbove(intent.typeWeights.state, intent.typeWeights.reference)
    assert.closeTo(intent.recencyBias, 1, 1e-12) // 0.7 + 0.5, clamped to 1
  })

  it("cues are token sequences, not substrings", () => {
    assert.deepStrictEqual(classify("whyever would somebody").fired, [])
    assert.deepStrictEqual(classify("how do we pick branch naming").fired, ["convention.how-do-we", "convention.rule"])
    assert.deepStrictEqual(classify("how do we name branches").fired, ["convention.how-do-we"])
  })

  it("a question with no cue leaves every type at 1", () => {
    const intent = classify("blue green")
    for (const type of NOTE_TYPES) assert.strictEqual(intent.typeWeights[type], 1)
    assert.strictEqual(intent.recencyBias, 0)
  })

  it("how a mechanism does what it does wants code, and leaves the other types level", () => {
    for (const question of ["how is the token budget enforced?", "How are TypeScript source files cut into chunks?"]) {
      const intent = classify(question)
      assert.include(intent.fired, "code.mechanism", question)
      assert.isAbove(intent.typeWeights.code, 1, question)
      const others = NOTE_TYPES.filter((type) => type !== "code").map((type) => intent.typeWeights[type])
      assert.strictEqual(new Set(others).size, 1, question)
    }
    assert.notInclude(classify("how isolated are the workers").fired, "code.mechanism")
    // A preference, not a demand: no implied_type gap says code is missing.
    assert.deepStrictEqual(classify("how is the token budget enforced?").demanded, [])
    assert.deepStrictEqual(classify("how is the parse function implemented?").demanded, ["code"])
  })

  it("a historical question pulls the other way", () => {
    assert.strictEqual(classify("what did we originally use").recencyBias, -0.5)
  })
})
