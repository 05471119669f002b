/**
 * Stage 6, rerank: a second opinion on relevance. Skipped below `rerankMinCorpus` chunks (too little
 * to discriminate between). When the model speaks it scores at most `rerankCandidateLimit`
 * candidates, taken in score order, and its score replaces the relevance base of each; the rest,
 * which it never read, are left out, since no score could place them against its scale. A reranker
 * that abstains leaves the list exactly as a skipped rerank would.
 */
import { Context, Effect, Layer, Option } from "effect"
import * as Candidate from "../domain/Candidate.ts"
import { sortCandidates } from "../domain/Ranking.ts"
import { Reranker, RerankerError } from "../ports/Reranker.ts"

export type RerankOutcome = "scored" | "abstained" | "skipped"

export interface Reranked {
  readonly candidates: ReadonlyArray<Candidate.Candidate>
  readonly outcome: RerankOutcome
}

export interface RerankOptions {
  readonly rerankMinCorpus: number
  readonly rerankCandidateLimit: number
  /** Chunks in the corpus. */
  readonly corpusSize: number
}

/** Apply a model's scores (one per candidate of `scored`, in order); pure, exported for tests. */
export const applyScores = (
  scored: ReadonlyArray<Candidate.Candidate>,
  scores: ReadonlyArray<number>
): Array<Candidate.Candidate> =>
  scored.map((candidate, i) => Candidate.withComponents(candidate, { ...candidate.components, rerank: scores[i]! }))

export class RerankStage extends Context.Service<RerankStage, {
  readonly rerank: (
    query: string,
    candidates: ReadonlyArray<Candidate.Candidate>,
    options: RerankOptions
  ) => Effect.Effect<Reranked, RerankerError>
}>()("cairn/retrieval/RerankStage") {}

/** Reranks with the `Reranker` in context, or skips when none is provided. */
export const layer: Layer.Layer<RerankStage> = Layer.succeed(RerankStage, {
  rerank: (query, candidates, options) =>
    Effect.gen(function*() {
      const reranker = yield* Effect.serviceOption(Reranker)
      if (Option.isNone(reranker) || options.corpusSize < options.rerankMinCorpus || candidates.length === 0) {
        return { candidates, outcome: "skipped" as const }
      }
      const top = sortCandidates(candidates).slice(0, Math.max(0, options.rerankCandidateLimit))
      const scores = yield* reranker.value.score(query, top.map((c) => ({ id: c.chunk.id, text: c.chunk.text })))
      if (Option.isNone(scores)) return { candidates, outcome: "abstained" as const }
      if (scores.value.length !== top.length || !scores.value.every(Number.isFinite)) {
        return yield* new RerankerError({
          reranker: reranker.value.id,
          detail: `returned ${scores.value.length} scores for ${top.length} passages, or a non-finite score`
        })
      }
      return { candidates: applyScores(top, scores.value), outcome: "scored" as const }
    })
})
