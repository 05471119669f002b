import { assert, describe, it } from "@effect/vitest"
import type { Question } from "./Question.ts"
import * as M from "./metrics.ts"

const q = (overrides: Partial<Question> = {}): Question => ({
  id: "q-1",
  question: "how do we roll back?",
  intent: "reference",
  difficulty: "easy",
  relevant: ["a.md", "b.md"],
  nearest: ["c.md"],
  split: "dev",
  ...overrides
})

const claim = (note: string, text = "x", heading: string | null = null) => ({ note, ref: `${note}:1-2#b`, text, heading })

const obs = (question: Question, notes: ReadonlyArray<string>, extra: Partial<M.Observation> = {}): M.Observation => ({
  question,
  claims: notes.map((n) => claim(n)),
  gaps: [],
  conflicts: [],
  usedTokens: 100,
  budgetTokens: 4_000,
  candidateNotes: notes,
  latencyMs: 1,
  stageMs: {},
  ...extra
})

describe("ranking metrics", () => {
  // Claims from notes: x, a, a, c, b, y  (relevant a, b; nearest c)
  const o = obs(q(), ["x.md", "a.md", "a.md", "c.md", "b.md", "y.md"])

  it("hit@k, precision@k (claim and note-distinct) and recall@k", () => {
    assert.strictEqual(M.hitAt(o, 1), 0)
    assert.strictEqual(M.hitAt(o, 2), 1)
    assert.strictEqual(M.precisionAt(o, 5), 3 / 5)
    // First five distinct notes: x, a, c, b, y → a and b relevant.
    assert.strictEqual(M.distinctPrecisionAt(o, 5), 2 / 5)
    assert.strictEqual(M.recallAt(o, 3), 1 / 2)
    assert.strictEqual(M.recallAt(o, 5), 1)
    assert.strictEqual(M.recallCeilingAt(o, 1), 1 / 2)
  })

  it("MRR and graded nDCG@10 by hand", () => {
    assert.strictEqual(M.reciprocalRank(o), 1 / 2)
    // Distinct notes x(0) a(2) c(1) b(2) y(0): DCG = 3/log2(3) + 1/log2(4) + 3/log2(5).
    const dcg = 3 / Math.log2(3) + 1 / Math.log2(4) + 3 / Math.log2(5)
    // Ideal a(2) b(2) c(1): 3/1 + 3/log2(3) + 1/log2(4).
    const ideal = 3 + 3 / Math.log2(3) + 1 / 2
    assert.closeTo(M.ndcgAt(o, 10), dcg / ideal, 1e-12)
  })

  it("block precision reads the named section of the primary note", () => {
    const named = q({ primary: "a.md", primaryBlock: "## Steps" })
    const blocks = { ...obs(named, []), claims: [claim("a.md", "t", "Steps"), claim("a.md", "t", "Why"), claim("b.md", "t", "Steps")] }
    assert.strictEqual(M.blockPrecisionAt(blocks, 5), 1 / 5)
    assert.isUndefined(M.blockPrecisionAt(o, 5))
  })

  it("the oracle ceiling reads the candidates the packer was handed", () => {
    const handed = { ...o, candidateNotes: ["z.md", "a.md", "b.md", "b.md"] }
    assert.deepStrictEqual(M.oracle(handed, 5), { hit: 1, precision: 3 / 5, recall: 1, mrr: 1 })
  })
})

