/**
 * Centrality: how much of the dependency structure runs through a module, as normalised betweenness
 * over `imports` and `re-exports`. A review signal (a change here reaches further than its diff),
 * not a statement about runtime availability, which a static import graph cannot make.
 *
 * Exact betweenness is one Brandes pass per node, quadratic on sparse graphs; above a size threshold
 * the passes run from a seeded sample of k source nodes and are scaled by n / k (Brandes and Pich's
 * unbiased estimator), and the result says that it is an estimate and from how many sources.
 */
import { Effect, Random } from "effect"
import type { Snapshot } from "../domain/Snapshot.ts"
import type { SignalGraph } from "./Build.ts"
import { importGraph } from "./Build.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"
import { betweenness, createUnweightedIndexedBrandes } from "./Graphology.ts"
import { byScoreThenId, round } from "./Order.ts"

export interface CentralityScore {
  readonly id: string
  /** Normalised betweenness, rounded: the share of ordered pairs whose shortest paths pass through. */
  readonly score: number
}

export interface Centrality {
  /** `exact`, or `estimate` when sampled. */
  readonly method: "exact" | "estimate"
  /** Nodes of the import graph. */
  readonly nodes: number
  /** Brandes passes run: every node when exact, the sample size when estimated. */
  readonly sources: number
  /** Every node, most central first (ties by id). */
  readonly scores: ReadonlyArray<CentralityScore>
}

export type CentralityOptions = Partial<
  Pick<GraphOptions, "seed" | "exactBetweennessMaxNodes" | "betweennessSamples" | "includeExternal" | "includeUnresolved">
>

/**
 * Unnormalised betweenness summed over Brandes passes from the given source indices (positions in
 * `graph.nodes()`). From every node it is exact betweenness; from a sample, multiply by n / k.
 */
export const brandesFrom = (graph: SignalGraph, sources: ReadonlyArray<number>): Float64Array => {
  const brandes = createUnweightedIndexedBrandes(graph)
  const total = new Float64Array(graph.order)
  const delta = new Float64Array(graph.order)
  for (const source of sources) {
    const [stack, predecessors, sigma] = brandes(source)
    delta.fill(0)
    // The stack pops nodes in order of decreasing distance, so each node's dependency is complete
    // before it is handed to its predecessors.
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      const coefficient = (1 + delta[w]!) / sigma[w]!
      for (const v of predecessors[w]!) delta[v]! += sigma[v]! * coefficient
      if (w !== source) total[w]! += delta[w]!
    }
  }
  return total
}

const normalise = (graph: SignalGraph, raw: (index: number, id: string) => number): ReadonlyArray<CentralityScore> => {
  const n = graph.order
  // Directed normalisation: the number of ordered pairs a node could lie between.
  const scale = n <= 2 ? 0 : 1 / ((n - 1) * (n - 2))
  return graph.nodes().map((id, index) => ({ id, score: round(raw(index, id) * scale) })).sort(byScoreThenId)
}

/** Normalised betweenness over an import graph, exact on small graphs and a seeded estimate on large ones. */
export const centralityOf = Effect.fn("graph.centralityOf")(function*(
  graph: SignalGraph,
  options: Partial<Pick<GraphOptions, "seed" | "exactBetweennessMaxNodes" | "betweennessSamples">> = {}
) {
  const resolved = withDefaults(options)
  const n = graph.order
  if (n <= resolved.exactBetweennessMaxNodes || resolved.betweennessSamples >= n) {
    const exact = betweenness(graph, { getEdgeWeight: null, normalized: false })
    return { method: "exact", nodes: n, sources: n, scores: normalise(graph, (_, id) => exact[id] ?? 0) } satisfies Centrality
  }
  const k = Math.max(1, Math.floor(resolved.betweennessSamples))
  const shuffled = yield* Random.shuffle(graph.nodes().map((_, index) => index)).pipe(Random.withSeed(resolved.seed))
  // Accumulate in index order so the floating-point sums do not depend on the draw order.
  const sources = shuffled.slice(0, k).sort((a, b) => a - b)
  const raw = brandesFrom(graph, sources)
  return { method: "estimate", nodes: n, sources: k, scores: normalise(graph, (index) => (raw[index]! * n) / k) } satisfies Centrality
})

/** Normalised betweenness of every module of the snapshot. */
export const centrality = (snapshot: Snapshot, options: CentralityOptions = {}) =>
  centralityOf(importGraph(snapshot, withDefaults(options)), options)
