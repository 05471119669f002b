/**
 * The graphology algorithms cairn calls, imported once. These packages are CommonJS whose type
 * declarations say `export default`; under NodeNext the default import is, at runtime, the function
 * itself while TypeScript sees a namespace holding `default`. The casts live here and nowhere else.
 */
import pagerankCjs from "graphology-metrics/centrality/pagerank.js"
import betweennessCjs from "graphology-metrics/centrality/betweenness.js"
import louvainCjs from "graphology-communities-louvain"
import * as indexedBrandes from "graphology-shortest-path/indexed-brandes.js"

export const pagerank = pagerankCjs as unknown as typeof pagerankCjs.default
export const betweenness = betweennessCjs as unknown as typeof betweennessCjs.default
export const louvain = louvainCjs as unknown as typeof louvainCjs.default
/** One breadth-first Brandes pass per call, over a graph indexed once: the basis of sampled betweenness. */
export const createUnweightedIndexedBrandes = indexedBrandes.createUnweightedIndexedBrandes