describe("coverage and CCH verdicts", () => {
  const positive = q({ mustContain: ["deployctl rollback", "`--to previous`"] })

  it("correct-cited when every needle is in claims from relevant notes, matched normalised", () => {
    const o = { ...obs(positive, []), claims: [claim("a.md", "Run Deployctl   rollback --to previous now")] }
    assert.deepStrictEqual(M.answerCoverage(o), { all: true, any: true })
    assert.strictEqual(M.verdict(o), "correct-cited")
  })

  it("uncited when a needle only comes back under a note the question does not name", () => {
    const o = { ...obs(positive, []), claims: [claim("a.md", "deployctl rollback"), claim("z.md", "--to previous")] }
    assert.strictEqual(M.verdict(o), "uncited")
  })

  it("unsupported when a needle is absent", () => {
    const o = { ...obs(positive, []), claims: [claim("a.md", "deployctl rollback")] }
    assert.deepStrictEqual(M.answerCoverage(o), { all: false, any: true })
    assert.strictEqual(M.verdict(o), "unsupported")
  })

  it("a negative question: honest-gap with a knowledge gap, wrong without one; notices do not count", () => {
    const negative = q({ relevant: [], mustNotContain: ["recovery time objective"] })
    assert.strictEqual(M.verdict(obs(negative, [], { gaps: [{ reason: "no_results", text: "No claims found for x." }] })), "honest-gap")
    assert.strictEqual(M.verdict(obs(negative, ["a.md"], { gaps: [{ reason: "budget_truncated", text: "cut" }] })), "wrong")
  })

  it("summarises CCH over judged questions only", () => {
    const adversarial = q({ relevant: [], kind: "long-unbroken-token" })
    const summary = M.summariseVerdicts([
      { ...obs(positive, []), claims: [claim("a.md", "deployctl rollback --to previous")] },
      obs(q({ relevant: [] }), [], { gaps: [{ reason: "low_confidence", text: "stale" }] }),
      { ...obs(positive, []), claims: [] },
      obs(adversarial, [])
    ])
    assert.strictEqual(summary.judged, 3)
    assert.strictEqual(summary.unjudged, 1)
    assert.closeTo(summary.cch, 2 / 3, 1e-12)
  })
})

describe("sets, traps, conflicts, staleness, tokens", () => {
  it("negative-set rates", () => {
    const negative = q({ relevant: [] })
    const rates = M.negativeRates([
      obs(negative, [], { gaps: [{ reason: "no_results", text: "none" }] }),
      obs(negative, ["a.md"]),
      obs(negative, ["a.md"], { gaps: [{ reason: "implied_type", text: "none" }] }),
      obs(q(), ["a.md"])
    ])
    assert.deepStrictEqual(rates, { count: 3, emptyRecall: 2 / 3, falseConfidence: 1 / 3 })
  })

  it("decoy traps count only fireable decoys", () => {
    const o1 = { ...obs(q({ mustNotContain: ["old value", "never written"] }), []), claims: [claim("a.md", "the OLD value")] }
    const traps = M.decoyTraps([o1], (needle) => needle !== "never written")
    assert.deepStrictEqual([traps.fireable, traps.fired, traps.rate], [1, 1, 1])
    assert.deepStrictEqual(traps.unfireable, ["q-1: never written"])
  })

  it("conflict recall and precision against planted pairs", () => {
    const planted = [{ id: "c1", refs: ["a.md", "b.md"], resolved: false }, { id: "c2", refs: ["d.md", "e.md"], resolved: true }]
    const scores = M.conflictScores([
      obs(q({ expectConflict: "c1" }), [], { conflicts: [{ topic: "ttl", refs: ["a.md:1-2#x", "b.md:3-4#y"] }] }),
      obs(q({ expectConflict: "c1" }), [], { conflicts: [{ topic: "other", refs: ["d.md:1-2#x", "e.md:1-2#y"] }] })
    ], planted)
    assert.deepStrictEqual(scores, { expected: 2, recall: 1 / 2, reported: 2, precision: 1 / 2 })
  })

  it("staleness is the share of returned claims a newer note contradicts", () => {
    assert.deepStrictEqual(M.staleness([obs(q(), ["old.md", "a.md", "old.md", "b.md"])], new Set(["old.md"])), { claims: 4, stale: 2, rate: 0.5 })
  })

  it("median averages the two middle values, p50 is nearest-rank", () => {
    assert.strictEqual(M.medianOf([1, 2, 3, 10]), 2.5)
    assert.strictEqual(M.percentile([1, 2, 3, 10], 50), 2)
    assert.strictEqual(M.percentile([1, 2, 3, 10], 95), 10)
    const dist = M.tokenDistribution([obs(q(), [], { usedTokens: 10 }), obs(q(), [], { usedTokens: 5_000, budgetTokens: 4_000 })])
    assert.deepStrictEqual(dist, { median: 2_505, p50: 10, p95: 5_000, max: 5_000, violations: 1 })
  })
})
