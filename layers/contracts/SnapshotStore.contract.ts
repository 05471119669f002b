/**
 * Behaviour every SnapshotStore backend must show, run against each backend by its own test file.
 * A backend is given as a layer over an empty store, built anew for every test. The snapshots are
 * discovery's, of a small repository (SnapshotFixtures.ts), on caches that know their units.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Option } from "effect"
import type { Layer } from "effect"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { serializedUnits, unitDigests } from "../../src/discovery/Assemble.ts"
import { snapshotKeys } from "../../src/discovery/Fingerprints.ts"
import * as ScanCache from "../../src/discovery/ScanCache.ts"
import { SnapshotStore, SnapshotStoreError } from "../../src/ports/SnapshotStore.ts"
import { EDITED, GROWN, patch, REPOSITORY, scan } from "./SnapshotFixtures.ts"

/** What `read` gives a fresh cache now: the snapshot, or undefined. */
const committed = Effect.gen(function*() {
  const store = yield* SnapshotStore
  return Option.getOrUndefined(yield* store.read(ScanCache.make()))
})

/** `snapshot` staged and committed in a scope of its own, with the memo of what was stored. */
const commit = (snapshot: Snapshot, cache: ScanCache.ScanCache) =>
  Effect.scoped(Effect.gen(function*() {
    const staged = yield* (yield* SnapshotStore).stage(snapshot, cache)
    yield* staged.commit
    assert.isDefined(staged.memo, "a cache that made the snapshot knows every unit")
    return staged.memo!
  }))

/** The `count` pieces a stored snapshot gives, parsed. */
const parsed = (count: number, json: (index: number) => string): ReadonlyArray<unknown> =>
  Array.from({ length: count }, (_, index) => JSON.parse(json(index)) as unknown)

