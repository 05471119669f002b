import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import type { EmbedderShape } from "../ports/Embedder.ts"
import { EmbeddingCache, EmbeddingCacheError } from "../ports/EmbeddingCache.ts"
import { embedCached } from "./CachedEmbedding.ts"

/** A model that records what it was asked, with a vector per text of its length. */
const recording = () => {
  const asked: Array<ReadonlyArray<string>> = []
  const embedder: EmbedderShape = {
    id: "test:model",
    version: "1",
    dimension: 2,
    embed: (texts) => Effect.sync(() => {
      asked.push(texts)
      return texts.map((text) => [Math.cos(text.length), Math.sin(text.length)])
    })
  }
  return { embedder, asked }
}

const memoryCache = (): EmbeddingCache["Service"] => {
  const held = new Map<string, Float32Array>()
  const key = (space: { modelId: string; version: string; dimension: number }, hash: string) => `${space.modelId}|${space.version}|${space.dimension}|${hash}`
  return EmbeddingCache.of({
    get: (space, hashes) => Effect.sync(() => new Map(hashes.flatMap((hash) => held.has(key(space, hash)) ? [[hash, held.get(key(space, hash))!] as const] : []))),
    put: (space, entries) => Effect.sync(() => {
      for (const [hash, vector] of entries) if (!held.has(key(space, hash))) held.set(key(space, hash), Float32Array.from(vector))
    })
  })
}

const broken = EmbeddingCache.of({
  get: () => Effect.fail(new EmbeddingCacheError({ path: "x", detail: "unreadable" })),
  put: () => Effect.fail(new EmbeddingCacheError({ path: "x", detail: "unwritable" }))
})

describe("embedCached", () => {
  it.effect("a text is sent to the model once: cached texts and repeats within a batch are not asked again", () =>
    Effect.gen(function*() {
      const { asked, embedder } = recording()
      const cache = memoryCache()
      const first = yield* embedCached(embedder, cache, ["alpha", "beta", "alpha"])
      assert.deepStrictEqual(asked, [["alpha", "beta"]])
      assert.strictEqual(first.cached, 1)
      const second = yield* embedCached(embedder, cache, ["beta", "gamma", "alpha"])
      assert.deepStrictEqual(asked, [["alpha", "beta"], ["gamma"]])
      assert.strictEqual(second.cached, 2)
      // Vectors come back in the order of the texts, whichever way each was found.
      for (const [i, text] of ["beta", "gamma", "alpha"].entries()) {
        assert.closeTo(second.vectors[i]![0]!, Math.cos(text.length), 1e-6)
      }
      const all = yield* embedCached(embedder, cache, ["alpha", "beta", "gamma"])
      assert.strictEqual(asked.length, 2)
      assert.strictEqual(all.cached, 3)
    }).pipe(Effect.provide(Digest.layerWebCrypto)))

  it.effect("a cache that fails costs requests, never the call", () =>
    Effect.gen(function*() {
      const { asked, embedder } = recording()
      const result = yield* embedCached(embedder, broken, ["alpha", "beta"])
      assert.strictEqual(result.vectors.length, 2)
      assert.strictEqual(result.cached, 0)
      assert.deepStrictEqual(asked, [["alpha", "beta"]])
    }).pipe(Effect.provide(Digest.layerWebCrypto)))

  it.effect("a model's failure is the call's: nothing is cached for it", () =>
    Effect.gen(function*() {
      const cache = memoryCache()
      const { embedder } = recording()
      const failing: EmbedderShape = { ...embedder, embed: () => Effect.die("unreachable") }
      const exit = yield* Effect.exit(embedCached(failing, cache, ["alpha"]))
      assert.strictEqual(exit._tag, "Failure")
      const after = yield* embedCached(embedder, cache, ["alpha"])
      assert.strictEqual(after.cached, 0)
    }).pipe(Effect.provide(Digest.layerWebCrypto)))
})
