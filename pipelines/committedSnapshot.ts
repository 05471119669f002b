/**
 * The snapshot the last index run committed under `.cairn/`, for what reads the graph beside the
 * index (`lookup`). A long-lived process keeps the one its refresh produced instead.
 */
import { Effect, FileSystem, Option, Schema } from "effect"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { SnapshotStore } from "../src/ports/SnapshotStore.ts"
import * as SnapshotStoreFile from "../layers/node/SnapshotStoreFile.ts"

export class SnapshotMissing extends Schema.TaggedError<SnapshotMissing>()("SnapshotMissing", {
  root: Schema.String
}) {
  override get message(): string {
    return `no readable snapshot under ${this.root}/.cairn; run \`cairn index --root ${this.root}\` first`
  }
}

export const committedSnapshot = Effect.fn("committedSnapshot.committedSnapshot")(
  function*(root: string): Effect.fn.Return<Snapshot, SnapshotMissing, SnapshotStore> {
    const read = yield* (yield* SnapshotStore).read(ScanCache.make())
    if (Option.isNone(read)) return yield* new SnapshotMissing({ root })
    return read.value
  },
  (effect, root): Effect.Effect<Snapshot, SnapshotMissing, FileSystem.FileSystem> =>
    Effect.provide(effect, SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root)))
)
