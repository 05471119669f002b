/**
 * The Embedder that wrote a repository's vectors, restored from its vector space, so a question is
 * embedded into the same space as the chunks: the corpus-trained model is stored as data, the
 * hashing model needs only its dimension. Any other model lives outside the database, and its own
 * Embedder layer must be provided instead.
 */
import { Effect, Layer } from "effect"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { checked, Embedder, EmbedderError } from "../../src/ports/Embedder.ts"
import { IndexStore } from "../../src/ports/IndexStore.ts"

const unavailable = (embedder: string, detail: string) => new EmbedderError({ embedder, reason: "unavailable", index: -1, detail })

export const make = Effect.gen(function*() {
  const store = yield* IndexStore
  const space = yield* store.vectorSpace.pipe(Effect.mapError((error) => unavailable("cairn/postgres", error.message)))
  if (space === undefined) return yield* unavailable("cairn/postgres", "the index holds no vectors; index with an embedder first")
  const encoder = space.modelId === Lsa.ID
    ? yield* (space.model === null
      ? Effect.fail(unavailable(space.modelId, "the index does not store the model's data; rebuild the index"))
      : Lsa.decodeModel(space.model).pipe(
        Effect.map(Lsa.encoder),
        Effect.mapError((error) => unavailable(space.modelId, `the stored model does not decode (${error.message}); rebuild the index`))
      ))
    : space.modelId === "cairn/hashing"
    ? Hashing.make(space.dimension)
    : yield* unavailable(space.modelId, "the model is not stored in the index; provide its Embedder layer")
  // A restored model that embeds differently from the one that wrote the vectors would mix spaces.
  if (encoder.version !== space.version || encoder.dimension !== space.dimension) {
    return yield* unavailable(space.modelId, `restored version ${encoder.version} (${encoder.dimension}) is not the stored ${space.version} (${space.dimension}); rebuild the index`)
  }
  return Embedder.of(checked({
    id: encoder.id,
    version: encoder.version,
    dimension: encoder.dimension,
    embed: (texts) => Effect.try({ try: () => texts.map(encoder.embedOne), catch: (error) => unavailable(encoder.id, error instanceof Error ? error.message : String(error)) })
  }))
})

export const layer: Layer.Layer<Embedder, EmbedderError, IndexStore> = Layer.effect(Embedder, make)
