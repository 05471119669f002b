/**
 * cl100k_base's merge ranks, looked up by a stretch of bytes: one byte buffer of every token's
 * spelling and an open-addressing table over FNV-1a hashes, so a lookup hashes and compares bytes in
 * place and allocates nothing. The ranks come from the table the build writes beside the command's
 * bundle (Cl100kTable) when it is there and sound, else from js-tiktoken's listing, decoded here: a
 * one-shot `cairn ask` pays for this on every run, and the listing is a 1 MB module to load.
 */
// Namespace imports: a consumer's bundle often declares `createRequire` in a banner of its own.
import * as NodeFs from "node:fs"
import * as NodeModule from "node:module"
import * as Cl100kTable from "./Cl100kTable.ts"

export interface RankTable {
  /** The rank of the token spelt by `bytes[start, end)`, or -1 when no token is spelt so. */
  readonly rankOf: (bytes: Uint8Array, start: number, end: number) => number
}

/** The shipped format: lines of `<label> <first rank> <base64 token> <base64 token> ...`. */
export interface CompressedRanks {
  readonly bpe_ranks: string
}

/** The ranks as flat arrays, in listing order: what a table is built from and what the build writes. */
export interface RankArrays {
  /** Every token's bytes, one after another. */
  readonly spelling: Uint8Array
  /** Token `i` is spelt by `spelling[tokenStart[i], tokenStart[i + 1])`; one more entry than tokens. */
  readonly tokenStart: Int32Array
  readonly tokenRank: Int32Array
  /**
   * The open-addressing table over the spellings (`slotsOf`): each slot a token's index plus one,
   * zero empty. The prebuilt table carries it, so a one-shot command does not hash 100,000 tokens.
   */
  readonly slots?: Int32Array
}

/** The listing js-tiktoken ships; its file's size is what a prebuilt table records of its source. */
export const LISTING = "js-tiktoken/ranks/cl100k_base"

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const SEXTET = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64_ALPHABET.length; i++) SEXTET[BASE64_ALPHABET.charCodeAt(i)] = i

const PAD = 0x3d

const hashOf = (bytes: Uint8Array, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return hash
}

/** Decode a listing into arrays; throws on a malformed listing, which only a broken install could hold. */
export const decodeArrays = (ranks: CompressedRanks): RankArrays => {
  const text = ranks.bpe_ranks
  // Every four base64 characters spell at most three bytes, so this bounds the decoded size.
  const spelling = new Uint8Array(Math.ceil(text.length * 0.75))
  const starts: Array<number> = []
  const rankList: Array<number> = []
  let written = 0

  const decodeToken = (from: number, to: number): void => {
    let buffer = 0
    let bits = 0
    for (let cursor = from; cursor < to; cursor++) {
      const code = text.charCodeAt(cursor)
      if (code === PAD) continue
      const sextet = code < 128 ? SEXTET[code]! : -1
      if (sextet < 0) throw new Error(`cl100k ranks: not base64 at ${cursor}`)
      buffer = ((buffer << 6) | sextet) & 0xffff
      bits += 6
      if (bits >= 8) {
        bits -= 8
        spelling[written++] = (buffer >> bits) & 0xff
      }
    }
  }

  const decodeLine = (from: number, to: number): void => {
    const labelEnd = text.indexOf(" ", from)
    if (labelEnd === -1 || labelEnd >= to) throw new Error(`cl100k ranks: line at ${from} has no first rank`)
    let fieldEnd = text.indexOf(" ", labelEnd + 1)
    if (fieldEnd === -1 || fieldEnd > to) fieldEnd = to
    let rank = Number.parseInt(text.slice(labelEnd + 1, fieldEnd), 10)
    if (!Number.isInteger(rank)) throw new Error(`cl100k ranks: line at ${from} has no first rank`)
    for (let cursor = fieldEnd + 1; cursor < to; cursor = fieldEnd + 1) {
      fieldEnd = text.indexOf(" ", cursor)
      if (fieldEnd === -1 || fieldEnd > to) fieldEnd = to
      starts.push(written)
      rankList.push(rank++)
      decodeToken(cursor, fieldEnd)
    }
  }

  for (let position = 0; position < text.length;) {
    let lineEnd = text.indexOf("\n", position)
    if (lineEnd === -1) lineEnd = text.length
    if (lineEnd > position) decodeLine(position, lineEnd)
    position = lineEnd + 1
  }
  starts.push(written)
  return { spelling: spelling.subarray(0, written), tokenStart: Int32Array.from(starts), tokenRank: Int32Array.from(rankList) }
}

/** The lookup over `arrays`. */
/** The hash slots over `arrays`' spellings: a power of two at least twice the tokens, linear probing. */
export const slotsOf = ({ spelling, tokenRank, tokenStart }: RankArrays): Int32Array => {
  const tokens = tokenRank.length
  let size = 1
  while (size < tokens * 2) size *= 2
  const mask = size - 1
  const slots = new Int32Array(size)
  for (let token = 0; token < tokens; token++) {
    let slot = hashOf(spelling, tokenStart[token]!, tokenStart[token + 1]!) & mask
    while (slots[slot] !== 0) slot = (slot + 1) & mask
    slots[slot] = token + 1
  }
  return slots
}

export const tableOf = (arrays: RankArrays): RankTable => {
  const { spelling, tokenRank, tokenStart } = arrays
  const table = arrays.slots ?? slotsOf(arrays)
  const mask = table.length - 1

  const spells = (token: number, bytes: Uint8Array, start: number, end: number): boolean => {
    const from = tokenStart[token]!
    if (tokenStart[token + 1]! - from !== end - start) return false
    for (let i = 0; i < end - start; i++) if (spelling[from + i] !== bytes[start + i]) return false
    return true
  }

  return {
    rankOf: (bytes, start, end) => {
      let slot = hashOf(bytes, start, end) & mask
      for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
        if (spells(entry - 1, bytes, start, end)) return tokenRank[entry - 1]!
        slot = (slot + 1) & mask
      }
      return -1
    }
  }
}

/** Decode `ranks` into a table; throws on a malformed listing, which only a broken install could hold. */
export const decode = (ranks: CompressedRanks): RankTable => tableOf(decodeArrays(ranks))

// Not named `require`: the command's bundle declares one of its own in every chunk.
const resolveHere = NodeModule.createRequire(import.meta.url)

/** The size in bytes of the installed listing's file, which a prebuilt table must have been built from. */
export const listingBytes = (): number => NodeFs.statSync(resolveHere.resolve(LISTING)).size

/** The arrays of the prebuilt table at `url`, or undefined when it is absent, damaged or built from another listing. */
export const readTable = (url: URL): RankArrays | undefined => {
  let bytes: Uint8Array
  try {
    bytes = NodeFs.readFileSync(url)
  } catch {
    // Only the command's bundle has a table beside it; the library and the sources decode the listing.
    return undefined
  }
  return Cl100kTable.read(bytes, listingBytes())
}

/** The ranks from the table at `url` if it is sound, else decoded from the installed listing. */
export const load = (url: URL): RankTable =>
  tableOf(readTable(url) ?? decodeArrays(resolveHere(LISTING) as CompressedRanks))

let shipped: RankTable | undefined

/** cl100k's ranks, loaded on first use and kept for the process. */
export const cl100kRanks = (): RankTable => (shipped ??= load(new URL(Cl100kTable.FILE_NAME, import.meta.url)))
