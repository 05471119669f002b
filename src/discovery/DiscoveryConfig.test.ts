import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DiscoveryConfig from "./DiscoveryConfig.ts"

describe("DiscoveryConfig", () => {
  it.effect("make - fills defaults", () =>
    Effect.gen(function*() {
      const config = yield* DiscoveryConfig.make({ areaDepth: 3 })
      assert.deepStrictEqual(config, { ...DiscoveryConfig.defaults, areaDepth: 3 })
    }))

  it.effect("make - a bad value fails with ConfigInvalid naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(DiscoveryConfig.make({ maxFileBytes: -1 }))
      assert.strictEqual(error.reason._tag, "ConfigInvalid")
      assert.strictEqual(error.reason._tag === "ConfigInvalid" ? error.reason.field : "", "maxFileBytes")
    }))

  it("hashedFields - ignores concurrency, which cannot change the snapshot", () => {
    assert.strictEqual(
      DiscoveryConfig.hashedFields({ ...DiscoveryConfig.defaults, concurrency: 1 }),
      DiscoveryConfig.hashedFields({ ...DiscoveryConfig.defaults, concurrency: 64 })
    )
    assert.notStrictEqual(
      DiscoveryConfig.hashedFields(DiscoveryConfig.defaults),
      DiscoveryConfig.hashedFields({ ...DiscoveryConfig.defaults, exclude: ["dist"] })
    )
  })
})
