/**
 * Port: where the snapshot of the last committed index run is kept, so the next run reuses what did
 * not change. A new snapshot is staged (written aside, whole, in its stored form; see
 * `discovery/SnapshotMemo.ts`) and becomes what `read` gives only at `commit`, which the index run
 * calls once the index holds that build. Whatever a scope staged and did not commit is gone when
 * the scope closes, whether the run failed, was interrupted or simply ended: a reader sees the last
 * committed snapshot whole, or none. The behaviour is `layers/contracts/SnapshotStore.contract.ts`.
 */
import { Context, Schema } from "effect"
import type { Effect, Option, Scope } from "effect"
import type { Snapshot } from "../domain/Snapshot.ts"
import type { Patched, StoredSnapshot } from "../discovery/Patch.ts"
import type { ScanCache } from "../discovery/ScanCache.ts"
import type { SnapshotMemo } from "../discovery/SnapshotMemo.ts"

export class SnapshotStoreError extends Schema.TaggedError<SnapshotStoreError>()("SnapshotStoreError", {
  reason: Schema.Literals(["stage_failed", "commit_failed"]),
  /** Where the store keeps the snapshot, and what went wrong there. */
  detail: Schema.String
}) {
  override get message(): string {
    return this.reason === "stage_failed"
      ? `snapshot store: the snapshot could not be written aside (${this.detail}); the last committed one is intact, run the index again`
      : `snapshot store: the staged snapshot could not be put in place (${this.detail}); the last committed one is intact, run the index again`
  }
}

/** A snapshot written aside: nothing reads it until `commit`. */
export interface StagedSnapshot {
  /** Puts it in place: `read` gives it from now on. Fails once its scope has closed. */
  readonly commit: Effect.Effect<void, SnapshotStoreError>
  /**
   * What a later `read` or `readStored` may be told of it, once committed (see `SnapshotMemo`);
   * undefined when the cache it was staged with did not know every unit. The caller keeps it
   * beside the scan (the scan cache).
   */
  readonly memo: SnapshotMemo | undefined
}

/** How `read` takes a memo: the memo, and whether the units' JSON goes to the cache too. */
export interface MemoUse {
  readonly memo: SnapshotMemo
  /** With the units' JSON (a one-shot run); without, digests and fingerprints alone (a cache that outlives the run). */
  readonly json: boolean
}

export class SnapshotStore extends Context.Service<SnapshotStore, {
  /**
   * The last committed snapshot, adopted into `cache` as canonical, or none when there is none or
   * what is kept is not a snapshot (a scan then starts cold). A memo of the very snapshot committed
   * (staged with it and not outdated since) hands the cache the units' digests and the snapshot's
   * fingerprints, and the units' JSON with `json`; any other memo is ignored.
   */
  read(cache: ScanCache, memo?: MemoUse): Effect.Effect<Option.Option<Snapshot>>
  /**
   * The last committed snapshot in its pieces, without decoding it, for a patch; given only with
   * the memo of that very snapshot, none otherwise.
   */
  readStored(memo: SnapshotMemo): Effect.Effect<Option.Option<StoredSnapshot>>
  /** `snapshot` staged, with its memo when `cache` (of the scan that made it) knows every unit. */
  stage(snapshot: Snapshot, cache: ScanCache): Effect.Effect<StagedSnapshot, SnapshotStoreError, Scope.Scope>
  /** `stored` (as `readStored` gave it) with `patched` applied, staged, with its memo. */
  stagePatched(stored: StoredSnapshot, patched: Patched): Effect.Effect<StagedSnapshot, SnapshotStoreError, Scope.Scope>
}>()("cairn/ports/SnapshotStore") {}
