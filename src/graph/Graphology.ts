/**
 * The graphology algorithms cairn calls, imported once. These packages are CommonJS whose type
 * declarations say `export default`; under NodeNext the default import is, at runtime, the function
 * itself while TypeScript sees a namespace holding `default`. The casts live here and nowhere else.
 */
import pagerankCjs from "graphology-metrics/centrality/pagerank.js"
import betweennessCjs from "graphology-metrics/centrality/betweenness.js"
import louvainCjs from "graphology-communities-louvain"
import * as indexedBrandes from "graphology-shortest-path/indexed-brandes.js"
import type { AbstractGraph } from "graphology-types"

export const pagerank = pagerankCjs as unknown as typeof pagerankCjs.default
export const betweenness = betweennessCjs as unknown as typeof betweennessCjs.default
export const louvain = louvainCjs as unknown as typeof louvainCjs.default
/**
 * One breadth-first pass from a source index: the nodes in order of discovery (popped farthest
 * first), each node's predecessors on shortest paths, and each node's count of shortest paths.
 */
export type BrandesPass = (sourceIndex: number) => readonly [
  { pop(): number | undefined },
  ReadonlyArray<ReadonlyArray<number>>,
  Uint32Array
]

/**
 * One breadth-first Brandes pass per call, over a graph indexed once: the basis of sampled betweenness.
 * Typed here because the package's own type names a dependency of its own (mnemonist) that
 * declarations emitted from this module could not name.
 */
export const createUnweightedIndexedBrandes: (graph: AbstractGraph) => BrandesPass = indexedBrandes.createUnweightedIndexedBrandes
