/**
 * Reading one listed file for analysis: its bytes, its content hash, and whether it is text at all.
 * A file that cannot be read as it was listed (no permission, gone since the listing, a directory
 * now, another size than listed) costs that file alone: it is `Unread`, a coverage entry, and the
 * scan goes on. The next scan reads it again.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { Coverage } from "../domain/Snapshot.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import type { ScanCache } from "./ScanCache.ts"
import { contentHash } from "../source/Hashing.ts"
import type { ListedFile } from "./Walk.ts"

/** Git's rule: a NUL byte in the first 8,000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000

export const isBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)

// Non-fatal: a stray invalid byte becomes U+FFFD rather than costing the file. A BOM is dropped.
const decoder = new TextDecoder("utf-8")

export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes)

export interface Content {
  readonly _tag: "Content"
  readonly hash: string
  readonly bytes: Uint8Array
}

/** A listed file that could not be read as listed, with the coverage entry that says so. */
export interface Unread {
  readonly _tag: "Unread"
  readonly coverage: Coverage
}

export const isUnread = (value: object): value is Unread => "_tag" in value && value._tag === "Unread"

export const unread = (analyzer: string, path: string, why: string): Unread => ({
  _tag: "Unread",
  coverage: { analyzer, scope: path, status: "failed", reason: `${why}; not analysed, read again by the next scan` }
})

/**
 * The file's bytes and content hash, remembered in the cache against its stamp, or `Unread`. Bytes
 * of another length than the listing's were read while the file changed: the stamp does not
 * describe them, so they are neither analysed nor remembered.
 */
export const readContent: (
  file: ListedFile,
  stripBom: boolean,
  cache: ScanCache,
  analyzer: string
) => Effect.Effect<Content | Unread, never, SourceTree | Digest.Digest> = Effect.fnUntraced(
  function*(file: ListedFile, stripBom: boolean, cache: ScanCache, analyzer: string) {
    const tree = yield* SourceTree
    const bytes = yield* tree.read(file.path)
    if (bytes.length !== file.size) {
      return unread(analyzer, file.path, `changed while read (listed ${file.size} bytes, read ${bytes.length})`)
    }
    const hash = yield* contentHash(bytes, stripBom)
    cache.rememberHash(file.path, file.stamp, hash)
    return { _tag: "Content", hash, bytes } satisfies Content
  },
  // Whatever a read of this one file fails with is about this file.
  (effect, file, _stripBom, _cache, analyzer) =>
    effect.pipe(Effect.catchTag("DiscoveryError", (error) => Effect.succeed(unread(analyzer, file.path, `cannot read: ${error.reason.detail}`))))
)
