/**
 * Named layer sets for recall: the shipped stages over a set of ports, with the counter and the
 * configuration provided to all of them (stages and backends read tunables while they are built).
 */
import { Layer } from "effect"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { EmbedderError } from "../src/ports/Embedder.ts"
import type { LexicalIndexError } from "../src/ports/LexicalIndex.ts"
import type { Reranker } from "../src/ports/Reranker.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import type { VectorIndexError } from "../src/ports/VectorIndex.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import * as Reference from "./reference/Reference.ts"
import * as Stages from "./Stages.ts"
import * as TokenCounterDefault from "./tokens/TokenCounterDefault.ts"

export type RecallLayerServices = Stages.StageServices | Reference.CorePorts | TokenCounter

/** A layer providing one stage service: what an ablation swaps in. */
export type StageLayer = Stages.StageServices extends infer S ? (S extends unknown ? Layer.Layer<S> : never) : never

export interface ReferenceOptions {
  readonly dense?: Reference.Dense
  /** RetrievalConfig overrides, validated. */
  readonly config?: unknown
  /** Another counter (the approximate one for an ablation); the default is the exact cl100k counter. */
  readonly tokenCounter?: Layer.Layer<TokenCounter>
  /** Stage layers that replace the shipped ones (an ablation swaps a stage, e.g. `Dedup.layerOff`). */
  readonly stages?: StageLayer
  /** A reranker for stage 6 (an HTTP model, for a bench condition); without one, rerank is skipped. */
  readonly reranker?: Layer.Layer<Reranker, InvalidInput>
}

/** The whole recall stack over the in-memory reference backends. */
export const reference = (
  corpus: Reference.Corpus,
  options: ReferenceOptions = {}
): Layer.Layer<RecallLayerServices, LexicalIndexError | EmbedderError | VectorIndexError | InvalidInput> =>
  // A swapped stage is merged over the shipped ones, which still provide every other stage.
  (options.stages === undefined ? Stages.layer : Layer.merge(Stages.layer, options.stages as Layer.Layer<Stages.StageServices>)).pipe(
    Layer.provideMerge(Reference.layer(corpus, options.dense === undefined ? {} : { dense: options.dense })),
    Layer.provideMerge(options.reranker ?? Layer.empty),
    Layer.provideMerge(options.tokenCounter ?? TokenCounterDefault.layer),
    Layer.provideMerge(RetrievalConfig.layer(options.config ?? {}))
  )
