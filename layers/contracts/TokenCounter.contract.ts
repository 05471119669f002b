/**
 * Behaviour every TokenCounter backend must show, run against each backend by its own test file.
 * Every counter answers any text with a whole number and the same number each time; an exact one
 * (`exact: true`) also counts cl100k_base as tiktoken does, and never fewer.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import { TokenCounter } from "../../src/ports/TokenCounter.ts"

// Counted by tiktoken's WebAssembly build and by js-tiktoken, which agree on each.
const CL100K: ReadonlyArray<readonly [string, number]> = [
  ["", 0],
  ["hello world", 2],
  ["<|endoftext|>", 7],
  ["const x = await import('./a.js') // 字 😀 é\n\n\tindented", 17],
  ["Ünïcödé façade Straße", 11],
  ["getUserName max_retry_count HTTPServer", 7],
  ["   \n\t ", 2],
  ["日本語のテキスト", 8],
  ["👩‍👩‍👧‍👦", 18]
]

// A run with no break costs quadratic merging without the guard; tiktoken counts 700 z's as 350.
const UNBROKEN = "z".repeat(700)
const UNBROKEN_TOKENS = 350
const SURROUNDED = `intro words ${UNBROKEN} trailing words`
const SURROUNDED_TOKENS = 355

const HOSTILE: ReadonlyArray<string> = [
  ...CL100K.map(([text]) => text),
  UNBROKEN,
  "lone \ud800 and \udc00 surrogates",
  "\ufeff# A page saved with a byte-order mark\u0085next line",
  "<|fim_prefix|><|fim_middle|><|endofprompt|>",
  "a".repeat(200_000)
]

export const contract = <E>(name: string, layer: Layer.Layer<TokenCounter, E>) =>
  describe(`TokenCounter contract (${name})`, () => {
    const withCounter = <A>(f: (counter: TokenCounter["Service"]) => A) =>
      Effect.gen(function*() {
        return f(yield* TokenCounter)
      }).pipe(Effect.provide(layer))

    it.effect("id - names the encoding and implementation for reports", () =>
      withCounter((counter) => {
        assert.isAbove(counter.id.trim().length, 0)
        assert.isBoolean(counter.exact)
      }))

    it.effect("count - any text, a long unbroken run included, is a whole number of tokens, the same on every call", () =>
      withCounter((counter) => {
        for (const text of HOSTILE) {
          const count = counter.count(text)
          assert.isTrue(Number.isSafeInteger(count) && count >= 0, JSON.stringify(text.slice(0, 40)))
          assert.strictEqual(counter.count(text), count)
        }
        // More text never costs nothing: a counter that ignored its input would pass the lines above.
        assert.isAbove(counter.count("a".repeat(200_000)), counter.count("a"))
      }), 60_000) // long runs through a byte-pair counter take seconds on a loaded machine

    it.effect("count - an exact counter counts cl100k_base as tiktoken, special-token text as plain text", () =>
      withCounter((counter) => {
        if (!counter.exact) return
        for (const [text, tokens] of CL100K) assert.strictEqual(counter.count(text), tokens, JSON.stringify(text))
      }))

    it.effect("count - an exact counter never counts fewer than the encoding, even where its guard cuts a long run short", () =>
      withCounter((counter) => {
        if (!counter.exact) return
        assert.isAtLeast(counter.count(UNBROKEN), UNBROKEN_TOKENS)
        assert.isAtLeast(counter.count(SURROUNDED), SURROUNDED_TOKENS)
      }))
  })
