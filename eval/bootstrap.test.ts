import { assert, describe, it } from "@effect/vitest"
import { pairedBootstrap } from "./bootstrap.ts"

describe("paired bootstrap", () => {
  it("identical conditions give a zero delta with a zero-width interval", () => {
    const a = new Map([["q1", 1], ["q2", 0], ["q3", 1]])
    assert.deepStrictEqual(pairedBootstrap(a, a), { delta: 0, low: 0, high: 0, gained: [], lost: [] })
  })

  it("names the questions gained and lost, and brackets the mean delta", () => {
    const a = new Map([["q1", 0], ["q2", 1], ["q3", 0], ["q4", 0]])
    const b = new Map([["q1", 1], ["q2", 0], ["q3", 1], ["q4", 0]])
    const result = pairedBootstrap(a, b)
    assert.strictEqual(result.delta, 0.25)
    assert.deepStrictEqual(result.gained, ["q1", "q3"])
    assert.deepStrictEqual(result.lost, ["q2"])
    assert.isAtMost(result.low, result.delta)
    assert.isAtLeast(result.high, result.delta)
    // Every resampled mean lies between the smallest and largest per-question delta.
    assert.isAtLeast(result.low, -1)
    assert.isAtMost(result.high, 1)
  })

  it("is reproducible for a seed", () => {
    const a = new Map(Array.from({ length: 30 }, (_, i) => [`q${i}`, i % 3 === 0 ? 1 : 0] as const))
    const b = new Map(Array.from({ length: 30 }, (_, i) => [`q${i}`, i % 2 === 0 ? 1 : 0] as const))
    assert.deepStrictEqual(pairedBootstrap(a, b, { seed: 7 }), pairedBootstrap(a, b, { seed: 7 }))
  })
})
