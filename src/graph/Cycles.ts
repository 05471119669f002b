/**
 * Import cycles: every loop through `imports` and `re-exports`, with every edge that forms it and
 * the lines that write each edge, so a reader can trace the loop rather than take it on trust. A
 * cycle is listed from its lexicographically smallest module, so the same loop reached from two
 * entry points is one finding. The count is bounded, and a report that hit the bound says so.
 */
import type { Snapshot } from "../domain/Snapshot.ts"
import type { SignalGraph } from "./Build.ts"
import { importGraph, IMPORT_KINDS, kindsOf } from "./Build.ts"
import { elementaryCycles } from "./ElementaryCycles.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"
import { compareIds } from "./Order.ts"

export interface CycleEdge {
  readonly from: string
  readonly to: string
  /** `imports`, `re-exports` or both. */
  readonly kinds: ReadonlyArray<string>
  /** Lines of `from`'s file that write the edge, ascending. */
  readonly lines: ReadonlyArray<number>
}

export interface ImportCycle {
  /** The ids around the loop, smallest first; the last imports the first. */
  readonly nodes: ReadonlyArray<string>
  /** One edge per step, the closing edge last. */
  readonly edges: ReadonlyArray<CycleEdge>
}

export interface ImportCycles {
  /** Shortest first, then by their node sequences. */
  readonly cycles: ReadonlyArray<ImportCycle>
  /** The most cycles reported. */
  readonly bound: number
  /** True when there are more cycles than the bound. */
  readonly truncated: boolean
}

const compareSequences = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareIds(a[i]!, b[i]!)
    if (order !== 0) return order
  }
  return a.length - b.length
}

/** The cycles of an import graph; the snapshot supplies the lines that write each edge. */
export const cyclesOf = (graph: SignalGraph, snapshot: Snapshot, maxCycles: number): ImportCycles => {
  // Nodes were inserted in code-unit order, so index order is id order and Johnson's lowest vertex
  // is the lexicographically smallest module of its cycle.
  const ids = graph.nodes()
  const position = new Map(ids.map((id, index) => [id, index]))
  const adjacency = ids.map((id) => graph.outNeighbors(id).map((neighbour) => position.get(neighbour)!).sort((a, b) => a - b))
  const bound = Math.max(0, Math.floor(maxCycles))
  const search = elementaryCycles(adjacency, bound)
  if (search.cycles.length === 0) return { cycles: [], bound, truncated: search.truncated }

  const isCycleKind = kindsOf(...IMPORT_KINDS)
  const lines = new Map<string, Set<number>>()
  for (const relation of snapshot.relations) {
    if (!isCycleKind(relation.kind)) continue
    const key = `${relation.from}\u0000${relation.to}`
    const set = lines.get(key) ?? new Set()
    for (const evidence of relation.evidence) if (evidence.line !== undefined) set.add(evidence.line)
    lines.set(key, set)
  }
  const edge = (from: string, to: string): CycleEdge => ({
    from,
    to,
    kinds: graph.getEdgeAttribute(from, to, "kinds"),
    lines: [...(lines.get(`${from}\u0000${to}`) ?? [])].sort((a, b) => a - b)
  })
  const cycles = search.cycles
    .map((cycle) => {
      const nodes = cycle.map((index) => ids[index]!)
      return { nodes, edges: nodes.map((from, i) => edge(from, nodes[(i + 1) % nodes.length]!)) }
    })
    .sort((a, b) => a.nodes.length - b.nodes.length || compareSequences(a.nodes, b.nodes))
  return { cycles, bound, truncated: search.truncated }
}

export const importCycles = (
  snapshot: Snapshot,
  options: Partial<Pick<GraphOptions, "maxCycles" | "includeExternal" | "includeUnresolved">> = {}
): ImportCycles => {
  const resolved = withDefaults(options)
  return cyclesOf(importGraph(snapshot, resolved), snapshot, resolved.maxCycles)
}
