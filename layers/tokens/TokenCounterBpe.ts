/**
 * cl100k_base counted in TypeScript: text cut into the pre-tokeniser's pieces (`pieceEnd`), each
 * piece's UTF-8 bytes merged pair by pair over the shipped ranks (`Cl100kRanks`), lowest rank first
 * and leftmost on a tie, as tiktoken merges. Its counts equal the WebAssembly encoder's, which is
 * tiktoken itself (the tests compare them over this repository's files and generated text). It is
 * the default because it starts in a few tens of milliseconds where the WebAssembly encoder takes
 * over a hundred, and a one-shot `cairn ask` pays the start on every run.
 */
import { Layer } from "effect"
import { TokenCounter, type TokenCounterShape } from "../../src/ports/TokenCounter.ts"
import { pieceEnd } from "../../src/text/Pieces.ts"
import { bounded } from "../../src/text/TokenCount.ts"
import { cl100kRanks, type RankTable } from "./Cl100kRanks.ts"

const NO_MERGE = 0x7fffffff
const utf8 = new TextEncoder()

// Scratch for one piece, grown as needed: the piece's bytes, its parts' boundaries (one more than
// the parts) and the rank of merging each part with the next.
let bytes = new Uint8Array(1024)
let bounds = new Int32Array(1025)
let pairRanks = new Int32Array(1024)

/** Tokens of one pre-token piece over `ranks`: the number of parts left when no adjacent pair spells a token. */
export const pieceTokensIn = (ranks: RankTable, piece: string): number => {
  // A UTF-16 unit is at most three UTF-8 bytes (a surrogate pair, two units, is four).
  if (bytes.length < piece.length * 3) {
    bytes = new Uint8Array(piece.length * 3)
    bounds = new Int32Array(piece.length * 3 + 1)
    pairRanks = new Int32Array(piece.length * 3)
  }
  const length = utf8.encodeInto(piece, bytes).written
  if (length <= 1) return length
  if (ranks.rankOf(bytes, 0, length) >= 0) return 1

  let parts = length
  const mergeRank = (part: number): number => {
    if (part + 1 >= parts) return NO_MERGE
    const rank = ranks.rankOf(bytes, bounds[part]!, bounds[part + 2]!)
    return rank < 0 ? NO_MERGE : rank
  }
  for (let i = 0; i <= length; i++) bounds[i] = i
  for (let i = 0; i < parts - 1; i++) pairRanks[i] = mergeRank(i)
  for (;;) {
    let best = -1
    let bestRank = NO_MERGE
    for (let i = 0; i < parts - 1; i++) {
      if (pairRanks[i]! < bestRank) {
        bestRank = pairRanks[i]!
        best = i
      }
    }
    if (best < 0) return parts
    // Part `best` absorbs the next: drop the boundary between them and the pair rank it closed.
    bounds.copyWithin(best + 1, best + 2, parts + 1)
    pairRanks.copyWithin(best + 1, best + 2, parts - 1)
    parts--
    pairRanks[best] = mergeRank(best)
    if (best > 0) pairRanks[best - 1] = mergeRank(best - 1)
  }
}

/** Tokens of one pre-token piece over cl100k's ranks. */
export const pieceTokens = (piece: string): number => pieceTokensIn(cl100kRanks(), piece)

/** The unguarded exact count; only for tests that compare against the guard. */
export const exactCountUnsafe = (text: string): number => {
  let total = 0
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start)
    total += pieceTokens(text.slice(start, end))
  }
  return total
}

export const counter: TokenCounterShape = {
  id: "cl100k_base/bpe",
  exact: true,
  // `bounded` hands over one piece at a time, already cut: no need to cut it again.
  count: bounded(pieceTokens)
}

export const layer: Layer.Layer<TokenCounter> = Layer.succeed(TokenCounter, counter)
