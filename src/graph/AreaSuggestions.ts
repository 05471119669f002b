/**
 * Area suggestions: Louvain communities over `imports` and `re-exports` (modules that move together,
 * so perhaps one unit), named by the deepest directory holding all of a community's modules. A
 * suggestion is a hypothesis, so it travels as a coverage entry (`analyzer: graph`, status
 * `not-analyzed`: the clustering ran, whether the cluster is an area nobody has decided) and never
 * becomes an area. A directory that already is an area, or the root, produces none.
 */
import { Effect, Random } from "effect"
import type { Coverage, Snapshot } from "../domain/Snapshot.ts"
import { dirname } from "../source/Paths.ts"
import type { SignalUndirectedGraph } from "./Build.ts"
import { importGraph, undirectedOf } from "./Build.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"
import { louvain } from "./Graphology.ts"
import { compareIds } from "./Order.ts"

export const SUGGESTION_ANALYZER = "graph"
export const SUGGESTION_SCOPE_PREFIX = "area-suggestion:"

/** The deepest directory holding every path; `""` when they share none. */
export const commonDirectory = (paths: ReadonlyArray<string>): string => {
  let common: Array<string> | undefined
  for (const path of paths) {
    const segments = dirname(path).split("/").filter((segment) => segment !== "")
    if (common === undefined) common = segments
    else {
      let i = 0
      while (i < common.length && i < segments.length && common[i] === segments[i]) i++
      common = common.slice(0, i)
    }
  }
  return (common ?? []).join("/")
}

interface Tally {
  communities: number
  modules: number
  /** Relations with both ends in one of the communities. */
  inside: number
  /** Relations with one end in a community and the other outside it. */
  crossing: number
}

const reason = (directory: string, tally: Tally): string =>
  `${tally.communities === 1 ? "a Louvain community" : `${tally.communities} Louvain communities`} of ` +
  `${tally.modules} modules under ${directory} (${tally.inside} import relations among them, ${tally.crossing} crossing out); ` +
  "a suggestion, not an area"

export type SuggestionOptions = Partial<
  Pick<GraphOptions, "seed" | "louvainResolution" | "minSuggestionModules" | "includeExternal" | "includeUnresolved">
>

/** Suggestions from the undirected import graph; the snapshot says which directories are areas already. */
export const suggestionsOf = Effect.fn("graph.suggestionsOf")(function*(
  graph: SignalUndirectedGraph,
  snapshot: Snapshot,
  options: Partial<Pick<GraphOptions, "seed" | "louvainResolution" | "minSuggestionModules">> = {}
) {
  const resolved = withDefaults(options)
  if (graph.size === 0) return [] as ReadonlyArray<Coverage>
  const community = yield* Effect.gen(function*() {
    const random = yield* Random.Random
    return louvain(graph, { getEdgeWeight: "weight", resolution: resolved.louvainResolution, rng: () => random.nextDoubleUnsafe() })
  }).pipe(Random.withSeed(resolved.seed))

  const members = new Map<number, Array<string>>()
  for (const id of graph.nodes()) {
    const label = community[id]!
    const list = members.get(label)
    if (list === undefined) members.set(label, [id])
    else list.push(id)
  }
  const areas = new Set(snapshot.entities.flatMap((entity) => (entity.kind === "area" ? [entity.path] : [])))
  const tallies = new Map<string, Tally>()
  for (const ids of members.values()) {
    const paths = ids.flatMap((id) => {
      const attributes = graph.getNodeAttributes(id)
      return attributes.kind === "module" && attributes.path !== undefined ? [attributes.path] : []
    })
    if (paths.length < resolved.minSuggestionModules) continue
    const directory = commonDirectory(paths)
    if (directory === "" || areas.has(directory)) continue
    const own = new Set(ids)
    let inside = 0
    let crossing = 0
    for (const id of ids) {
      graph.forEachEdge(id, (_, attributes, source, target) => {
        const other = source === id ? target : source
        // An inside edge is met once from each end; count it from the smaller one.
        if (!own.has(other)) crossing += attributes.weight
        else if (compareIds(id, other) < 0) inside += attributes.weight
      })
    }
    const tally = tallies.get(directory) ?? { communities: 0, modules: 0, inside: 0, crossing: 0 }
    tally.communities += 1
    tally.modules += paths.length
    tally.inside += inside
    tally.crossing += crossing
    tallies.set(directory, tally)
  }
  return [...tallies]
    .sort((a, b) => compareIds(a[0], b[0]))
    .map(([directory, tally]): Coverage => ({
      analyzer: SUGGESTION_ANALYZER,
      scope: `${SUGGESTION_SCOPE_PREFIX}${directory}`,
      status: "not-analyzed",
      reason: reason(directory, tally)
    }))
})

/** The snapshot's area suggestions as coverage entries, sorted by scope. */
export const areaSuggestions = (snapshot: Snapshot, options: SuggestionOptions = {}) =>
  suggestionsOf(undirectedOf(importGraph(snapshot, withDefaults(options))), snapshot, options)
