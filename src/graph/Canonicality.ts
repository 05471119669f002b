/**
 * Canonicality: where a reader should start. PageRank over `links-to` (a document pointing at
 * another) and `covers` read backwards (a covered entity pointing at the page that covers it), so a
 * page many documents link to, or that covers many entities, outranks a leaf nothing points at.
 */
import type { Snapshot } from "../domain/Snapshot.ts"
import { directedGraph, kindsOf } from "./Build.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"
import { pagerank } from "./Graphology.ts"
import { byScoreThenId, round } from "./Order.ts"

export interface CanonicalDocument {
  readonly id: string
  /** Repository path of the document. */
  readonly path: string
  /** PageRank divided by the highest document's, rounded: in [0, 1], the top document scores 1. */
  readonly score: number
}

// Damping bounds the error shrink per iteration at alpha, so a thousand iterations always converge;
// the tight tolerance keeps the sixth significant digit honest on graphs of ten thousand nodes.
const MAX_ITERATIONS = 1_000
const TOLERANCE = 1e-12

/** Every document with its canonicality, most canonical first (ties by id). */
export const canonicalityRanking = (
  snapshot: Snapshot,
  options: Partial<Pick<GraphOptions, "pageRankAlpha" | "includeExternal" | "includeUnresolved">> = {}
): ReadonlyArray<CanonicalDocument> => {
  const { includeExternal, includeUnresolved, pageRankAlpha } = withDefaults(options)
  const graph = directedGraph(snapshot, {
    kinds: kindsOf("links-to", "covers"),
    reversed: ["covers"],
    nodeKinds: ["document"],
    includeExternal,
    includeUnresolved
  })
  if (graph.order === 0) return []
  const ranks = pagerank(graph, { getEdgeWeight: null, alpha: pageRankAlpha, maxIterations: MAX_ITERATIONS, tolerance: TOLERANCE })
  const documents: Array<{ id: string; path: string; rank: number }> = []
  graph.forEachNode((id, attributes) => {
    if (attributes.kind === "document" && attributes.path !== undefined) documents.push({ id, path: attributes.path, rank: ranks[id] ?? 0 })
  })
  const top = documents.reduce((max, document) => Math.max(max, document.rank), 0)
  return documents
    .map((document) => ({ id: document.id, path: document.path, score: top > 0 ? round(document.rank / top) : 0 }))
    .sort(byScoreThenId)
}

/** Document path to canonicality in [0, 1] (the most canonical document scores 1). */
export const canonicality = (snapshot: Snapshot): ReadonlyMap<string, number> =>
  new Map(canonicalityRanking(snapshot).map((document) => [document.path, document.score]))
