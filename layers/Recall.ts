/**
 * Named layer sets for recall: the shipped stages over a set of ports, with the counter and the
 * configuration provided to all of them (stages and backends read tunables while they are built).
 */
import { Layer } from "effect"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { EmbedderError } from "../src/ports/Embedder.ts"
import type { LexicalIndexError } from "../src/ports/LexicalIndex.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import type { VectorIndexError } from "../src/ports/VectorIndex.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import * as Reference from "./reference/Reference.ts"
import * as Stages from "./Stages.ts"
import * as TokenCounterDefault from "./tokens/TokenCounterDefault.ts"

export type RecallLayerServices = Stages.StageServices | Reference.CorePorts

export interface ReferenceOptions {
  readonly dense?: Reference.Dense
  /** RetrievalConfig overrides, validated. */
  readonly config?: unknown
  /** Another counter (the approximate one for an ablation); the default is the exact WASM counter. */
  readonly tokenCounter?: Layer.Layer<TokenCounter>
}

/** The whole recall stack over the in-memory reference backends. */
export const reference = (
  corpus: Reference.Corpus,
  options: ReferenceOptions = {}
): Layer.Layer<RecallLayerServices, LexicalIndexError | EmbedderError | VectorIndexError | InvalidInput> =>
  Stages.layer.pipe(
    Layer.provideMerge(Reference.layer(corpus, options.dense === undefined ? {} : { dense: options.dense })),
    Layer.provideMerge(options.tokenCounter ?? TokenCounterDefault.layer),
    Layer.provideMerge(RetrievalConfig.layer(options.config ?? {}))
  )
