/**
 * Stage 7, score adjustment: the factors that say how much a relevant passage is worth to this
 * question (its note type, support, coverage, consensus, freshness, trust), then a re-sort and the
 * cut to `rerankLimit`. This file holds the stage's contract and, for now, the provisional
 * relevance-only composition: every factor stays 1 and only the order and the cut apply.
 */
import { Context, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import { sortCandidates } from "../domain/Ranking.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import type { Intent } from "./intent.ts"

/** What stage 7 may read besides the candidates; all of it already fetched by earlier stages. */
export interface AdjustContext {
  readonly query: string
  readonly intent: Intent
  /** The pipeline's one clock read, epoch milliseconds. */
  readonly now: number
  /** Edges stage 5 fetched. */
  readonly edges: ReadonlyArray<NoteEdge>
  /** Chunk count of each candidate's note. */
  readonly chunkCounts: ReadonlyMap<string, number>
  readonly config: RetrievalConfigShape
}

export class ScoreAdjustment extends Context.Service<ScoreAdjustment, {
  /** The adjusted candidates in rank order, at most `rerankLimit`; every score still its components' product. */
  readonly adjust: (candidates: ReadonlyArray<Candidate>, context: AdjustContext) => ReadonlyArray<Candidate>
}>()("cairn/retrieval/ScoreAdjustment") {}

/** Relevance only: rank by the base (times the graph factor) and cut. */
export const relevanceOnly = (candidates: ReadonlyArray<Candidate>, context: AdjustContext): Array<Candidate> =>
  sortCandidates(candidates).slice(0, Math.max(0, context.config.rerankLimit))

export const layerRelevanceOnly: Layer.Layer<ScoreAdjustment> = Layer.succeed(ScoreAdjustment, { adjust: relevanceOnly })
