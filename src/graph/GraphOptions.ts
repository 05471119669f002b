/**
 * The tunables of the graph signals, with their defaults. Every randomised step draws from `seed`,
 * so a signal is a function of the snapshot and these options alone.
 */

export interface GraphOptions {
  /** Seed of the generator behind Louvain and betweenness sampling. */
  readonly seed: number
  /** Graphs with at most this many nodes get exact betweenness; larger ones a sampled estimate. */
  readonly exactBetweennessMaxNodes: number
  /** Source nodes (pivots) the estimate runs Brandes from. */
  readonly betweennessSamples: number
  /** Hops beyond which two entities count as unrelated. */
  readonly proximityMaxHops: number
  /** Import cycles reported at most; finding one more marks the report as truncated. */
  readonly maxCycles: number
  /** Modules a community needs before it is worth suggesting as an area. */
  readonly minSuggestionModules: number
  /** Louvain resolution: above 1 favours smaller communities. */
  readonly louvainResolution: number
  /** PageRank damping factor. */
  readonly pageRankAlpha: number
  /** Keep `external:` endpoints (third-party packages) as nodes. */
  readonly includeExternal: boolean
  /** Keep `unresolved:` endpoints (references that named nothing) as nodes. */
  readonly includeUnresolved: boolean
}

export const defaults: GraphOptions = {
  seed: 42,
  exactBetweennessMaxNodes: 2_000,
  betweennessSamples: 512,
  proximityMaxHops: 3,
  maxCycles: 100,
  minSuggestionModules: 3,
  louvainResolution: 1,
  pageRankAlpha: 0.85,
  includeExternal: false,
  includeUnresolved: false
}

export const withDefaults = (options: Partial<GraphOptions> = {}): GraphOptions => ({ ...defaults, ...options })
