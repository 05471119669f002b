/**
 * Behaviour every ConsistentRead backend must show, run against each backend by its own test file.
 * A backend is given as a layer over one empty index, built anew for every test, providing the
 * `ConsistentRead` and the `IndexStore` a question reads the index through, and an `OtherWriter`:
 * a second writer of that index (another process's refresh), whose commits the reader's own
 * connection does not make. The reads are the index's manifest, notes and chunks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber } from "effect"
import type { Layer } from "effect"
import { ConsistentRead } from "../../src/ports/ConsistentRead.ts"
import { IndexStore, type IndexWrite } from "../../src/ports/IndexStore.ts"
import { makeChunk } from "./ChunkFixtures.ts"

/** A second writer of the index the reader reads: its commits land beside the reader's questions. */
export class OtherWriter extends Context.Service<OtherWriter, IndexStore["Service"]>()("cairn/contracts/ConsistentRead/OtherWriter") {}

/** Build `n`: note `docs/n<n>.md` added, every earlier note kept. */
const build = (n: number): IndexWrite => ({
  ...(n === 1 ? { replaceAll: true } : {}),
  chunks: [makeChunk({ id: `docs/n${n}.md#one`, contentSha: String(n % 10).repeat(64), text: `note ${n}` })],
  notes: [{ id: `docs/n${n}.md`, contentHash: `h${n}` }],
  manifest: { snapshotHash: `snapshot-${n}`, builtAt: "2025-03-01T12:00:00Z" }
})

const NOTES = Array.from({ length: 9 }, (_, i) => `docs/n${i + 1}.md`)

/** Everything a question reads of the index, to compare one read with another. */
const observe = Effect.gen(function*() {
  const store = yield* IndexStore
  return {
    snapshot: (yield* store.manifest)?.snapshotHash,
    notes: [...(yield* store.noteHashes).keys()],
    chunks: Array.from((yield* store.storedChunks(NOTES)).keys(), (id): string => id)
  }
})

/** The snapshot hash of the build a read sees. */
const seen = Effect.map(observe, (read) => read.snapshot)

/** Each time it runs, the next build (1, 2, …) committed by the other writer. */
const committer = Effect.map(OtherWriter, (writer) => {
  let built = 0
  return Effect.suspend(() => writer.write(build(++built)))
})

export const contract = <E>(name: string, layer: Layer.Layer<ConsistentRead | IndexStore | OtherWriter, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F, ConsistentRead | IndexStore | OtherWriter>) => Effect.provide(body, layer)

  describe(`ConsistentRead contract (${name})`, () => {
    it.effect("outside any question, every read sees the latest commit", () =>
      run(Effect.gen(function*() {
        const commit = yield* committer
        yield* commit
        assert.strictEqual(yield* seen, "snapshot-1")
        yield* commit
        const read = yield* observe
        assert.deepStrictEqual(read, { snapshot: "snapshot-2", notes: ["docs/n1.md", "docs/n2.md"], chunks: ["docs/n1.md#one", "docs/n2.md#one"] })
      })), 30_000)

    it.effect("within - a commit landing inside is not seen by the reads inside it, and is seen whole by the next question", () =>
      run(Effect.gen(function*() {
        const read = yield* ConsistentRead
        const commit = yield* committer
        yield* commit
        const inside = yield* read.within(Effect.gen(function*() {
          const before = yield* observe
          yield* commit
          const after = yield* observe
          // A question inside the question reads as it does.
          const nested = yield* read.within(observe)
          return { before, after, nested }
        }))
        assert.deepStrictEqual(inside.before, { snapshot: "snapshot-1", notes: ["docs/n1.md"], chunks: ["docs/n1.md#one"] })
        assert.deepStrictEqual(inside.after, inside.before)
        assert.deepStrictEqual(inside.nested, inside.before)
        const nextQuestion = yield* read.within(observe)
        assert.deepStrictEqual(nextQuestion, { snapshot: "snapshot-2", notes: ["docs/n1.md", "docs/n2.md"], chunks: ["docs/n1.md#one", "docs/n2.md#one"] })
        assert.strictEqual(yield* seen, "snapshot-2")
      })), 30_000)

    it.effect("within - questions that overlap each read one state throughout; once both end, the next sees the commits", () =>
      run(Effect.gen(function*() {
        const read = yield* ConsistentRead
        const commit = yield* committer
        yield* commit
        const firstRead = yield* Deferred.make<void>()
        const committed = yield* Deferred.make<void>()
        const question = (ready: Deferred.Deferred<void>) =>
          read.within(Effect.gen(function*() {
            const before = yield* observe
            yield* Deferred.succeed(ready, undefined)
            yield* Deferred.await(committed)
            return [before, yield* observe] as const
          }))
        const first = yield* Effect.forkChild(question(firstRead))
        yield* Deferred.await(firstRead)
        const secondRead = yield* Deferred.make<void>()
        const second = yield* Effect.forkChild(question(secondRead))
        yield* Deferred.await(secondRead)
        yield* commit
        yield* commit
        yield* Deferred.succeed(committed, undefined)
        for (const [before, after] of [yield* Fiber.join(first), yield* Fiber.join(second)]) {
          assert.deepStrictEqual(after, before)
          assert.strictEqual(before.snapshot, "snapshot-1")
        }
        assert.strictEqual(yield* read.within(seen), "snapshot-3")
      })), 30_000)

    it.effect("within - a question that fails or is interrupted ends with it: the next question sees what was committed since", () =>
      run(Effect.gen(function*() {
        const read = yield* ConsistentRead
        const commit = yield* committer
        yield* commit
        const failed = yield* Effect.flip(read.within(Effect.andThen(seen, Effect.andThen(commit, Effect.fail("the leg failed" as const)))))
        assert.strictEqual(failed, "the leg failed")
        assert.strictEqual(yield* read.within(seen), "snapshot-2")

        const reading = yield* Deferred.make<string | undefined>()
        const question = yield* Effect.forkChild(read.within(Effect.andThen(Effect.flatMap(seen, (snapshot) => Deferred.succeed(reading, snapshot)), Effect.never)))
        assert.strictEqual(yield* Deferred.await(reading), "snapshot-2")
        yield* commit
        yield* Fiber.interrupt(question)
        assert.strictEqual(yield* read.within(seen), "snapshot-3")
        assert.strictEqual(yield* seen, "snapshot-3")
      })), 30_000)
  })
}
