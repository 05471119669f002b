/**
 * Port: vectors a model already returned, kept by the text they embed, so an index run never pays
 * a model twice for the same text: not for an unchanged chunk whose id moved, not for a rebuild,
 * not for the chunks a failed run had embedded before it stopped. Keys are content hashes within
 * one vector space (model id, version, dimension): a vector is never served to another model.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

/** The model a cached vector belongs to. */
export interface CacheSpace {
  readonly modelId: string
  readonly version: string
  readonly dimension: number
}

export class EmbeddingCacheError extends Schema.TaggedError<EmbeddingCacheError>()("EmbeddingCacheError", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `embedding cache ${this.path}: ${this.detail}; the cache holds nothing the index needs, so it can be deleted`
  }
}

export class EmbeddingCache extends Context.Service<EmbeddingCache, {
  /** The cached vectors of those `hashes` that have one in `space`, by hash. */
  get(space: CacheSpace, hashes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, Float32Array>, EmbeddingCacheError>
  /** Keeps `entries` (hash, vector); a hash already cached keeps its vector. Durable once it succeeds. */
  put(space: CacheSpace, entries: ReadonlyArray<readonly [hash: string, vector: ReadonlyArray<number> | Float32Array]>): Effect.Effect<void, EmbeddingCacheError>
}>()("cairn/ports/EmbeddingCache") {}
