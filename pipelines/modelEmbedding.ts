/**
 * Chunks embedded by a caller's model (an HTTP endpoint) in steps, each step's vectors cached as
 * it comes back: a run that fails half way has paid for those, and the next run asks only for the
 * rest. A failure names the chunks left without a vector, so the user knows what the index lacks
 * and that it was left as it was.
 */
import { Effect, Option } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { ChunkId } from "../src/domain/Chunk.ts"
import { embedCached } from "../src/index/CachedEmbedding.ts"
import { EmbedderError, type EmbedderShape, type Vector } from "../src/ports/Embedder.ts"
import { EmbeddingCache } from "../src/ports/EmbeddingCache.ts"
import * as EmbeddingCacheSqlite from "../layers/sqlite/EmbeddingCacheSqlite.ts"
import type { Scope } from "effect"

/**
 * Texts per step, whose vectors are cached once the step is done: a default batch of 64 at the
 * default concurrency of 4, so a failure loses the requests of one step at most.
 */
export const MODEL_STEP = 256

/** The warning's code when the cache cannot open, so a service can filter it. */
export const CACHE_WARNING_CODE = "CAIRN_EMBEDDING_CACHE_UNAVAILABLE"

/** Chunk ids a failure names before it counts the rest. */
const NAMED = 5

export interface ChunkToEmbed {
  readonly id: ChunkId
  readonly text: string
}

export interface ModelEntries {
  readonly entries: ReadonlyArray<{ readonly chunkId: ChunkId; readonly vector: Vector | Float32Array }>
  /** Vectors the cache held, so no request was made for them. */
  readonly cached: number
}

/** `error`, saying which chunks are left without a vector and that nothing was written. */
export const notEmbedded = (error: EmbedderError, left: ReadonlyArray<ChunkId>, count: number, of: number): EmbedderError => {
  const named = left.slice(0, NAMED).join(", ")
  const more = count > NAMED ? ` and ${count - Math.min(NAMED, left.length)} more` : ""
  return new EmbedderError({
    embedder: error.embedder,
    reason: error.reason,
    index: error.index,
    detail: `${error.detail}; ${count} of ${of} chunks were not embedded (${named}${more}), so nothing was written and the index is as it was; ` +
      "the vectors of the steps the model finished are cached, and the next run asks only for the rest"
  })
}

/**
 * The cache a run embeds through: the one in context, else the file beside the index, else none
 * (a cache that cannot open costs requests, never the run).
 */
export const runCache = Effect.fn("modelEmbedding.runCache")(function*(root: string): Effect.fn.Return<EmbeddingCache["Service"] | undefined, never, Scope.Scope> {
  const provided = yield* Effect.serviceOption(EmbeddingCache)
  if (Option.isSome(provided)) return provided.value
  return yield* EmbeddingCacheSqlite.make(EmbeddingCacheSqlite.defaultPath(root)).pipe(
    Effect.catch((error) =>
      Effect.sync(() => {
        process.emitWarning(`${error.message}; this run sends every text to the model`, { type: "CairnWarning", code: CACHE_WARNING_CODE })
        return undefined
      }))
  )
})

/**
 * Vectors for `chunks` from `embedder`, a step at a time; `onStep` hears how many are done. On a
 * failure, the chunks of the failing step and after are named (`notEmbedded`), out of `of`, with
 * `unread` more the caller has not handed over yet.
 */
export const embedInSteps = Effect.fn("modelEmbedding.embedInSteps")(function*(
  embedder: EmbedderShape,
  cache: EmbeddingCache["Service"] | undefined,
  chunks: ReadonlyArray<ChunkToEmbed>,
  options: { readonly of?: number; readonly unread?: number; readonly onStep?: (done: number) => Effect.Effect<void> } = {}
): Effect.fn.Return<ModelEntries, EmbedderError, Digest.Digest> {
  const entries: Array<ModelEntries["entries"][number]> = []
  let cached = 0
  for (let start = 0; start < chunks.length; start += MODEL_STEP) {
    const step = chunks.slice(start, start + MODEL_STEP)
    const result = yield* embedCached(embedder, cache, step.map((chunk) => chunk.text)).pipe(
      Effect.mapError((error) =>
        notEmbedded(error, chunks.slice(start, start + NAMED).map((chunk) => chunk.id), chunks.length - start + (options.unread ?? 0), options.of ?? chunks.length)
      )
    )
    for (let i = 0; i < step.length; i++) entries.push({ chunkId: step[i]!.id, vector: result.vectors[i]! })
    cached += result.cached
    if (options.onStep !== undefined) yield* options.onStep(start + step.length)
  }
  return { entries, cached }
})
