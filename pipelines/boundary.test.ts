import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { makePack } from "../src/retrieval/pack.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { healthy, query } from "../test/support/Fixtures.ts"
import { neverSilent } from "./boundary.ts"

const silent: ContextPack = {
  query: "q",
  budgetTokens: 100,
  usedTokens: 0,
  claims: [],
  conflicts: [],
  gaps: [],
  indexHealth: { embeddingCoverage: 1, lagSeconds: 0 },
  budget: { requested: 100, used: 0, report: 0, dropped: 0 },
  partial: false
}

describe("boundary", () => {
  it.effect("neverSilent - a pack with neither claims nor gaps gets the packer's own fallback gap", () =>
    Effect.gen(function*() {
      const guarded = yield* neverSilent(Effect.succeed(silent))
      const packed = makePack(TokenCounterDefault.counter.count, RetrievalConfig.defaults)({
        query: query("q", 100),
        candidates: [],
        conflicts: [],
        gaps: [],
        indexHealth: healthy
      })
      assert.deepStrictEqual(guarded.gaps, packed.gaps)
      assert.strictEqual(guarded.gaps.length, 1)
    }))

  it.effect("neverSilent - uses the configured fallback text", () =>
    Effect.gen(function*() {
      const guarded = yield* neverSilent(Effect.succeed(silent))
      assert.deepStrictEqual(guarded.gaps, [{ reason: "no_results", text: "Nothing here." }])
    }).pipe(Effect.provide(RetrievalConfig.layer({ fallbackGapText: "Nothing here." }))))

  it.effect("neverSilent - leaves a pack that already speaks untouched", () =>
    Effect.gen(function*() {
      const speaking = { ...silent, gaps: [{ reason: "leg_failed" as const, text: "dense timed out" }] }
      assert.strictEqual(yield* neverSilent(Effect.succeed(speaking)), speaking)
    }))
})
