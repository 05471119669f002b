/**
 * The packer's contracts, for arbitrary candidate lists and every budget 0..32,000:
 * used ≤ budget; no claims ⇒ some gap; the whole serialised pack fits from the reserve up; and the
 * same input in any order gives the same bytes.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import * as ContextPack from "../src/domain/ContextPack.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { makePack, type PackInput } from "../src/retrieval/pack.ts"
import * as Wasm from "../layers/tokens/TokenCounterWasm.ts"
import { healthy, query } from "../test/support/Fixtures.ts"
import { budget, candidateList, conflictList, gapList, hostileText } from "./arbitraries.ts"

const count = Wasm.counter.count
const pack = makePack(count, RetrievalConfig.defaults)
const RUNS = { numRuns: 200, seed: 20261130 }

const packInput = fc.record({
  text: hostileText,
  budget,
  explain: fc.boolean(),
  candidates: candidateList(40),
  gaps: gapList,
  conflicts: conflictList
}).map((r): PackInput => ({
  query: query(r.text, r.budget, r.explain),
  candidates: r.candidates,
  conflicts: r.conflicts,
  gaps: r.gaps,
  indexHealth: healthy
}))

/** Long lists of short candidates: the greedy fill and the final re-measure at scale. */
const hugeInput = fc.record({ budget, candidates: candidateList(400) }).map((r): PackInput => ({
  query: query("what does the repository say about budgets?", r.budget),
  candidates: r.candidates,
  conflicts: [],
  gaps: [],
  indexHealth: healthy
}))

describe("pack contracts", () => {
  it("huge candidate lists keep both contracts and the whole-pack bound", () => {
    fc.assert(fc.property(hugeInput, (input) => {
      const result = pack(input)
      assert.isAtMost(result.usedTokens, result.budgetTokens)
      assert.isTrue(result.claims.length > 0 || result.gaps.length > 0)
      if (input.query.budgetTokens >= RetrievalConfig.defaults.reportReserveTokens) {
        assert.isAtMost(count(ContextPack.serialise(result)), input.query.budgetTokens)
      }
    }), RUNS)
  }, 60_000)

  it("used_tokens never exceeds budget_tokens, and equals the claims' cost", () => {
    fc.assert(fc.property(packInput, (input) => {
      const result = pack(input)
      assert.isAtMost(result.usedTokens, result.budgetTokens)
      const charged = result.claims.reduce((sum, claim) => sum + count(JSON.stringify(ContextPack.claimToWire(claim))), 0)
      assert.strictEqual(result.usedTokens, charged)
    }), RUNS)
  })

  it("empty claims imply non-empty gaps", () => {
    fc.assert(fc.property(packInput, (input) => {
      const result = pack(input)
      if (result.claims.length === 0) assert.isAbove(result.gaps.length, 0)
    }), RUNS)
  })

  it("the whole serialised pack fits whenever the budget is at least the report reserve", () => {
    fc.assert(fc.property(packInput, (input) => {
      const result = pack(input)
      if (input.query.budgetTokens >= RetrievalConfig.defaults.reportReserveTokens) {
        assert.isAtMost(count(ContextPack.serialise(result)), input.query.budgetTokens)
      }
    }), RUNS)
  })

  it("the wire form decodes back to the pack", () => {
    fc.assert(fc.property(packInput, (input) => {
      const result = pack(input)
      assert.deepStrictEqual(ContextPack.decodeWireSync(JSON.parse(ContextPack.serialise(result))), result)
    }), RUNS)
  })

  it("the same candidates in any order give identical bytes", () => {
    fc.assert(fc.property(packInput, fc.integer(), (input, seed) => {
      const shuffled = fc.sample(fc.shuffledSubarray([...input.candidates], { minLength: input.candidates.length }), { seed, numRuns: 1 })[0]!
      assert.strictEqual(
        ContextPack.serialise(pack({ ...input, candidates: shuffled })),
        ContextPack.serialise(pack(input))
      )
    }), RUNS)
  })
})
