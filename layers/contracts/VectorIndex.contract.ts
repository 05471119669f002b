/**
 * Behaviour every VectorIndex backend must show. An approximate backend still has to pass it:
 * the corpora here are small enough that approximate and exact search agree.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import type { VectorHit } from "../../src/ports/VectorIndex.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { makeChunk } from "./ChunkFixtures.ts"

export interface VectorEntry {
  readonly chunk: Chunk
  readonly vector: ReadonlyArray<number>
}

export type MakeVectorLayer<E> = (dimension: number, entries: ReadonlyArray<VectorEntry>) => Layer.Layer<VectorIndex, E>

const entry = (id: string, vector: ReadonlyArray<number>, extra: Partial<Parameters<typeof makeChunk>[0]> = {}): VectorEntry => ({
  chunk: makeChunk({ id, ...extra }),
  vector
})

const ids = (hits: ReadonlyArray<VectorHit>): Array<string> => hits.map((hit) => hit.id)

export const contract = <E>(name: string, makeLayer: MakeVectorLayer<E>) => {
  const nearest = (dimension: number, entries: ReadonlyArray<VectorEntry>, query: ReadonlyArray<number>, limit: number, filter: RetrievalFilter = {}) =>
    Effect.gen(function*() {
      const index = yield* VectorIndex
      assert.strictEqual(index.dimension, dimension)
      return yield* index.nearest(query, limit, filter)
    }).pipe(Effect.provide(makeLayer(dimension, entries)))

  describe(`VectorIndex contract (${name})`, () => {
    it.effect("nearest - ranks by cosine, whatever the vectors' lengths", () =>
      Effect.gen(function*() {
        const hits = yield* nearest(3, [
          entry("v/d.md#x", [-2, 0, 0]),
          entry("v/b.md#x", [3, 3, 0]),
          entry("v/c.md#x", [0, 0.5, 0]),
          entry("v/a.md#x", [0.1, 0, 0])
        ], [5, 0, 0], 10)
        assert.deepStrictEqual(ids(hits), ["v/a.md#x", "v/b.md#x", "v/c.md#x", "v/d.md#x"])
        const expected = [1, Math.SQRT1_2, 0, -1]
        hits.forEach((hit, i) => assert.approximately(hit.score, expected[i]!, 1e-12))
      }))

    it.effect("nearest - breaks equal cosines by chunk id ascending", () =>
      Effect.gen(function*() {
        const hits = yield* nearest(2, [entry("v/z.md#x", [1, 1]), entry("v/m.md#x", [2, 2]), entry("v/a.md#x", [0.5, 0.5])], [1, 1], 10)
        assert.deepStrictEqual(ids(hits), ["v/a.md#x", "v/m.md#x", "v/z.md#x"])
      }))

    it.effect("nearest - applies the filter inside, so limit hits come back when the nearest are filtered", () =>
      Effect.gen(function*() {
        const close = Array.from({ length: 10 }, (_, i) => entry(`v/close${i}.md#x`, [1, 0.01 * i], { status: "superseded" }))
        const far = Array.from({ length: 5 }, (_, i) => entry(`v/far${i}.md#x`, [0.2 * i, 1]))
        const hits = yield* nearest(2, [...close, ...far], [1, 0], 3)
        assert.deepStrictEqual(ids(hits), ["v/far4.md#x", "v/far3.md#x", "v/far2.md#x"])
        const typed = yield* nearest(2, [...close, ...far], [1, 0], 2, { includeSuperseded: true, paths: ["v/far3.md"] })
        assert.deepStrictEqual(ids(typed), ["v/far3.md#x"])
      }))

    it.effect("nearest - honours limit, and limit 0 gives nothing", () =>
      Effect.gen(function*() {
        const entries = Array.from({ length: 6 }, (_, i) => entry(`v/${i}.md#x`, [1, i]))
        assert.strictEqual((yield* nearest(2, entries, [1, 0], 4)).length, 4)
        assert.strictEqual((yield* nearest(2, entries, [1, 0], Number.POSITIVE_INFINITY)).length, 6)
        assert.deepStrictEqual(yield* nearest(2, entries, [1, 0], 0), [])
      }))

    it.effect("nearest - a query of the wrong length or with no direction fails with a typed error", () =>
      Effect.gen(function*() {
        const entries = [entry("v/a.md#x", [1, 0])]
        const wrong = yield* Effect.flip(nearest(2, entries, [1, 0, 0], 5))
        assert.isTrue(wrong instanceof VectorIndexError && wrong.reason === "dimension_mismatch")
        const zero = yield* Effect.flip(nearest(2, entries, [0, 0], 5))
        assert.isTrue(zero instanceof VectorIndexError && zero.reason === "invalid_vector")
        const nan = yield* Effect.flip(nearest(2, entries, [Number.NaN, 1], 5))
        assert.isTrue(nan instanceof VectorIndexError && nan.reason === "invalid_vector")
      }))

    it.effect("nearest - same hits, byte for byte, whatever order the entries arrive in", () =>
      Effect.gen(function*() {
        const entries = Array.from({ length: 12 }, (_, i) => entry(`v/${(i * 5) % 12}.md#x`, [Math.cos(i), Math.sin(i), (i % 3) - 1]))
        const forward = yield* nearest(3, entries, [0.3, -0.2, 0.9], 7)
        const backward = yield* nearest(3, [...entries].reverse(), [0.3, -0.2, 0.9], 7)
        assert.strictEqual(JSON.stringify(backward), JSON.stringify(forward))
      }))

    it.effect("build - a stored vector of the wrong length or a repeated id fails with a typed error", () =>
      Effect.gen(function*() {
        const short = yield* Effect.flip(nearest(3, [entry("v/a.md#x", [1, 0])], [1, 0, 0], 1))
        assert.isTrue(short instanceof VectorIndexError && short.reason === "dimension_mismatch")
        const twice = yield* Effect.flip(nearest(2, [entry("v/a.md#x", [1, 0]), entry("v/a.md#x", [0, 1])], [1, 0], 1))
        assert.isTrue(twice instanceof VectorIndexError && twice.reason === "duplicate_chunk")
      }))
  })
}
