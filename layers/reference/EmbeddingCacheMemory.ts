/**
 * Reference EmbeddingCache: vectors kept in memory by space and content hash, for tests and for a
 * process that wants the cache's behaviour without a file. Every vector is copied in and out, so
 * neither the caller's arrays nor the ones it is given can change what is kept.
 */
import { Effect, Layer } from "effect"
import { type CacheSpace, EmbeddingCache } from "../../src/ports/EmbeddingCache.ts"

const spaceKey = (space: CacheSpace): string => `${space.modelId}\u0000${space.version}\u0000${space.dimension}`

export const make = (): EmbeddingCache["Service"] => {
  const spaces = new Map<string, Map<string, Float32Array>>()
  return EmbeddingCache.of({
    get: (space, hashes) =>
      Effect.sync(() => {
        const kept = spaces.get(spaceKey(space))
        const found = new Map<string, Float32Array>()
        if (kept === undefined) return found
        for (const hash of hashes) {
          const vector = kept.get(hash)
          if (vector !== undefined) found.set(hash, Float32Array.from(vector))
        }
        return found
      }),
    put: (space, entries) =>
      Effect.sync(() => {
        const key = spaceKey(space)
        let kept = spaces.get(key)
        if (kept === undefined) spaces.set(key, (kept = new Map()))
        for (const [hash, vector] of entries) {
          // A vector of another length is not this space's: the file backend drops it when read.
          if (!kept.has(hash) && vector.length === space.dimension) kept.set(hash, Float32Array.from(vector))
        }
      })
  })
}

export const layer = (): Layer.Layer<EmbeddingCache> => Layer.sync(EmbeddingCache, make)
