/**
 * Reference backend of `SnapshotStore`: the committed snapshot's stored bytes held in memory. A
 * stage encodes the snapshot exactly as the file backend writes it and keeps the bytes aside;
 * `commit` puts them in place, and only while the stage's scope is open. Every stage stamps its
 * bytes anew, so a memo is taken only for the bytes it was made with.
 */
import { Effect, Layer, Option } from "effect"
import * as SnapshotMemo from "../../src/discovery/SnapshotMemo.ts"
import { SnapshotStore, SnapshotStoreError, type StagedSnapshot } from "../../src/ports/SnapshotStore.ts"

interface Stored {
  readonly bytes: Uint8Array
  readonly stamp: string
}

// Stores made by this process so far: a stamp names its store, so no two stores' stamps meet.
let stores = 0

const bytesOf = (parts: ReadonlyArray<string | Uint8Array>): Uint8Array =>
  Buffer.concat(parts.map((part) => typeof part === "string" ? Buffer.from(part, "utf8") : part))

export const make: Effect.Effect<SnapshotStore["Service"]> = Effect.sync(() => {
  const store = stores++
  let stagings = 0
  let committed: Stored | undefined
  const staged = Effect.fn("SnapshotStoreMemory.staged")(function*(encoded: SnapshotMemo.Encoded) {
    const stored: Stored = { bytes: bytesOf(encoded.parts), stamp: `memory:${store}:${stagings++}` }
    let open = true
    yield* Effect.addFinalizer(() => Effect.sync(() => {
      open = false
    }))
    return {
      commit: Effect.suspend(() => {
        if (!open) return Effect.fail(new SnapshotStoreError({ reason: "commit_failed", detail: `staging ${stored.stamp} went with its scope` }))
        committed = stored
        return Effect.void
      }),
      memo: encoded.memo(stored.stamp)
    } satisfies StagedSnapshot
  })
  return SnapshotStore.of({
    read: (cache, memo) =>
      Effect.sync(() => {
        const held = committed
        if (held === undefined) return Option.none()
        return SnapshotMemo.decode(held.bytes, cache, memo?.memo.stamp === held.stamp ? memo : undefined)
      }),
    readStored: (memo) =>
      Effect.sync(() => committed === undefined || committed.stamp !== memo.stamp ? Option.none() : SnapshotMemo.decodeStored(committed.bytes, memo)),
    stage: (snapshot, cache) => Effect.suspend(() => staged(SnapshotMemo.encode(snapshot, cache))),
    stagePatched: (stored, patched) => Effect.suspend(() => staged(SnapshotMemo.encodePatched(stored, patched)))
  })
})

/** A store of its own, empty, for every build of the layer. */
export const layer: Layer.Layer<SnapshotStore> = Layer.effect(SnapshotStore, make)
