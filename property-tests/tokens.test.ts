/**
 * The bounded counter against the real encoders: never fewer tokens than js-tiktoken, equal to it
 * when no piece exceeds 512 bytes, and the WASM and JavaScript layers count identically.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import * as Js from "../layers/tokens/TokenCounterJs.ts"
import * as Wasm from "../layers/tokens/TokenCounterWasm.ts"
import { hasOverlongPiece } from "../src/retrieval/tokens.ts"
import { hostileText, prose } from "./arbitraries.ts"

const RUNS = { numRuns: 200, seed: 20261130 }

describe("bounded token counter", () => {
  it("never counts fewer tokens than js-tiktoken, and equals it without an over-long piece", () => {
    fc.assert(fc.property(hostileText, (text) => {
      const exact = Js.exactCountUnsafe(text)
      const guarded = Js.counter.count(text)
      if (hasOverlongPiece(text)) assert.isAtLeast(guarded, exact)
      else assert.strictEqual(guarded, exact)
    }), RUNS)
  })

  it("the WASM and JavaScript layers count identically", () => {
    fc.assert(fc.property(fc.oneof(prose, fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 })), (text) => {
      assert.strictEqual(Wasm.counter.count(text), Js.counter.count(text))
      assert.strictEqual(Wasm.exactCountUnsafe(text), Js.exactCountUnsafe(text))
    }), RUNS)
  })

  it("the guarded WASM count never falls below the exact WASM count", () => {
    fc.assert(fc.property(hostileText, (text) => {
      assert.isAtLeast(Wasm.counter.count(text), Wasm.exactCountUnsafe(text))
    }), RUNS)
  })
})
