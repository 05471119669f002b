/**
 * Port: a second opinion on relevance. A reranker scores passages against the query, or abstains,
 * and an abstaining reranker must leave the list exactly as a skipped rerank would.
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"
import type { ChunkId } from "../domain/Chunk.ts"

export interface Passage {
  readonly id: ChunkId
  readonly text: string
}

export class RerankerError extends Schema.TaggedError<RerankerError>()("RerankerError", {
  reranker: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `reranker ${this.reranker} failed: ${this.detail}; rerank is skippable, drop the reranker layer to go on without it`
  }
}

export class Reranker extends Context.Service<Reranker, {
  /** Names the model (and its version) in diagnostics and eval reports. */
  readonly id: string
  /**
   * `Option.some(scores)`, one finite score per passage in the order given (higher is more
   * relevant), or `Option.none()` to abstain: no opinion, so the caller keeps its own order.
   */
  score(query: string, passages: ReadonlyArray<Passage>): Effect.Effect<Option.Option<ReadonlyArray<number>>, RerankerError>
}>()("cairn/ports/Reranker") {}
