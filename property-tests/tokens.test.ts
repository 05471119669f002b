/**
 * The bounded counter against the real encoders: never fewer tokens than the WASM encoder (tiktoken
 * itself), equal to it when no piece exceeds 512 bytes; the TypeScript layer counts as the WASM one;
 * js-tiktoken does too on text without the two characters JavaScript's `\s` disagrees on. The
 * pre-tokeniser scanner cuts where the pattern cuts.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import * as Bpe from "../layers/tokens/TokenCounterBpe.ts"
import * as Js from "../layers/tokens/TokenCounterJs.ts"
import * as Wasm from "../layers/tokens/TokenCounterWasm.ts"
import { pieceEnd } from "../src/text/Pieces.ts"
import { CL100K_PIECE_PATTERN, hasOverlongPiece } from "../src/text/TokenCount.ts"
import { hostileText, prose } from "./arbitraries.ts"

const RUNS = { numRuns: 200, seed: 20261130 }

describe("bounded token counter", () => {
  // Characters Unicode 17 assigned: this runtime's regular expressions know them as letters and
  // numbers, the WASM build's older tables do not, so the two encoders cut them apart differently.
  const UNICODE_17_ADDITIONS =
    /[\u088f\u0c5c\u0cdc\ua7ce-\ua7f1\u{10940}-\u{10959}\u{10ec5}-\u{10ec7}\u{11db0}-\u{11def}\u{16ea0}-\u{16edf}\u{16ff2}-\u{16ff6}\u{187f8}-\u{187ff}\u{18d09}-\u{18dff}\u{1e6c0}-\u{1e6ff}\u{2b73a}-\u{2b73f}\u{2cea2}-\u{2ceaf}\u{323b0}-\u{3347f}]/u

  it("the default counter never counts fewer tokens than the WASM encoder, and equals it without an over-long piece", () => {
    fc.assert(fc.property(hostileText.filter((t) => !UNICODE_17_ADDITIONS.test(t)), (text) => {
      const exact = Wasm.exactCountUnsafe(text)
      const guarded = Bpe.counter.count(text)
      if (hasOverlongPiece(text)) assert.isAtLeast(guarded, exact)
      else assert.strictEqual(guarded, exact)
    }), RUNS)
  }, 60_000)

  // js-tiktoken cuts with JavaScript's `\s`, which takes U+FEFF and leaves out U+0085.
  const JS_WHITE_SPACE_ONLY = /[\ufeff\u0085]/

  it("the WASM and js-tiktoken layers count identically on text without U+FEFF or U+0085", () => {
    const text = fc.oneof(prose, fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }))
    fc.assert(fc.property(text.filter((t) => !JS_WHITE_SPACE_ONLY.test(t) && !UNICODE_17_ADDITIONS.test(t)), (text) => {
      assert.strictEqual(Wasm.counter.count(text), Js.counter.count(text))
      assert.strictEqual(Wasm.exactCountUnsafe(text), Js.exactCountUnsafe(text))
    }), RUNS)
  }, 60_000)

  it("js-tiktoken parts from tiktoken on a byte-order mark, the default counter does not", () => {
    for (const text of ["\ufeff\ufeff\ufeff#", "\ufeff# Title\u0085next"]) {
      assert.strictEqual(Bpe.counter.count(text), Wasm.exactCountUnsafe(text))
    }
    assert.notStrictEqual(Js.exactCountUnsafe("\ufeff\ufeff\ufeff#"), Wasm.exactCountUnsafe("\ufeff\ufeff\ufeff#"))
  })

  // Characters where the pattern's alternatives meet: contractions, white space of each kind,
  // letters, numbers and punctuation in and beyond the BMP, lone surrogates, special-token text.
  const seams = fc.string({
    unit: fc.constantFrom("a", "Z", "é", "字", "𝐀", "𝟙", "1", "٣", "²", "½", " ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000",
      "\ufeff", "\u0085", "\v", "'", "s", "S", "t", "re", "RE", "ve", "ll", "L", "d", "D", "m", "M", "T", "v", "E", ".", "-", "😀", "\ud800", "\udc00", "\u0301",
      "<|endoftext|>"),
    maxLength: 40
  })

  it("the TypeScript layer counts as the WASM encoder", () => {
    const text = fc.oneof(prose, hostileText, seams, fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }))
    fc.assert(fc.property(text.filter((t) => !UNICODE_17_ADDITIONS.test(t)), (text) => {
      assert.strictEqual(Bpe.counter.count(text), Wasm.counter.count(text), JSON.stringify(text))
      if (!hasOverlongPiece(text)) assert.strictEqual(Bpe.exactCountUnsafe(text), Wasm.exactCountUnsafe(text), JSON.stringify(text))
    }), { numRuns: 2000, seed: 20261201 })
  }, 60_000)

  it("the guarded WASM count never falls below the exact WASM count", () => {
    fc.assert(fc.property(hostileText, (text) => {
      assert.isAtLeast(Wasm.counter.count(text), Wasm.exactCountUnsafe(text))
    }), RUNS)
  })

  it("the scanner cuts pieces exactly where the pattern does", () => {
    const pattern = new RegExp(CL100K_PIECE_PATTERN, "gu")
    const cutsAlike = (text: string) => {
      const scanned: Array<number> = []
      for (let start = 0; start < text.length; start = pieceEnd(text, start)) scanned.push(start)
      assert.deepStrictEqual(scanned, [...text.matchAll(pattern)].map((match) => match.index), JSON.stringify(text))
    }
    // Every contraction, in both cases, before a letter that would otherwise join it.
    for (const contraction of ["s", "t", "re", "ve", "m", "ll", "d", "rE", "Re", "vE", "lL", "Ll"]) {
      for (const text of [`'${contraction}a`, `'${contraction.toUpperCase()}a`, `x'${contraction}`, `'${contraction}`]) cutsAlike(text)
    }
    fc.assert(fc.property(fc.oneof(seams, hostileText, fc.string({ unit: "binary", maxLength: 200 })), cutsAlike), { numRuns: 2000, seed: 20261130 })
  })
})
