/**
 * The snapshot the last index run committed under `.cairn/`, for what reads the graph beside the
 * index (`lookup`). A long-lived process keeps the one its refresh produced instead.
 */
import { Effect, FileSystem, Option, Path, Schema } from "effect"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { cairnDir } from "./indexRepository.ts"
import * as SnapshotFile from "./snapshotFile.ts"

export class SnapshotMissing extends Schema.TaggedError<SnapshotMissing>()("SnapshotMissing", {
  root: Schema.String
}) {
  override get message(): string {
    return `no readable snapshot under ${this.root}/.cairn; run \`cairn index --root ${this.root}\` first`
  }
}

export const committedSnapshot = Effect.fn("committedSnapshot.committedSnapshot")(function*(root: string): Effect.fn.Return<Snapshot, SnapshotMissing, FileSystem.FileSystem | Path.Path> {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const read = yield* SnapshotFile.read(fs, path.join(cairnDir(path, root), "snapshot.json"), ScanCache.make())
  if (Option.isNone(read)) return yield* new SnapshotMissing({ root })
  return read.value
})
