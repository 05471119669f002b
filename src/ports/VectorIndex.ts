/**
 * Port: nearest chunks to a query vector by cosine similarity, with the retrieval filter applied
 * inside the index, so a filtered query still fills its `limit`.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ChunkId } from "../domain/Chunk.ts"
import type { RetrievalFilter } from "./RetrievalFilter.ts"

/** One hit; `score` is the cosine similarity in [-1, 1], higher is nearer. */
export interface VectorHit {
  readonly id: ChunkId
  readonly score: number
}

export class VectorIndexError extends Schema.TaggedError<VectorIndexError>()("VectorIndexError", {
  reason: Schema.Literals(["dimension_mismatch", "invalid_vector", "duplicate_chunk", "unavailable", "extension_missing"]),
  detail: Schema.String
}) {
  override get message(): string {
    switch (this.reason) {
      case "dimension_mismatch":
        return `vector index: ${this.detail}; embed with the model the index was built with`
      case "invalid_vector":
        return `vector index: ${this.detail}; vectors must be finite and non-zero`
      case "duplicate_chunk":
        return `vector index: chunk id ${this.detail} appears twice; give every chunk a unique id`
      case "unavailable":
        return `vector index unavailable: ${this.detail}; rebuild or reopen the index`
      case "extension_missing":
        return `vector index: ${this.detail}; dense search is off and answers come from the lexical legs`
    }
  }
}

export class VectorIndex extends Context.Service<VectorIndex, {
  /** Length every stored and query vector has. */
  readonly dimension: number
  /**
   * The `limit` chunks passing `filter` nearest to `vector`, by cosine descending, then chunk id
   * ascending (code-unit order). The filter is applied before the cut, so fewer than `limit` hits
   * come back only when fewer chunks pass it. A vector of another length fails with
   * `dimension_mismatch`; a non-finite or all-zero one with `invalid_vector`.
   */
  nearest(vector: ReadonlyArray<number>, limit: number, filter: RetrievalFilter): Effect.Effect<ReadonlyArray<VectorHit>, VectorIndexError>
  /** The stored vectors of `ids` (unknown ids are absent): what dedup compares candidates by. */
  vectorsOf(ids: ReadonlyArray<ChunkId>): Effect.Effect<ReadonlyMap<ChunkId, ReadonlyArray<number>>, VectorIndexError>
}>()("cairn/ports/VectorIndex") {}
