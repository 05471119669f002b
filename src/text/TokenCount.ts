/**
 * The bounded token counter. Byte-pair encoding is quadratic in the bytes of one pre-token piece, and
 * one word with no space in it is one piece, so a 16 KB unbroken query could cost a minute of CPU.
 * Pieces of at most `MAX_UNBROKEN_RUN_BYTES` are counted exactly by the wrapped encoder; a longer
 * piece is charged its UTF-8 byte length instead, which can only over-count (every cl100k token is at
 * least one byte). Cost stays linear in the input.
 */

import { detached } from "../source/Detached.ts"
import * as PieceMemo from "./PieceMemo.ts"
import { pieceEnd } from "./Pieces.ts"

/** Longest piece counted exactly. A CPU protection, not a tunable: no request may raise it. */
export const MAX_UNBROKEN_RUN_BYTES = 512

/**
 * cl100k_base's pre-tokeniser: how the encoder cuts text into pieces before merging bytes. It is
 * tiktoken's pattern with `\s` spelt `\p{White_Space}`, the class tiktoken's regex engine means by
 * `\s`; JavaScript's `\s` also takes U+FEFF and leaves out U+0085, so a file that opens with a
 * byte-order mark would otherwise be cut, and counted, differently.
 */
export const CL100K_PIECE_PATTERN =
  "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+"

/**
 * A quick screen before a piece walk. A piece over 512 bytes has at least 129 code points (4 bytes
 * at most each). A letter piece is one optional leading character and a letter run, so it needs a
 * run of 128 letters; a punctuation piece is an optional space, a punctuation run and a newline run,
 * so it needs 64 of one of them; a space piece needs 129 spaces. Without any such run no piece is
 * over-long. (JSON has long non-space runs, so a plain non-space screen would walk every
 * serialised claim.)
 */
const POSSIBLY_LONG_PIECE = /\p{L}{128,}|[^\p{White_Space}\p{L}\p{N}]{64,}|\p{White_Space}{64,}/u

/** UTF-8 length without allocating; a lone surrogate encodes as U+FFFD, 3 bytes. */
export const utf8Length = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** The longest pre-token piece of `text`, in UTF-8 bytes. Linear; used by tests and the query clamp. */
export const longestPieceBytes = (text: string): number => {
  let longest = 0
  for (const match of text.matchAll(new RegExp(CL100K_PIECE_PATTERN, "gu"))) {
    const piece = match[0]
    if (piece.length * 3 > longest) longest = Math.max(longest, utf8Length(piece))
  }
  return longest
}

/** True when some piece of `text` is too long to count exactly. */
export const hasOverlongPiece = (text: string): boolean =>
  POSSIBLY_LONG_PIECE.test(text) && longestPieceBytes(text) > MAX_UNBROKEN_RUN_BYTES

/** Distinct pieces remembered per counter before the memo starts over; bounds its memory. */
export const MAX_MEMOIZED_PIECES = 200_000

/**
 * Wrap an exact encoder so its cost stays linear. The encoder splits text into pieces with the
 * pattern above and merges bytes within each piece independently, so the count of a text is the sum
 * of its pieces' counts: this walks the pieces once (`pieceEnd`, the pattern as a scanner), charges
 * an over-long piece its UTF-8 byte length, and asks the encoder only about pieces it has not seen.
 * Real text repeats its words, so the memo also makes counting several times faster than encoding
 * whole texts.
 */
export const bounded = (exactCount: (text: string) => number): (text: string) => number => {
  const memo = PieceMemo.make(MAX_MEMOIZED_PIECES)
  return (text) => {
    let total = 0
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = pieceEnd(text, start)
      const known = memo.get(text, start, end)
      if (known >= 0) {
        total += known
        continue
      }
      const piece = text.slice(start, end)
      if (piece.length * 3 > MAX_UNBROKEN_RUN_BYTES) {
        const bytes = utf8Length(piece)
        if (bytes > MAX_UNBROKEN_RUN_BYTES) {
          total += bytes
          continue
        }
      }
      const count = exactCount(piece)
      // A copy: the piece is a view into the counted text, which is often a view into a whole file.
      memo.set(detached(piece), count)
      total += count
    }
    return total
  }
}

/** Characters per token and per-message overhead of the approximate counter (an ablation, never exact). */
export const APPROXIMATE_CHARS_PER_TOKEN = 4
export const APPROXIMATE_TOKENS_PER_MESSAGE = 2

/** Four characters a token plus two per message: cheap, and labelled as an estimate wherever used. */
export const approximateCount = (text: string): number =>
  Math.ceil(text.length / APPROXIMATE_CHARS_PER_TOKEN) + APPROXIMATE_TOKENS_PER_MESSAGE
