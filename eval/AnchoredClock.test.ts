import { assert, describe, it } from "@effect/vitest"
import { Clock, Duration, Effect } from "effect"
import { anchored } from "./AnchoredClock.ts"

describe("anchored clock", () => {
  it.effect("wall-clock reads return the anchor", () =>
    Effect.gen(function*() {
      const anchor = Date.UTC(2026, 9, 1)
      assert.strictEqual(yield* Clock.currentTimeMillis.pipe(anchored(anchor)), anchor)
    }))
})

describe("anchored clock, live", () => {
  it.live("sleeping and elapsed time stay real", () =>
    Effect.gen(function*() {
      const [duration] = yield* Effect.timed(Effect.sleep("5 millis")).pipe(anchored(0))
      assert.isAtLeast(Duration.toMillis(duration), 4)
      const nanos = yield* Clock.currentTimeNanos.pipe(anchored(0))
      assert.isAbove(Number(nanos), 0)
    }))
})
