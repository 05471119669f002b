/**
 * The prebuilt cl100k rank table: the decoded listing written by the build (scripts/build.ts) as
 * typed arrays, so the command reads about a megabyte of bytes instead of loading and decoding
 * js-tiktoken's 1 MB module of base64. Layout, in the platform's byte order:
 *
 *   header  8 × uint32  magic, format version, the listing file's size, tokens, spelling bytes, checksum, slots, 0
 *   ranks   tokens × int32
 *   slots   slots × int32    the lookup's hash table (Cl100kRanks.slotsOf), so reading needs no hashing
 *   lengths tokens × uint8   each token's spelling length
 *   spelling                 every token's bytes, one after another
 *
 * A table is trusted only when its magic, version, sizes and checksum hold and it records the size of
 * the listing installed beside it; otherwise the caller decodes the listing, as without a table.
 */
import type { RankArrays } from "./Cl100kRanks.ts"

/** Where the build writes the table: beside the bundle's chunks. */
export const FILE_NAME = "cl100k.table"

// "cl1k", read in the platform's byte order: a table written on a machine of the other order fails here.
const MAGIC = 0x6b316c63
const VERSION = 2
const HEADER_WORDS = 8

/** FNV-1a over 32-bit words, then the trailing bytes: detects damage (not tampering) at a few ms a megabyte. */
const checksum = (bytes: Uint8Array, from: number): number => {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + from, (bytes.length - from) >> 2)
  let hash = 0x811c9dc5
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193)
  for (let i = from + words.length * 4; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return hash >>> 0
}

/** The table file for `arrays` with their `slots`, decoded from a listing whose file is `listingBytes` long. */
export const write = ({ spelling, tokenRank, tokenStart }: RankArrays, slots: Int32Array, listingBytes: number): Uint8Array => {
  const tokens = tokenRank.length
  const lengthsAt = HEADER_WORDS * 4 + tokens * 4 + slots.length * 4
  const body = lengthsAt + tokens
  const bytes = new Uint8Array(body + spelling.length)
  new Int32Array(bytes.buffer, HEADER_WORDS * 4, tokens).set(tokenRank)
  new Int32Array(bytes.buffer, HEADER_WORDS * 4 + tokens * 4, slots.length).set(slots)
  for (let token = 0; token < tokens; token++) {
    const length = tokenStart[token + 1]! - tokenStart[token]!
    if (length > 0xff) throw new Error(`cl100k table: token ${token} is ${length} bytes, more than a length byte holds`)
    bytes[lengthsAt + token] = length
  }
  bytes.set(spelling, body)
  new Uint32Array(bytes.buffer, 0, HEADER_WORDS).set([MAGIC, VERSION, listingBytes, tokens, spelling.length, checksum(bytes, HEADER_WORDS * 4), slots.length, 0])
  return bytes
}

/** The arrays in `file`, or undefined unless it is a sound table built from a listing of `listingBytes` bytes. */
export const read = (file: Uint8Array, listingBytes: number): RankArrays | undefined => {
  if (file.length < HEADER_WORDS * 4) return undefined
  // Typed views need 4-byte alignment; a buffer Node hands back may sit anywhere in its pool.
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice()
  const [magic, version, listing, tokens, spellingBytes, sum, slotCount] = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS)
  if (magic !== MAGIC || version !== VERSION || listing !== listingBytes || tokens === undefined || spellingBytes === undefined || slotCount === undefined) return undefined
  // A lookup masks hashes by the slot count: it must be a power of two with room for every token.
  if (slotCount < tokens * 2 || (slotCount & (slotCount - 1)) !== 0) return undefined
  const lengthsAt = HEADER_WORDS * 4 + tokens * 4 + slotCount * 4
  const body = lengthsAt + tokens
  if (bytes.length !== body + spellingBytes || checksum(bytes, HEADER_WORDS * 4) !== sum) return undefined
  const tokenStart = new Int32Array(tokens + 1)
  const lengths = bytes.subarray(lengthsAt, body)
  for (let token = 0; token < tokens; token++) tokenStart[token + 1] = tokenStart[token]! + lengths[token]!
  if (tokenStart[tokens] !== spellingBytes) return undefined
  return {
    spelling: bytes.subarray(body),
    tokenStart,
    tokenRank: new Int32Array(bytes.buffer, bytes.byteOffset + HEADER_WORDS * 4, tokens),
    slots: new Int32Array(bytes.buffer, bytes.byteOffset + HEADER_WORDS * 4 + tokens * 4, slotCount)
  }
}
