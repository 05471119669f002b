/**
 * The Embedder that wrote an index's vectors, restored from the index file, so a question is
 * embedded into the same space as the chunks. The corpus-trained model is stored as data in
 * `vector_space.model`, and term by term in `lsa_terms`, which is what a question reads when the
 * file has it (LsaTerms); the hashing model needs only its dimension. Any other model lives outside
 * the file, and its own Embedder layer must be provided instead.
 */
import { Effect, Layer } from "effect"
import type { DatabaseSync } from "node:sqlite"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { checked, Embedder, EmbedderError } from "../../src/ports/Embedder.ts"
import { Database } from "./Database.ts"
import * as LsaTerms from "./LsaTerms.ts"
import type { VectorSpace } from "../../src/ports/IndexStore.ts"
import { readSpaceBytes, readSpaceHeader } from "./VectorTable.ts"

const unavailable = (embedder: string, detail: string) => new EmbedderError({ embedder, reason: "unavailable", index: -1, detail })

const restore = (space: Omit<VectorSpace, "model">, model: Uint8Array | null): Effect.Effect<TextEncoderModel, EmbedderError> => {
  switch (space.modelId) {
    case Lsa.ID:
      return model === null
        ? Effect.fail(unavailable(space.modelId, "the index does not store the model's data; rebuild the index"))
        : Lsa.decodeModelBytes(model).pipe(
          Effect.map(Lsa.encoder),
          Effect.mapError((error) => unavailable(space.modelId, `the stored model does not decode (${error.message}); rebuild the index`))
        )
    case "cairn/hashing":
      return Effect.succeed(Hashing.make(space.dimension))
    default:
      return Effect.fail(unavailable(space.modelId, "the model is not stored in the index; provide its Embedder layer"))
  }
}

const failure = (embedder: string) => (error: unknown) => unavailable(embedder, error instanceof Error ? error.message : String(error))

/**
 * The whole stored model, restored and held to the version its vectors were written under: a
 * restored model that embeds differently from the one that wrote them would mix spaces.
 */
const restoreWhole = Effect.fnUntraced(function*(connection: DatabaseSync) {
  const space = yield* Effect.try({ try: () => readSpaceBytes(connection), catch: failure("cairn/sqlite") })
  if (space === undefined) return yield* unavailable("cairn/sqlite", "the index holds no vectors; index with an embedder first")
  const encoder = yield* restore(space, space.model)
  if (encoder.version !== space.version || encoder.dimension !== space.dimension) {
    return yield* unavailable(space.modelId, `restored version ${encoder.version} (${encoder.dimension}) is not the stored ${space.version} (${space.dimension}); rebuild the index`)
  }
  return encoder
})

export const make = Effect.gen(function*() {
  const { connection } = yield* Database
  // The model's terms, where the file keeps them for this space: the writer checked their
  // fingerprint against the space's version when it stored them (LsaTerms.store).
  const terms = yield* Effect.try({
    try: () => {
      const header = readSpaceHeader(connection)
      return header?.modelId === Lsa.ID ? LsaTerms.encoderOf(connection, header.version, header.dimension) : undefined
    },
    catch: failure("cairn/sqlite")
  })
  const encoder = terms ?? (yield* restoreWhole(connection))
  return Embedder.of(checked({
    id: encoder.id,
    version: encoder.version,
    dimension: encoder.dimension,
    embed: (texts) => Effect.try({ try: () => texts.map(encoder.embedOne), catch: (error) => unavailable(encoder.id, `${error instanceof Error ? error.message : String(error)}; rebuild the index`) })
  }))
})

export const layer: Layer.Layer<Embedder, EmbedderError, Database> = Layer.effect(Embedder, make)
