/**
 * `SnapshotStore` on the file system: the snapshot is one file (`.cairn/snapshot.json` under a
 * repository), staged under a temporary name beside it and renamed over it at commit
 * (`StagedFile`), so a reader sees the old file or the new one, even if the writer dies mid-write.
 * A memo is taken only while the file keeps the stamp (size, modification time, inode) of the
 * staging that made it, checked before and after the read. A file that is not a snapshot is
 * ignored and the scan starts cold; it only ever makes a scan faster.
 */
import { Effect, FileSystem, Layer, Option } from "effect"
import type { Scope } from "effect"
import * as NodePath from "node:path"
import type { PlatformError } from "effect/PlatformError"
import * as SnapshotMemo from "../../src/discovery/SnapshotMemo.ts"
import { SnapshotStore, SnapshotStoreError, type StagedSnapshot } from "../../src/ports/SnapshotStore.ts"
import { type Staged, stageWhole, stampOf } from "./StagedFile.ts"

const failed = (reason: SnapshotStoreError["reason"]) => (error: PlatformError) => new SnapshotStoreError({ reason, detail: error.message })

// Not `acquireRelease`, whose finalizer keeps the acquiring effect, and with it the snapshot and the
// scan's memo tables (over 100 MB on a large repository), alive until the scope closes.
const releasedWithScope = (staged: Staged) => Effect.addFinalizer(() => staged.discard)

/** The store over `file`. */
export const make = Effect.fnUntraced(function*(file: string) {
  const fs = yield* FileSystem.FileSystem
  // Uninterruptible, so no temporary is written without its removal registered with the scope.
  const staged = (encoded: SnapshotMemo.Encoded): Effect.Effect<StagedSnapshot, SnapshotStoreError, Scope.Scope> =>
    Effect.uninterruptible(Effect.tap(stageWhole(fs, file, encoded.parts), releasedWithScope)).pipe(
      Effect.map((written) => ({
        commit: Effect.mapError(written.commit, failed("commit_failed")),
        memo: written.stamp === undefined ? undefined : encoded.memo(written.stamp)
      })),
      Effect.mapError(failed("stage_failed"))
    )
  return SnapshotStore.of({
    read: (cache, memo) =>
      Effect.gen(function*() {
        const before = memo === undefined ? undefined : stampOf(file)
        const bytes = yield* fs.readFile(file)
        const held = memo !== undefined && before === memo.memo.stamp && stampOf(file) === memo.memo.stamp
        return SnapshotMemo.decode(bytes, cache, held ? memo : undefined)
      }).pipe(Effect.orElseSucceed(() => Option.none())),
    readStored: (memo) =>
      Effect.gen(function*() {
        const before = stampOf(file)
        const bytes = yield* fs.readFile(file)
        if (before !== memo.stamp || stampOf(file) !== memo.stamp) return Option.none()
        return SnapshotMemo.decodeStored(bytes, memo)
      }).pipe(Effect.catchCause(() => Effect.succeed(Option.none()))),
    stage: (snapshot, cache) => Effect.suspend(() => staged(SnapshotMemo.encode(snapshot, cache))),
    stagePatched: (stored, patched) => Effect.suspend(() => staged(SnapshotMemo.encodePatched(stored, patched)))
  })
})

/** Where a repository's snapshot is kept: beside its index, in cairn's folder. */
export const defaultPath = (root: string): string => NodePath.join(root, ".cairn", "snapshot.json")

/** The store over `file` (`defaultPath(root)` for a repository); its folder must exist before a stage. */
export const layer = (file: string): Layer.Layer<SnapshotStore, never, FileSystem.FileSystem> => Layer.effect(SnapshotStore, make(file))
