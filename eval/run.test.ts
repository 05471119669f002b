import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { corpus } from "../test/support/Corpus.ts"
import { CONDITIONS } from "./conditions.ts"
import type { EvalCorpus } from "./Corpus.ts"
import { FLOORS, gateChecks } from "./gates.ts"
import type { Question } from "./Question.ts"
import { reportMarkdown, resultsJson } from "./report.ts"
import { runBench } from "./run.ts"

const evalCorpus: EvalCorpus = {
  name: "fixture",
  chunks: corpus.chunks,
  edges: corpus.edges,
  documents: new Map(corpus.chunks.map((c) => [c.noteId, c.text])),
  anchor: Date.UTC(2026, 9, 1),
  conflicts: [],
  gapPremises: [{ id: "g1", question: "what is our RTO", mustNotAppear: ["recovery time objective"] }],
  staleNotes: new Set()
}

const question = (id: string, overrides: Partial<Question>): { file: string; question: Question } => ({
  file: "fixture.json",
  question: { id, question: "", intent: "reference", difficulty: "easy", relevant: [], split: "dev", ...overrides }
})

const questions = [
  question("pos-1", { question: "how do I roll back a deploy?", relevant: ["runbooks/rollback.md"], mustContain: ["deployctl rollback --to previous"] }),
  question("neg-1", { question: "what is our recovery time objective", mustNotContain: ["recovery time objective"] }),
  question("adv-1", { kind: "long-unbroken-token", generator: { repeat: "a", times: 50_000 }, expect: { noCrash: true, budgetRespected: true, claimsOrGaps: true } })
]

describe("runBench (smoke)", () => {
  it.effect("runs every question under each condition and reports deltas, the gate and the report", () =>
    Effect.gen(function*() {
      const bench = yield* runBench({ corpus: evalCorpus, questions, conditions: CONDITIONS.slice(0, 2), concurrency: 2 })
      assert.deepStrictEqual(bench.conditions.map((c) => c.condition), ["full", "no-dense"])
      assert.strictEqual(bench.conditions[0]!.observations.length, 3)
      assert.deepStrictEqual(bench.deltas.map((d) => d.condition), ["no-dense"])
      const gate = gateChecks({
        corpus: evalCorpus, declaredAnchor: evalCorpus.anchor, result: bench.conditions[0]!, budgetTokens: 4_000,
        overrides: undefined, questionsOnDisk: 3, supersededNotes: new Set(), probes: []
      })
      const byName = new Map(gate.map((c) => [c.name, c.pass]))
      assert.isFalse(byName.get("floors-declared")!) // the fixture has no committed floors
      assert.isTrue(byName.get("adversarial-contracts")!)
      assert.isTrue(byName.get("budget-contract")!)
      assert.isTrue(byName.get("gap-premises-hold")!)
      const report = reportMarkdown(bench, gate, { command: "test", split: "dev" })
      assert.include(report, "## Gate")
      assert.include(report, "## Failures")
      const parsed = JSON.parse(resultsJson(bench, gate, {})) as { conditions: Array<{ observations: Array<{ id: string }> }> }
      assert.deepStrictEqual(parsed.conditions[0]!.observations.map((o) => o.id), ["pos-1", "neg-1", "adv-1"])
    }), { timeout: 60_000 })

  it("answer text in the pack is gated: below the floor fails, at it passes", () => {
    const floor = FLOORS["team-kb"]!.answerText
    const checkAt = (coverageAll: number) => gateChecks({
      corpus: { ...evalCorpus, name: "team-kb" },
      declaredAnchor: evalCorpus.anchor,
      result: {
        condition: "full", description: "", tokenCounter: "", observations: [],
        summary: { ranking: { hitAt5: 1, precisionAt1: 1, coverageAll }, verdicts: { cch: 1 }, tokens: { violations: 0 }, errors: [] } as never
      },
      budgetTokens: 4_000, overrides: undefined, questionsOnDisk: 0, supersededNotes: new Set(), probes: []
    }).find((c) => c.name === "answer-text")!
    assert.isFalse(checkAt(floor - 0.01).pass)
    assert.isTrue(checkAt(floor).pass)
  })

  it("a config override fails the gate whatever the run scores", () => {
    const fake = { condition: "full", description: "", tokenCounter: "", observations: [], summary: undefined as never }
    const checks = gateChecks({
      corpus: evalCorpus, declaredAnchor: evalCorpus.anchor, result: { ...fake, summary: { ranking: { hitAt5: 1, precisionAt1: 1 }, verdicts: { cch: 1 }, tokens: { violations: 0 }, errors: [] } as never },
      budgetTokens: 4_000, overrides: { rrfK: 10 }, questionsOnDisk: 0, supersededNotes: new Set(), probes: []
    })
    assert.isFalse(checks.find((c) => c.name === "no-config-overrides")!.pass)
  })
})
