/**
 * cl100k_base through js-tiktoken, kept for comparison. Behind the bounded guard, and special-token
 * text is counted as the plain text it is. It cuts pieces with JavaScript's `\s`, so on text holding
 * U+FEFF or U+0085 it counts differently from tiktoken (see `CL100K_PIECE_PATTERN`).
 */
import { Tiktoken } from "js-tiktoken/lite"
import cl100k from "js-tiktoken/ranks/cl100k_base"
import { Layer } from "effect"
import { TokenCounter, type TokenCounterShape } from "../../src/ports/TokenCounter.ts"
import { bounded } from "../../src/text/TokenCount.ts"

let encoder: Tiktoken | undefined

/** The unguarded exact count; only for tests that compare against the guard. */
export const exactCountUnsafe = (text: string): number => {
  encoder ??= new Tiktoken(cl100k)
  // Empty allowed and disallowed lists: `<|endoftext|>` in a file is text, and must not throw.
  return encoder.encode(text, [], []).length
}

export const counter: TokenCounterShape = {
  id: "cl100k_base/js-tiktoken",
  exact: true,
  count: bounded(exactCountUnsafe)
}

export const layer: Layer.Layer<TokenCounter> = Layer.succeed(TokenCounter, counter)
