import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { hashParts2, hashString } from "./HashingEmbedder.ts"

describe("HashingEmbedder", () => {
  it("hashParts2 - both seeds of the concatenation, as hashString gives them, for any cut of any text", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 12 }), fc.integer(), fc.integer(), (parts, seedA, seedB) => {
        const joined = parts.join("")
        assert.deepStrictEqual(hashParts2(parts, seedA, seedB), [hashString(joined, seedA), hashString(joined, seedB)])
      }),
      { seed: 20261201, numRuns: 300 }
    )
  })
})
