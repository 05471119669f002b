/**
 * Reference Embedder layers over the in-process encoders of src/index: the corpus-trained latent
 * semantic model (the offline default candidate) and signed feature hashing (an ablation only).
 * Every batch passes the port's vector assertion before it leaves the layer.
 */
import { Effect, Layer } from "effect"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import type { LsaModel, LsaOptions } from "../../src/index/LatentSemanticEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { checked, Embedder } from "../../src/ports/Embedder.ts"

/** An Embedder over any in-process encoder, with every batch checked. */
export const fromEncoder = (model: TextEncoderModel): Embedder["Service"] =>
  Embedder.of(checked({
    id: model.id,
    version: model.version,
    dimension: model.dimension,
    embed: (texts) => Effect.sync(() => texts.map(model.embedOne))
  }))

/** Latent semantic embedder over a trained (or reloaded) model. */
export const make = (model: LsaModel): Effect.Effect<Embedder["Service"]> => Effect.sync(() => fromEncoder(Lsa.encoder(model)))

export const layer = (model: LsaModel): Layer.Layer<Embedder> => Layer.effect(Embedder, make(model))

/** Trains the latent semantic model on `texts` while the layer is built. */
export const layerTrained = (texts: ReadonlyArray<string>, options: Partial<LsaOptions> = {}): Layer.Layer<Embedder> =>
  Layer.effect(Embedder, Effect.map(Lsa.trainEncoder(texts, options), fromEncoder))

/** Signed feature hashing: a bag-of-words baseline for ablations, never the default. */
export const makeHashing = (dimension: number = Hashing.defaultHashingDimension): Effect.Effect<Embedder["Service"]> =>
  Effect.sync(() => fromEncoder(Hashing.make(dimension)))

export const layerHashing = (dimension: number = Hashing.defaultHashingDimension): Layer.Layer<Embedder> =>
  Layer.effect(Embedder, makeHashing(dimension))
