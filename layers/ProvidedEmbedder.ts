/**
 * A caller's embedder (an HTTP model, say) answering over an index, held to the vectors the index
 * stores: a question embedded by another model, version or dimension than the chunks were would
 * be compared across spaces and rank noise, so that mismatch fails the dense leg with the fix.
 */
import { Effect, Layer } from "effect"
import { Embedder, EmbedderError } from "../src/ports/Embedder.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"

const unavailable = (embedder: string, detail: string) => new EmbedderError({ embedder, reason: "unavailable", index: -1, detail })

/** `embedder`, once the index's stored space is found to be its own. */
export const matching = (embedder: Layer.Layer<Embedder>): Layer.Layer<Embedder, EmbedderError, IndexStore> =>
  Layer.effect(Embedder, Effect.gen(function*() {
    const model = yield* Embedder
    const space = yield* (yield* IndexStore).vectorSpaceHeader.pipe(Effect.mapError((error) => unavailable(model.id, error.message)))
    if (space === undefined) return yield* unavailable(model.id, "the index holds no vectors; run `cairn index` to embed it with this model")
    if (space.modelId !== model.id || space.version !== model.version || space.dimension !== model.dimension) {
      return yield* unavailable(
        model.id,
        `the index's vectors are ${space.modelId}'s (${space.version}, ${space.dimension} dimensions), not the configured ${model.id}'s ` +
          `(${model.version}, ${model.dimension} dimensions); run \`cairn index\` to re-embed with it`
      )
    }
    return model
  })).pipe(Layer.provide(embedder))
