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
import * as Adjust from "../src/retrieval/adjust.ts"
import * as Conflicts from "../src/retrieval/conflicts.ts"
import * as Dedup from "../src/retrieval/dedup.ts"
import * as Diversity from "../src/retrieval/diversity.ts"
import * as Expand from "../src/retrieval/expand.ts"
import * as Fuse from "../src/retrieval/fuse.ts"
import * as Gaps from "../src/retrieval/gaps.ts"
import * as Intent from "../src/retrieval/intent.ts"
import * as Pack from "../src/retrieval/pack.ts"
import * as Rerank from "../src/retrieval/rerank.ts"
import * as TitlePath from "../src/retrieval/titlePath.ts"

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
