/** Reference IndexHealth: a fixed reading, for in-memory corpora that are complete by construction. */
import { Effect, Layer } from "effect"
import { IndexHealth, type IndexHealthReading } from "../../src/ports/IndexHealth.ts"

export const layer = (reading: IndexHealthReading = { embeddingCoverage: 1, lagSeconds: 0 }): Layer.Layer<IndexHealth> =>
  Layer.succeed(IndexHealth, { read: () => Effect.succeed(reading) })
