/**
 * Reference IndexHealth: a fixed reading, for in-memory corpora that are complete by construction;
 * or the reading of a build described in memory, read as a stored index reads its manifest.
 */
import { Effect, Layer } from "effect"
import { instantMillis } from "../../src/domain/Instant.ts"
import { IndexHealth, type IndexHealthReading } from "../../src/ports/IndexHealth.ts"

export const layer = (reading: IndexHealthReading = { embeddingCoverage: 1, lagSeconds: 0 }): Layer.Layer<IndexHealth> =>
  Layer.succeed(IndexHealth, { read: () => Effect.succeed(reading) })

/** What the last build left: its chunks, how many carry a vector (absent: built without an embedder), when. */
export interface Build {
  readonly chunkCount: number
  readonly embeddedCount?: number
  /** ISO-8601 instant with a zone. */
  readonly builtAt: string
}

/** Coverage is embedded chunks over chunks (1 without an embedder or chunks); lag is `now` minus `builtAt`, never negative. */
export const layerBuilt = (build: Build): Layer.Layer<IndexHealth> => {
  const embeddingCoverage = build.embeddedCount === undefined || build.chunkCount === 0 ? 1 : build.embeddedCount / build.chunkCount
  const builtMillis = instantMillis(build.builtAt)
  return Layer.succeed(IndexHealth, {
    read: (now) => Effect.succeed({ embeddingCoverage, lagSeconds: Math.max(0, (now - builtMillis) / 1000) })
  })
}
