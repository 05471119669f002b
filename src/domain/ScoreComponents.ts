/**
 * The decomposed score. Every factor is 1 until the stage that owns it runs, so at every stage
 *
 *   score = (rerank ?? rrf) × typeWeight × relationWeight × hopPenalty × noteSupport × termCoverage
 *           × noteCoverage × linkConsensus × freshness × verification × authorKind × canonicality
 *
 * `relationWeight × hopPenalty` is the graph factor (`graphPenalty`): which relation admitted a
 * neighbour, and how far it was walked. A number in a score that no component explains is a defect.
 */
import { Schema } from "effect"

export const ScoreComponents = Schema.Struct({
  /** Reciprocal-rank fusion score: the relevance base until a reranker speaks. */
  rrf: Schema.Finite,
  /** Reranker score; replaces `rrf` as the base when present. */
  rerank: Schema.NullOr(Schema.Finite),
  typeWeight: Schema.Finite,
  relationWeight: Schema.Finite,
  hopPenalty: Schema.Finite,
  noteSupport: Schema.Finite,
  termCoverage: Schema.Finite,
  noteCoverage: Schema.Finite,
  linkConsensus: Schema.Finite,
  freshness: Schema.Finite,
  verification: Schema.Finite,
  authorKind: Schema.Finite,
  /** How central the note is to the corpus's own links (graph canonicality), floored; 1 when off. */
  canonicality: Schema.Finite
})
export type ScoreComponents = typeof ScoreComponents.Type

/** The multiplicative factors, in the one order the product is taken. */
export const FACTORS = [
  "typeWeight",
  "relationWeight",
  "hopPenalty",
  "noteSupport",
  "termCoverage",
  "noteCoverage",
  "linkConsensus",
  "freshness",
  "verification",
  "authorKind",
  "canonicality"
] as const satisfies ReadonlyArray<keyof ScoreComponents>
export type Factor = typeof FACTORS[number]

/** Components of a candidate no stage has scored yet, with its fusion base. */
export const initial = (rrf: number): ScoreComponents => ({
  rrf,
  rerank: null,
  typeWeight: 1,
  relationWeight: 1,
  hopPenalty: 1,
  noteSupport: 1,
  termCoverage: 1,
  noteCoverage: 1,
  linkConsensus: 1,
  freshness: 1,
  verification: 1,
  authorKind: 1,
  canonicality: 1
})

/** The relevance base a reranker, when it ran, replaces. */
export const base = (components: ScoreComponents): number => components.rerank ?? components.rrf

/** The graph factor: the admitting relation's weight times the per-hop penalty. */
export const graphPenalty = (components: ScoreComponents): number =>
  components.relationWeight * components.hopPenalty

/** The score the components explain, multiplied in `FACTORS` order so the float result is canonical. */
export const score = (components: ScoreComponents): number => {
  let product = base(components)
  for (const factor of FACTORS) product *= components[factor]
  return product
}
