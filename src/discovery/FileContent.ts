/**
 * Reading one listed file for analysis: its bytes, its content hash, and whether it is text at all.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import type { ScanCache } from "./ScanCache.ts"
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
  readonly bytes: Uint8Array
}

/** The file's bytes and content hash, remembered in the cache against its stamp. */
export const readContent = (
  file: ListedFile,
  stripBom: boolean,
  cache: ScanCache
): Effect.Effect<Content, DiscoveryError, SourceTree | Digest.Digest> =>
  Effect.gen(function*() {
    const tree = yield* SourceTree
    const bytes = yield* tree.read(file.path)
    const hash = yield* contentHash(bytes, stripBom)
    cache.rememberHash(file.path, file.stamp, hash)
    return { hash, bytes }
  })
