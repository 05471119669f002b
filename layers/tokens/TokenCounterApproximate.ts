/** The approximate counter, for ablations only: its id says so in every report that used it. */
import { Layer } from "effect"
import { TokenCounter, type TokenCounterShape } from "../../src/ports/TokenCounter.ts"
import { approximateCount } from "../../src/text/TokenCount.ts"

export const counter: TokenCounterShape = {
  id: "approximate/4-chars-per-token",
  exact: false,
  count: approximateCount
}

export const layer: Layer.Layer<TokenCounter> = Layer.succeed(TokenCounter, counter)
