/**
 * Reading one listed file for analysis: its bytes, its content hash, and whether it is text at all.
 * A hash the cache vouches for (same stamp as when it was computed) stands in for a read when the
 * caller only needs to know whether the file changed.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import type { HashCache } from "./HashCache.ts"
import { contentHash } from "./Hashing.ts"
import type { ListedFile } from "./Walk.ts"

/** Git's rule: a NUL byte in the first 8,000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000

export const isBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)

// Non-fatal: a stray invalid byte becomes U+FFFD rather than costing the file. A BOM is dropped.
const decoder = new TextDecoder("utf-8")

export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes)

export interface Content {
  readonly hash: string
  /** Absent when the hash came from the cache and matched what the caller expected. */
  readonly bytes: Uint8Array | undefined
}

/**
 * The file's hash, reading it unless the cache vouches for a hash equal to `expected` (the hash a
 * previous snapshot recorded). Any other outcome reads, since the caller will need the bytes.
 */
export const readContent = (
  file: ListedFile,
  stripBom: boolean,
  expected: string | undefined,
  cache: HashCache | undefined
): Effect.Effect<Content, DiscoveryError, SourceTree | Digest.Digest> => {
  const cached = cache?.lookup(file.path, file.stamp)
  if (expected !== undefined && cached === expected) return Effect.succeed({ hash: cached, bytes: undefined })
  return Effect.gen(function*() {
    const tree = yield* SourceTree
    const bytes = yield* tree.read(file.path)
    const hash = yield* contentHash(bytes, stripBom)
    cache?.remember(file.path, file.stamp, hash)
    return { hash, bytes }
  })
}
