/**
 * Content-derived block ids. A chunk's id hashes what it says and where it sits in the note (its
 * heading path, or a code chunk's symbols), never its line numbers, so an unchanged paragraph keeps
 * its id when the rest of the file is edited, moved or reordered. The note title is left out so a
 * renamed note keeps its block ids too.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import { sha256Text } from "../../source/Hashing.ts"

/** Hex characters of the hash kept as the id: 48 bits, ample for the chunks of one file. */
export const BLOCK_ID_HEX = 12

/** Whitespace runs collapsed to one space and the ends trimmed, after Unicode NFC, so reflowing a paragraph keeps its id. */
export const normalise = (text: string): string => text.normalize("NFC").replace(/\s+/gu, " ").trim()

/** The id of a block from where it sits (heading path or symbols) and its text without the header line. */
export const blockId = (place: ReadonlyArray<string>, body: string): Effect.Effect<string, never, Digest.Digest> =>
  Effect.map(
    sha256Text(`${place.map(normalise).join("\u001f")}\u001e${normalise(body)}`),
    (hex) => hex.slice(0, BLOCK_ID_HEX)
  )

/**
 * Makes ids unique within a file: a repeated id (two identical sections under one heading path)
 * gets `-2`, `-3`… in document order, so the first occurrence keeps the plain id.
 */
export const disambiguate = (ids: ReadonlyArray<string>): Array<string> => {
  const seen = new Map<string, number>()
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    return n === 1 ? id : `${id}-${n}`
  })
}
