/** Port: how complete and how current the index is, as every pack reports it. */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export interface IndexHealthReading {
  /** Share of chunks with an embedding, in [0, 1]; 1 when the dense leg is not in use. */
  readonly embeddingCoverage: number
  /** Seconds between the newest change the index knows of and its last build. */
  readonly lagSeconds: number
  /** Files changed, added or deleted on disk since the last build, when somebody checked. */
  readonly filesChanged?: number
}

export class IndexHealthError extends Schema.TaggedError<IndexHealthError>()("IndexHealthError", {
  detail: Schema.String
}) {
  override get message(): string {
    return `index health unavailable: ${this.detail}`
  }
}

export class IndexHealth extends Context.Service<IndexHealth, {
  /** The current reading; `now` is the pipeline's one clock read, in epoch milliseconds. */
  read(now: number): Effect.Effect<IndexHealthReading, IndexHealthError>
}>()("cairn/ports/IndexHealth") {}
