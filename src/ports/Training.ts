/**
 * Where the index's embedder is trained and the chunks embedded. By default on the calling fiber
 * when asked; a platform layer may start training on another thread the moment the texts are
 * known, so that the chunks are written meanwhile, and share the embedding between threads. Either
 * way the model and the vectors are what `Lsa.train` and the encoder's `embedOne` give, bit for bit.
 */
import { Context, Effect, Stream } from "effect"
import type { Scope } from "effect"
import type { TextEncoderModel } from "../index/HashingEmbedder.ts"
import * as Lsa from "../index/LatentSemanticEmbedder.ts"

export interface TrainingRun {
  /** The trained model; waits for training to finish. */
  readonly model: Effect.Effect<Lsa.LsaModel>
  /**
   * Each text's vector under the trained model, rounded to float32 as the index stores it, handed
   * to `sink` in consecutive runs that cover the texts of `pages` in order, so the first can be
   * stored while later ones are still being embedded; the pages are pulled as they are needed, so
   * a caller can read them from storage and hold a few. It may be asked before training ends:
   * `sink` is first called once the model is trained, and a backend does meanwhile whatever needs
   * no model (the node backend analyses the first pages' texts).
   */
  readonly embedInto: <E, E2 = never>(
    pages: Stream.Stream<ReadonlyArray<string>, E2>,
    sink: (vectors: ReadonlyArray<Float32Array>) => Effect.Effect<void, E>
  ) => Effect.Effect<void, E | E2>
}

export interface TrainingShape {
  /** Starts training a model on `texts`; what the run holds is released with the scope. */
  readonly start: (texts: ReadonlyArray<string>) => Effect.Effect<TrainingRun, never, Scope.Scope>
}

export const inProcess: TrainingShape = {
  start: (texts) =>
    Effect.sync(() => {
      let model: Lsa.LsaModel | undefined
      let encoder: TextEncoderModel | undefined
      const trained = () => (model ??= Lsa.train(texts))
      return {
        model: Effect.sync(trained),
        embedInto: (pages, sink) =>
          Stream.runForEach(pages, (page) =>
            Effect.suspend(() => {
              encoder ??= Lsa.encoder(trained())
              return sink(page.map((text) => Float32Array.from(encoder!.embedOne(text))))
            }))
      }
    })
}

export const Training = Context.Reference<TrainingShape>("cairn/ports/Training", {
  defaultValue: () => inProcess
})
