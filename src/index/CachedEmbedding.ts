/**
 * An embedder's vectors through the `EmbeddingCache`: the texts whose content hash is cached in the
 * embedder's space are served from it, the rest go to the model and are cached as they come back.
 * The cache is an economy, never a source of truth, so a cache that cannot be read or written costs
 * the run a request to the model and nothing more.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import { sha256Text } from "../source/Hashing.ts"
import type { EmbedderError, EmbedderShape, Vector } from "../ports/Embedder.ts"
import type { CacheSpace, EmbeddingCache } from "../ports/EmbeddingCache.ts"

export interface CachedVectors {
  /** One per text, in order. */
  readonly vectors: ReadonlyArray<Vector | Float32Array>
  /** How many came from the cache. */
  readonly cached: number
}

export const spaceOf = (embedder: Pick<EmbedderShape, "id" | "version" | "dimension">): CacheSpace => ({
  modelId: embedder.id,
  version: embedder.version,
  dimension: embedder.dimension
})

/** `embedder.embed(texts)`, with the cached texts left out of the request. */
export const embedCached = Effect.fn("CachedEmbedding.embedCached")(function*(
  embedder: EmbedderShape,
  cache: EmbeddingCache["Service"] | undefined,
  texts: ReadonlyArray<string>
): Effect.fn.Return<CachedVectors, EmbedderError, Digest.Digest> {
  if (cache === undefined || texts.length === 0) return { vectors: yield* embedder.embed(texts), cached: 0 }
  const space = spaceOf(embedder)
  const hashes = yield* Effect.forEach(texts, sha256Text)
  const known = yield* cache.get(space, [...new Set(hashes)]).pipe(Effect.orElseSucceed((): ReadonlyMap<string, Float32Array> => new Map()))
  // A text repeated in the batch is asked for once.
  const missing: Array<string> = []
  const missingText: Array<string> = []
  const asked = new Set<string>()
  for (let i = 0; i < texts.length; i++) {
    const hash = hashes[i]!
    if (known.has(hash) || asked.has(hash)) continue
    asked.add(hash)
    missing.push(hash)
    missingText.push(texts[i]!)
  }
  const fresh = missingText.length === 0 ? [] : yield* embedder.embed(missingText)
  const entries = missing.map((hash, i) => [hash, fresh[i]!] as const)
  if (entries.length > 0) yield* Effect.ignore(cache.put(space, entries))
  const byHash = new Map<string, Vector | Float32Array>(known)
  for (const [hash, vector] of entries) byHash.set(hash, vector)
  return { vectors: hashes.map((hash) => byHash.get(hash)!), cached: texts.length - missingText.length }
})
