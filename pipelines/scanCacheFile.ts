/**
 * `.cairn/scan-cache.json`: the stamp → hash table of the last scan whose index committed, with
 * the scan's fingerprint and the snapshot it produced. A one-shot process seeds its scan cache from
 * it (unchanged files are not read again) and, when the index still holds that snapshot, can
 * confirm an unchanged repository from a listing alone. It also carries the memo of the snapshot
 * file (`SnapshotMemo`), which spares the next run hashing and serialising the units it reuses. It
 * is written after the index commits, so it never vouches for a build that did not land.
 */
import { Effect, FileSystem } from "effect"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import { stageWhole } from "../layers/node/StagedFile.ts"
import { asMemo, type SnapshotMemo } from "../src/discovery/SnapshotMemo.ts"

const FORMAT = "cairn/scan-cache@2"

export interface ScanCacheFile {
  readonly cache: ScanCache.ScanCache
  /** The fingerprint the remembered scan ran under (`Unchanged.scanFingerprint`); absent in an older file. */
  readonly fingerprint?: string
  /** The content hash of the snapshot that scan produced and the index was built from. */
  readonly snapshotHash?: string
  /** What that scan knew of its snapshot file (see `SnapshotMemo`); absent in an older file. */
  readonly memo?: SnapshotMemo
}

const isEntry = (value: unknown): value is [string, string, string] =>
  Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === "string")

/** Whatever of the file can be trusted; an unreadable or foreign file gives an empty cache. */
export const read = (fs: FileSystem.FileSystem, file: string): Effect.Effect<ScanCacheFile> =>
  fs.readFileString(file).pipe(
    Effect.flatMap((text) => Effect.try(() => JSON.parse(text) as unknown)),
    Effect.map((parsed): ScanCacheFile => {
      // The first format was the bare entry list: its hashes are still good, it vouches for nothing.
      if (Array.isArray(parsed)) return { cache: ScanCache.make(parsed.every(isEntry) ? parsed : []) }
      if (typeof parsed !== "object" || parsed === null) return { cache: ScanCache.make() }
      const record = parsed as Record<string, unknown>
      const entries = record["entries"]
      if (record["format"] !== FORMAT || !Array.isArray(entries) || !entries.every(isEntry)) return { cache: ScanCache.make() }
      const fingerprint = record["fingerprint"]
      const snapshotHash = record["snapshotHash"]
      const memo = asMemo(record["snapshot"])
      return {
        cache: ScanCache.make(entries),
        ...(typeof fingerprint === "string" ? { fingerprint } : {}),
        ...(typeof snapshotHash === "string" ? { snapshotHash } : {}),
        ...(memo !== undefined && memo.snapshotHash === snapshotHash ? { memo } : {})
      }
    }),
    Effect.orElseSucceed((): ScanCacheFile => ({ cache: ScanCache.make() }))
  )

/**
 * The cache's entries as the last scan left them, vouching for `snapshotHash` under `fingerprint`,
 * with the memo of that snapshot's file when there is one, written aside (`stageWhole`).
 */
export const stage = (
  fs: FileSystem.FileSystem,
  file: string,
  cache: ScanCache.ScanCache,
  stamp: { readonly fingerprint: string; readonly snapshotHash: string; readonly memo?: SnapshotMemo | undefined }
) =>
  stageWhole(
    fs,
    file,
    JSON.stringify({
      format: FORMAT,
      fingerprint: stamp.fingerprint,
      snapshotHash: stamp.snapshotHash,
      entries: cache.hashEntries(),
      ...(stamp.memo === undefined ? {} : { snapshot: stamp.memo })
    })
  )
