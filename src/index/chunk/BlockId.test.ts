import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import { BLOCK_ID_HEX, blockId, disambiguate } from "./BlockId.ts"

describe("BlockId", () => {
  it.effect("blockId - hex of the configured length, unchanged by reflowed whitespace, changed by a word or the heading path", () =>
    Effect.gen(function*() {
      const a = yield* blockId(["Setup"], "Install the  tools.\nThen run.")
      assert.match(a, new RegExp(`^[0-9a-f]{${BLOCK_ID_HEX}}$`))
      assert.strictEqual(yield* blockId(["Setup"], "Install the tools. Then run."), a)
      assert.notStrictEqual(yield* blockId(["Setup"], "Install the tools. Then stop."), a)
      assert.notStrictEqual(yield* blockId(["Rollback"], "Install the tools. Then run."), a)
      // The path's parts are kept apart: ["a b"] is not ["a", "b"].
      assert.notStrictEqual(yield* blockId(["a b"], "x"), yield* blockId(["a", "b"], "x"))
    }).pipe(Effect.provide(Digest.layerWebCrypto)))

  it("disambiguate - repeats get -2, -3 in order; the first keeps the plain id", () => {
    assert.deepStrictEqual(disambiguate(["a", "b", "a", "a"]), ["a", "b", "a-2", "a-3"])
  })
})
