/**
 * `.cairn/snapshot.json`: the last snapshot an index run produced, kept so the next run reuses
 * what did not change, in the stored form of `src/discovery/SnapshotMemo.ts`, written whole (to a
 * temporary name, then renamed; `StagedFile`). A memo is taken only while the file keeps the stamp
 * of the staging that made it, checked before and after the read.
 */
import { Effect, FileSystem, Option } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import type { Patched, StoredSnapshot } from "../src/discovery/Patch.ts"
import type { ScanCache } from "../src/discovery/ScanCache.ts"
import * as Memo from "../src/discovery/SnapshotMemo.ts"
import { type Staged, stageWhole, stampOf } from "../layers/node/StagedFile.ts"

export type { Staged }
export type SnapshotMemo = Memo.SnapshotMemo
export const asMemo = Memo.asMemo

/** A snapshot file kept in its pieces, for a patch (see Patch.ts). */
export interface StoredFile {
  readonly stored: StoredSnapshot
}

/** The snapshot in `file` as its pieces; given only with the memo of this very file, or none. */
export const readStored = (fs: FileSystem.FileSystem, file: string, memo: SnapshotMemo): Effect.Effect<Option.Option<StoredFile>> =>
  Effect.gen(function*() {
    const before = stampOf(file)
    const bytes = yield* fs.readFile(file)
    if (before !== memo.stamp || stampOf(file) !== memo.stamp) return Option.none()
    return Option.map(Memo.decodeStored(bytes, memo), (stored) => ({ stored }))
  }).pipe(Effect.catchCause(() => Effect.succeed(Option.none<StoredFile>())))

const staged = (fs: FileSystem.FileSystem, file: string, encoded: Memo.Encoded) =>
  Effect.map(stageWhole(fs, file, encoded.parts), (written) => ({
    ...written,
    memo: written.stamp === undefined ? undefined : encoded.memo(written.stamp)
  }))

/** The patched snapshot written aside, with its memo. */
export const stagePatched = (fs: FileSystem.FileSystem, file: string, stored: StoredFile, patched: Patched): Effect.Effect<Staged & { readonly memo: SnapshotMemo | undefined }, PlatformError> =>
  Effect.suspend(() => staged(fs, file, Memo.encodePatched(stored.stored, patched)))

/** The snapshot in `file`, adopted into `cache`, or none when there is no readable snapshot there (see `Memo.decode`). */
export const read = (
  fs: FileSystem.FileSystem,
  file: string,
  cache: ScanCache,
  memo?: { readonly memo: SnapshotMemo; readonly json: boolean }
): Effect.Effect<Option.Option<Snapshot>> =>
  Effect.gen(function*() {
    const before = memo === undefined ? undefined : stampOf(file)
    const bytes = yield* fs.readFile(file)
    const held = memo !== undefined && before === memo.memo.stamp && stampOf(file) === memo.memo.stamp
    return Memo.decode(bytes, cache, held ? memo : undefined)
  }).pipe(Effect.orElseSucceed(() => Option.none<Snapshot>()))

/** `snapshot` written aside, to be put in place by `commit`, with the memo of the file when the cache knows every unit. */
export const stage = (fs: FileSystem.FileSystem, file: string, snapshot: Snapshot, cache: ScanCache): Effect.Effect<Staged & { readonly memo: SnapshotMemo | undefined }, PlatformError> =>
  Effect.suspend(() => staged(fs, file, Memo.encode(snapshot, cache)))
