/**
 * cl100k_base through the `tiktoken` WebAssembly build, which ships its own binary: the reference
 * the default TypeScript counter (TokenCounterBpe) is tested against. Its start, about 140 ms, is
 * why it is no longer the default (bench:pack).
 */
import { get_encoding, type Tiktoken } from "tiktoken"
import { Layer } from "effect"
import { TokenCounter, type TokenCounterShape } from "../../src/ports/TokenCounter.ts"
import { bounded } from "../../src/text/TokenCount.ts"

// One encoder for the process: it owns WebAssembly memory that is only released by `free()`.
let encoder: Tiktoken | undefined

/** The unguarded exact count; only for tests that compare against the guard. */
export const exactCountUnsafe = (text: string): number => {
  encoder ??= get_encoding("cl100k_base")
  return encoder.encode_ordinary(text).length
}

export const counter: TokenCounterShape = {
  id: "cl100k_base/wasm",
  exact: true,
  count: bounded(exactCountUnsafe)
}

export const layer: Layer.Layer<TokenCounter> = Layer.succeed(TokenCounter, counter)