export const contract = <E>(name: string, layer: Layer.Layer<SnapshotStore, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F, SnapshotStore>) => Effect.provide(body, layer)

  describe(`SnapshotStore contract (${name})`, () => {
    it.effect("read - an empty store gives none, and a memo of a stage never committed finds nothing", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const { cache, snapshot } = yield* scan(REPOSITORY)
        const memo = yield* Effect.scoped(Effect.map(store.stage(snapshot, cache), (staged) => staged.memo!))
        assert.isUndefined(yield* committed)
        assert.isTrue(Option.isNone(yield* store.read(ScanCache.make(), { memo, json: true })))
        assert.isTrue(Option.isNone(yield* store.readStored(memo)))
      })), 30_000)

    it.effect("stage, commit, read - the snapshot comes back equal, and stays once the stage's scope has closed", () =>
      run(Effect.gen(function*() {
        const { cache, snapshot } = yield* scan(REPOSITORY)
        yield* commit(snapshot, cache)
        const read = yield* committed
        assert.deepStrictEqual(read, snapshot)
        // Read again, as another run would: the same snapshot, and a new object each time.
        const again = yield* committed
        assert.deepStrictEqual(again, snapshot)
        assert.notStrictEqual(again, read)
      })), 30_000)

    it.effect("read - the memo of the committed snapshot hands a fresh cache its digests, JSON and fingerprints", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const { cache, snapshot } = yield* scan(REPOSITORY)
        const memo = yield* commit(snapshot, cache)
        assert.strictEqual(memo.snapshotHash, snapshot.contentHash)
        const fresh = ScanCache.make()
        const adopted = Option.getOrThrow(yield* store.read(fresh, { memo, json: true }))
        assert.deepStrictEqual(unitDigests(adopted, fresh), unitDigests(snapshot, cache))
        assert.deepStrictEqual(serializedUnits(adopted, fresh), serializedUnits(snapshot, cache))
        assert.deepStrictEqual(snapshotKeys(fresh).get(adopted), snapshotKeys(cache).get(snapshot))
        // Digests without the JSON, for a cache that outlives the run.
        const kept = ScanCache.make()
        const digestsOnly = Option.getOrThrow(yield* store.read(kept, { memo, json: false }))
        assert.deepStrictEqual(unitDigests(digestsOnly, kept), unitDigests(snapshot, cache))
        // Without the memo, the snapshot alone.
        const bare = ScanCache.make()
        assert.isUndefined(unitDigests(Option.getOrThrow(yield* store.read(bare)), bare))
      })), 30_000)

    it.effect("read, readStored - a memo is taken only for the snapshot committed with it", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const first = yield* scan(REPOSITORY)
        const second = yield* scan(GROWN)
        const outdated = yield* commit(first.snapshot, first.cache)
        const current = yield* commit(second.snapshot, second.cache)
        const fresh = ScanCache.make()
        const read = Option.getOrThrow(yield* store.read(fresh, { memo: outdated, json: true }))
        assert.deepStrictEqual(read, second.snapshot)
        assert.isUndefined(unitDigests(read, fresh))
        assert.isUndefined(snapshotKeys(fresh).get(read))
        assert.isTrue(Option.isNone(yield* store.readStored(outdated)))
        const stored = Option.getOrThrow(yield* store.readStored(current))
        assert.deepStrictEqual(
          [stored.contentHash, stored.entities, stored.relations, stored.keys],
          [second.snapshot.contentHash, second.snapshot.entities.length, second.snapshot.relations.length, snapshotKeys(second.cache).get(second.snapshot)]
        )
        assert.deepStrictEqual(parsed(stored.entities, stored.entityJson), second.snapshot.entities)
        assert.deepStrictEqual(parsed(stored.relations, stored.relationJson), second.snapshot.relations)
        assert.deepStrictEqual(stored.coverage, second.snapshot.coverage)
      })), 30_000)

    it.effect("stage - without a commit nothing new is read once its scope closes, and its commit then fails", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const first = yield* scan(REPOSITORY)
        const second = yield* scan(GROWN)
        const memo = yield* commit(first.snapshot, first.cache)
        const staged = yield* Effect.scoped(Effect.gen(function*() {
          const staged = yield* store.stage(second.snapshot, second.cache)
          // Staged, not committed: still the first.
          assert.deepStrictEqual(yield* committed, first.snapshot)
          return staged
        }))
        assert.deepStrictEqual(yield* committed, first.snapshot)
        assert.isTrue(Option.isNone(yield* store.readStored(staged.memo!)))
        assert.isTrue(Option.isSome(yield* store.readStored(memo)))
        const late = yield* Effect.flip(staged.commit)
        assert.instanceOf(late, SnapshotStoreError)
        assert.strictEqual(late.reason, "commit_failed")
        assert.deepStrictEqual(yield* committed, first.snapshot)
      })), 30_000)

    it.effect("stage - of two stages in one scope, the one committed is read, and the other never", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const first = yield* scan(REPOSITORY)
        const second = yield* scan(GROWN)
        yield* Effect.scoped(Effect.gen(function*() {
          const a = yield* store.stage(first.snapshot, first.cache)
          const b = yield* store.stage(second.snapshot, second.cache)
          assert.isUndefined(yield* committed)
          yield* b.commit
          assert.deepStrictEqual(yield* committed, second.snapshot)
          assert.isDefined(a)
        }))
        assert.deepStrictEqual(yield* committed, second.snapshot)
      })), 30_000)

    it.effect("stagePatched - a patch of the stored snapshot round trips as the full scan of the edited tree", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const before = yield* scan(REPOSITORY)
        const memo = yield* commit(before.snapshot, before.cache)
        const entries = before.cache.hashEntries()
        const stored = Option.getOrThrow(yield* store.readStored(memo))
        const patched = Option.getOrThrow(yield* patch(EDITED, stored, entries))
        const expected = yield* scan(EDITED, before)
        assert.strictEqual(patched.contentHash, expected.snapshot.contentHash)

        // Staged and dropped: the stored snapshot stays.
        yield* Effect.scoped(store.stagePatched(stored, patched))
        assert.deepStrictEqual(yield* committed, before.snapshot)

        const patchedMemo = yield* Effect.scoped(Effect.gen(function*() {
          const staged = yield* store.stagePatched(stored, patched)
          yield* staged.commit
          return staged.memo!
        }))
        assert.strictEqual(patchedMemo.snapshotHash, expected.snapshot.contentHash)
        const fresh = ScanCache.make()
        const read = Option.getOrThrow(yield* store.read(fresh, { memo: patchedMemo, json: true }))
        assert.deepStrictEqual(read, expected.snapshot)
        assert.deepStrictEqual(unitDigests(read, fresh), unitDigests(expected.snapshot, expected.cache))
        assert.deepStrictEqual(serializedUnits(read, fresh), serializedUnits(expected.snapshot, expected.cache))
        // The patched snapshot is itself patchable: its pieces are where its memo says.
        const restored = Option.getOrThrow(yield* store.readStored(patchedMemo))
        assert.deepStrictEqual(parsed(restored.entities, restored.entityJson), expected.snapshot.entities)
        assert.deepStrictEqual(Array.from({ length: restored.entities }, (_, i) => [...restored.digest(i)]).flat(), [...unitDigests(expected.snapshot, expected.cache)!])
      })), 30_000)

    it.effect("stage - a failure or an interruption after staging, or during it, loses nothing committed", () =>
      run(Effect.gen(function*() {
        const store = yield* SnapshotStore
        const first = yield* scan(REPOSITORY)
        const second = yield* scan(GROWN)
        const memo = yield* commit(first.snapshot, first.cache)
        const stored = Option.getOrThrow(yield* store.readStored(memo))
        const patched = Option.getOrThrow(yield* patch(EDITED, stored, first.cache.hashEntries()))

        const failed = yield* Effect.exit(Effect.scoped(Effect.andThen(store.stage(second.snapshot, second.cache), Effect.fail("the index write failed"))))
        assert.isTrue(Exit.isFailure(failed))
        const interrupted = yield* Effect.exit(Effect.scoped(Effect.andThen(store.stagePatched(stored, patched), Effect.interrupt)))
        assert.isTrue(Exit.hasInterrupts(interrupted))
        // Interrupted while staging or waiting to commit, wherever the interruption lands.
        for (const turns of [0, 1, 2, 5, 20]) {
          const fiber = yield* Effect.forkChild(Effect.scoped(Effect.andThen(store.stage(second.snapshot, second.cache), Effect.never)))
          for (let turn = 0; turn < turns; turn++) yield* Effect.yieldNow
          yield* Fiber.interrupt(fiber)
          assert.deepStrictEqual(yield* committed, first.snapshot)
        }
        const kept = ScanCache.make()
        assert.deepStrictEqual(unitDigests(Option.getOrThrow(yield* store.read(kept, { memo, json: false })), kept), unitDigests(first.snapshot, first.cache))

        // The store still takes a commit.
        yield* commit(second.snapshot, second.cache)
        assert.deepStrictEqual(yield* committed, second.snapshot)
      })), 30_000)
  })
}
