/**
 * The dense leg of an index whose vectors are stored but cannot be read (a damaged file, a model
 * that will not restore). Running without the leg would drop it from every pack in silence, so its
 * services are present and every call fails with why: each pack then reports the leg as failed,
 * with a gap naming it, and keeps what the other legs found.
 */
import { Effect, Layer } from "effect"
import { Embedder, EmbedderError } from "../../src/ports/Embedder.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"

const EMBEDDER_ID = "cairn/sqlite"

export const layer = (detail: string): Layer.Layer<Embedder | VectorIndex> =>
  Layer.merge(
    Layer.succeed(Embedder, Embedder.of({
      id: EMBEDDER_ID,
      version: "unreadable",
      dimension: 1,
      embed: () => Effect.fail(new EmbedderError({ embedder: EMBEDDER_ID, reason: "unavailable", index: -1, detail }))
    })),
    Layer.succeed(VectorIndex, VectorIndex.of({
      dimension: 1,
      nearest: () => Effect.fail(new VectorIndexError({ reason: "unavailable", detail })),
      vectorsOf: () => Effect.fail(new VectorIndexError({ reason: "unavailable", detail }))
    }))
  )
