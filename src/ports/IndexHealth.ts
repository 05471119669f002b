/** Port: how complete and how current the index is, as every pack reports it. */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export interface IndexHealthReading {
  /** Share of chunks with an embedding, in [0, 1]; 1 when the dense leg is not in use. */
  readonly embeddingCoverage: number
  /**
   * How far the index is behind the files, in seconds: the time since its last build when files
   * changed since (see `withFilesChanged`), 0 when a check found none. A reading nobody checked
   * against the files has only the build's age to go by.
   */
  readonly lagSeconds: number
  /** Files changed, added or deleted on disk since the last build, when somebody checked. */
  readonly filesChanged?: number
  /**
   * Why the index cannot serve the dense (vector) leg here, when it cannot (the vector extension
   * did not load on this platform); recall then reports that leg failed in every pack.
   */
  readonly denseUnavailable?: string
}

/**
 * A reading with the files found changed since the build: the lag stays only when some did, since
 * an old index of an unchanged tree is behind nothing.
 */
export const withFilesChanged = (reading: IndexHealthReading, filesChanged: number): IndexHealthReading => ({
  ...reading,
  filesChanged,
  lagSeconds: filesChanged > 0 ? reading.lagSeconds : 0
})

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
