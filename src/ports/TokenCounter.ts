/**
 * Counts the tokens a text costs an agent. Every budget in cairn is stated in the counter's tokens,
 * and the packer's contract is proved against the counter it was given, so swapping the counter in
 * one place and not another breaks the proof.
 */
import { Context } from "effect"

export interface TokenCounterShape {
  /** Names the encoding and the implementation, e.g. `cl100k_base/wasm`; recorded in reports. */
  readonly id: string
  /** False for estimates (the approximate counter), which must be labelled wherever used. */
  readonly exact: boolean
  /**
   * Tokens of `text`, special-token text counted as plain text. Never throws; linear in the input.
   * An exact counter never counts fewer tokens than the encoding would; an estimate may, which is
   * why it says so in `exact`.
   */
  readonly count: (text: string) => number
}

export class TokenCounter extends Context.Service<TokenCounter, TokenCounterShape>()("cairn/ports/TokenCounter") {}
