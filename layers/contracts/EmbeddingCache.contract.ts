/**
 * Behaviour every EmbeddingCache backend must show, run against each backend by its own test file.
 * A backend is given as a function to a layer holding a cache of its own, empty, so no test sees
 * another's vectors. What lasts across processes is the backend's own test: a memory cache has
 * nothing to reopen.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import { type CacheSpace, EmbeddingCache } from "../../src/ports/EmbeddingCache.ts"

export type MakeEmbeddingCacheLayer<E> = () => Layer.Layer<EmbeddingCache, E>

const SPACE: CacheSpace = { modelId: "openai:m", version: "http/1 openai m 3", dimension: 3 }

export const contract = <E>(name: string, make: MakeEmbeddingCacheLayer<E>) =>
  describe(`EmbeddingCache contract: ${name}`, () => {
    const withCache = <A, F>(use: (cache: EmbeddingCache["Service"]) => Effect.Effect<A, F>): Effect.Effect<A, F | E> =>
      Effect.gen(function*() {
        const cache = yield* EmbeddingCache
        return yield* use(cache)
      }).pipe(Effect.provide(make()))

    it.effect("a vector put is got back as float32, whichever form it was given in; a hash never put is absent", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          yield* cache.put(SPACE, [["a", [0.6, 0.8, 0]], ["b", Float32Array.from([0, 0, 1])]])
          const found = yield* cache.get(SPACE, ["a", "b", "c"])
          assert.deepStrictEqual([...found.keys()].sort(), ["a", "b"])
          assert.instanceOf(found.get("a"), Float32Array)
          assert.deepStrictEqual([...found.get("a")!], [Math.fround(0.6), Math.fround(0.8), 0])
          assert.deepStrictEqual([...found.get("b")!], [0, 0, 1])
        })), 30_000)

    it.effect("nothing asked, nothing put: an empty get answers an empty map and an empty put keeps nothing", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          yield* cache.put(SPACE, [])
          assert.strictEqual((yield* cache.get(SPACE, [])).size, 0)
          assert.strictEqual((yield* cache.get(SPACE, ["a"])).size, 0)
        })), 30_000)

    it.effect("vectors of one space are never served to another model, version or dimension", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          yield* cache.put(SPACE, [["a", [1, 0, 0]]])
          for (const other of [{ ...SPACE, modelId: "openai:n" }, { ...SPACE, version: "v2" }, { ...SPACE, dimension: 4 }]) {
            assert.strictEqual((yield* cache.get(other, ["a"])).size, 0, JSON.stringify(other))
          }
          // Each space keeps its own vector for one hash.
          yield* cache.put({ ...SPACE, modelId: "openai:n" }, [["a", [0, 0, 1]]])
          assert.deepStrictEqual([...(yield* cache.get(SPACE, ["a"])).get("a")!], [1, 0, 0])
          assert.deepStrictEqual([...(yield* cache.get({ ...SPACE, modelId: "openai:n" }, ["a"])).get("a")!], [0, 0, 1])
        })), 30_000)

    it.effect("a vector whose length is not its space's dimension is never served", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          yield* cache.put(SPACE, [["short", [1, 0]], ["right", [0, 1, 0]]])
          assert.deepStrictEqual([...(yield* cache.get(SPACE, ["short", "right"])).keys()], ["right"])
        })), 30_000)

    it.effect("a hash already cached keeps its first vector: the same text embeds alike in one space", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          yield* cache.put(SPACE, [["a", [1, 0, 0]]])
          yield* cache.put(SPACE, [["a", [0, 1, 0]], ["b", [0, 0, 1]]])
          const found = yield* cache.get(SPACE, ["a", "b"])
          assert.deepStrictEqual([...found.get("a")!], [1, 0, 0])
          assert.deepStrictEqual([...found.get("b")!], [0, 0, 1])
        })), 30_000)

    it.effect("a vector is the cache's own: changing the array put, or the one got, changes nothing kept", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          const given = Float32Array.from([1, 0, 0])
          yield* cache.put(SPACE, [["a", given]])
          given[0] = 9
          const got = (yield* cache.get(SPACE, ["a"])).get("a")!
          got[1] = 9
          assert.deepStrictEqual([...(yield* cache.get(SPACE, ["a"])).get("a")!], [1, 0, 0])
        })), 30_000)

    it.effect("more hashes than one statement binds are kept and looked up whole", () =>
      withCache((cache) =>
        Effect.gen(function*() {
          const hashes = Array.from({ length: 1_234 }, (_, i) => `h${i}`)
          yield* cache.put(SPACE, hashes.map((hash, i) => [hash, [i, 0, 0]] as const))
          const found = yield* cache.get(SPACE, hashes)
          assert.strictEqual(found.size, 1_234)
          assert.strictEqual(found.get("h1233")![0], 1_233)
        })), 30_000)
  })
