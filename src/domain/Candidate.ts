/**
 * A chunk on its way through recall: the passage, its decomposed score and the diagnostics that say
 * how it got there. `score` always equals `ScoreComponents.score(components)`; `withComponents` is
 * the one way to change either.
 */
import { Schema } from "effect"
import { Chunk } from "./Chunk.ts"
import * as ScoreComponents from "./ScoreComponents.ts"

export const Candidate = Schema.Struct({
  chunk: Chunk,
  components: ScoreComponents.ScoreComponents,
  score: Schema.Finite,
  /** Notes this candidate's note links to, as note ids: most canonical first, then by id. */
  related: Schema.Array(Schema.String),
  /** 1-based rank in each leg that returned it; diagnostics, not factors. */
  legRanks: Schema.Record(Schema.String, Schema.Int),
  /** Hops from the nearest seed when graph expansion admitted it, with the relation that did. */
  graph: Schema.NullOr(Schema.Struct({ hops: Schema.Int, relation: Schema.String, from: Schema.String }))
})
export type Candidate = typeof Candidate.Type

/** Replace the components and recompute the score, so the identity cannot drift. */
export const withComponents = (
  candidate: Candidate,
  components: ScoreComponents.ScoreComponents
): Candidate => ({ ...candidate, components, score: ScoreComponents.score(components) })

/** A fresh candidate for a chunk found by fusion with the given base. */
export const make = (chunk: Chunk, rrf: number, legRanks: Record<string, number> = {}): Candidate => {
  const components = ScoreComponents.initial(rrf)
  return { chunk, components, score: ScoreComponents.score(components), related: [], legRanks, graph: null }
}
