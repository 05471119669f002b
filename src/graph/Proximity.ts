/**
 * Proximity: how many hops apart two entities are, up to a bound (three by default), walking
 * relations in either direction. Past the bound everything is related to everything, so a farther
 * pair is simply "not near". `contains` is left out on purpose: it is hierarchy, and through it
 * every module of an area sits two hops from every other one, which is true and says nothing.
 */
import type { Snapshot } from "../domain/Snapshot.ts"
import type { SignalUndirectedGraph } from "./Build.ts"
import { undirectedGraph } from "./Build.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"
import { compareIds } from "./Order.ts"

/**
 * Every relation kind but `contains`: the import family (`imports`, `imports-type`, `re-exports`,
 * `imports-dynamic`, `requires`), `depends-on`, and the documentation relations (`links-to`,
 * `mentions`, `mentions-symbol`, `covers` and the verbs authors write).
 */
export const isProximityKind = (kind: string): boolean => kind !== "contains"

export interface Near {
  readonly id: string
  readonly hops: number
}

export interface Route {
  readonly hops: number
  /** The entities walked, both ends included; the first route a breadth-first walk in id order finds. */
  readonly path: ReadonlyArray<string>
}

export interface Proximity {
  readonly maxHops: number
  /** The shortest route between two entities, or undefined when none is within the bound. */
  readonly between: (from: string, to: string) => Route | undefined
  /** Every entity within the bound of `id`, nearest first, then by id; `id` itself excluded. */
  readonly around: (id: string) => ReadonlyArray<Near>
}

/** A bounded breadth-first walk; `stop` ends it early once its target is reached. */
const walk = (graph: SignalUndirectedGraph, from: string, maxHops: number, stop?: string): Map<string, string | null> => {
  const parent = new Map<string, string | null>([[from, null]])
  if (!graph.hasNode(from)) return parent
  let frontier = [from]
  for (let hops = 0; hops < maxHops && frontier.length > 0; hops++) {
    const next: Array<string> = []
    for (const node of frontier) {
      // Neighbours come back in edge insertion order, which the builder made code-unit order.
      for (const neighbour of graph.neighbors(node)) {
        if (parent.has(neighbour)) continue
        parent.set(neighbour, node)
        if (neighbour === stop) return parent
        next.push(neighbour)
      }
    }
    frontier = next
  }
  return parent
}

export const proximity = (
  snapshot: Snapshot,
  options: Partial<Pick<GraphOptions, "proximityMaxHops" | "includeExternal" | "includeUnresolved">> = {}
): Proximity => {
  const { includeExternal, includeUnresolved, proximityMaxHops } = withDefaults(options)
  const maxHops = Math.max(0, Math.floor(proximityMaxHops))
  const graph = undirectedGraph(snapshot, { kinds: isProximityKind, includeExternal, includeUnresolved })
  return {
    maxHops,
    between: (from, to) => {
      if (from === to) return { hops: 0, path: [from] }
      const parent = walk(graph, from, maxHops, to)
      if (!parent.has(to)) return undefined
      const path: Array<string> = []
      for (let node: string | null | undefined = to; node !== null && node !== undefined; node = parent.get(node)) path.push(node)
      path.reverse()
      return { hops: path.length - 1, path }
    },
    around: (id) => {
      const parent = walk(graph, id, maxHops)
      const hops = new Map<string, number>([[id, 0]])
      const result: Array<Near> = []
      // Parents are recorded in breadth-first order, so a node's parent is always measured first.
      for (const [node, from] of parent) {
        if (from === null) continue
        const distance = hops.get(from)! + 1
        hops.set(node, distance)
        result.push({ id: node, hops: distance })
      }
      return result.sort((a, b) => a.hops - b.hops || compareIds(a.id, b.id))
    }
  }
}
