import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as RetrievalConfig from "./RetrievalConfig.ts"

describe("RetrievalConfig", () => {
  it.effect("resolve - no overrides gives the shipped defaults", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* RetrievalConfig.resolve({}), RetrievalConfig.defaults)
    }))

  it.effect("resolve - a nested table merges key by key", () =>
    Effect.gen(function*() {
      const config = yield* RetrievalConfig.resolve({ halfLifeDays: { state: 7 } })
      assert.strictEqual(config.halfLifeDays.state, 7)
      assert.strictEqual(config.halfLifeDays.decision, RetrievalConfig.defaults.halfLifeDays.decision)
    }))

  it.effect("resolve - an unknown key fails naming it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(RetrievalConfig.resolve({ rrfk: 10 }))
      assert.strictEqual(error._tag, "InvalidInput")
      assert.strictEqual(error.field, "rrfk")
    }))

  it.effect("resolve - an out-of-range floor fails naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(RetrievalConfig.resolve({ freshnessFloor: 1.5 }))
      assert.strictEqual(error.field, "freshnessFloor")
    }))

  it.effect("resolve - a wrong type deep in a table names the path", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(RetrievalConfig.resolve({ conflictGates: { choice: { minShared: "3" } } }))
      assert.strictEqual(error.field, "conflictGates.choice.minShared")
    }))

  it.effect("resolve - Infinity is allowed where it switches a stage off", () =>
    Effect.gen(function*() {
      const config = yield* RetrievalConfig.resolve({ rrfAbsentRankOffset: Infinity, rerankMinCorpus: Infinity })
      assert.strictEqual(config.rrfAbsentRankOffset, Infinity)
    }))

  it("retrievalConfigFor - off weighs unexpired trust rungs and both author kinds 1", () => {
    const off = RetrievalConfig.retrievalConfigFor("off")
    assert.deepStrictEqual(off.verificationWeights, { verified: 1, accepted: 1, unverified: 1, stale: 0.5, superseded: 0.2 })
    assert.deepStrictEqual(off.authorKindWeights, { human: 1, agent: 1 })
    assert.strictEqual(RetrievalConfig.retrievalConfigFor("on"), RetrievalConfig.defaults)
  })

  it.effect("layer - provided overrides reach whoever reads the reference", () =>
    Effect.gen(function*() {
      const config = yield* RetrievalConfig.RetrievalConfig
      assert.strictEqual(config.maxGaps, 1)
    }).pipe(Effect.provide(RetrievalConfig.layer({ maxGaps: 1 }))))

  it.effect("layer - invalid overrides fail the layer with InvalidInput", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Layer.build(RetrievalConfig.layer({ maxGaps: -1 })).pipe(Effect.scoped))
      assert.strictEqual(error._tag, "InvalidInput")
    }))
})
