/**
 * The shipped stage services as one layer: intent, fusion, the title/path channel, graph expansion,
 * rerank, score adjustment and the packer. Ports are left as requirements, so the same stages run
 * over the reference backends, the embedded index or anything else; an ablation replaces one stage's
 * layer and nothing else.
 */
import { Layer } from "effect"
import type { CandidateStore } from "../src/ports/CandidateStore.ts"
import type { GraphStore } from "../src/ports/GraphStore.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import { Adjust, Conflicts, Dedup, Diversity, Expand, Fuse, Gaps, Intent, Pack, Rerank, TitlePath } from "../src/retrieval/index.ts"

export type StageServices =
  | Intent.IntentClassifier
  | Fuse.Fusion
  | TitlePath.TitlePathChannel
  | Expand.GraphExpansion
  | Rerank.RerankStage
  | Adjust.ScoreAdjustment
  | Dedup.Dedup
  | Diversity.Diversity
  | Conflicts.ConflictDetector
  | Gaps.GapDetector
  | Pack.Packer

export const layer: Layer.Layer<StageServices, never, GraphStore | CandidateStore | TokenCounter> = Layer.mergeAll(
  Intent.layer,
  Fuse.layer,
  TitlePath.layer,
  Expand.layer,
  Rerank.layer,
  Adjust.layer,
  Dedup.layer,
  Diversity.layer,
  Conflicts.layer,
  Gaps.layer,
  Pack.layer
)
