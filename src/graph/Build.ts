/**
 * Graphology graphs projected from a snapshot: which relation kinds become edges, which entities
 * become nodes. Nodes and edges are inserted in code-unit order, so the graph (and every algorithm
 * iterating it) is the same whatever order the snapshot listed its facts in. The graph is a working
 * structure for one computation; nothing here is written back into a snapshot.
 */
import { DirectedGraph, UndirectedGraph } from "graphology"
import type { EntityKind, Snapshot } from "../domain/Snapshot.ts"
import { compareIds } from "./Order.ts"

export interface NodeAttributes {
  /** The entity kind, or `unresolved` for a reference that named nothing. */
  readonly kind: EntityKind | "unresolved"
  /** Repository path of a file-backed entity or area, when it has one. */
  readonly path: string | undefined
}

export interface EdgeAttributes {
  /** The relation kinds merged into this edge, sorted. */
  readonly kinds: ReadonlyArray<string>
  /** How many relations the edge stands for. */
  readonly weight: number
}

export interface GraphSpec {
  /** The relation kinds that become edges. */
  readonly kinds: (kind: string) => boolean
  /** Kinds whose edges point back, from `to` to `from` (PageRank lets a covered entity vote for its page). */
  readonly reversed?: ReadonlyArray<string>
  /** Entities of these kinds are nodes even without an edge. */
  readonly nodeKinds?: ReadonlyArray<EntityKind>
  readonly includeExternal?: boolean
  readonly includeUnresolved?: boolean
  /** Keep an edge from a node to itself (a module importing itself is a cycle). */
  readonly selfLoops?: boolean
}

export type SignalGraph = DirectedGraph<NodeAttributes, EdgeAttributes>
export type SignalUndirectedGraph = UndirectedGraph<NodeAttributes, EdgeAttributes>

/** The structural edges between modules: what centrality, cycles and communities are computed over. */
export const IMPORT_KINDS: ReadonlyArray<string> = ["imports", "re-exports"]

/** Kinds as a predicate. */
export const kindsOf = (...kinds: ReadonlyArray<string>): ((kind: string) => boolean) => {
  const set = new Set(kinds)
  return (kind) => set.has(kind)
}

interface Projection {
  readonly nodes: ReadonlyArray<readonly [string, NodeAttributes]>
  /** `[source, target, kinds, weight]`, sorted by source then target. */
  readonly edges: ReadonlyArray<readonly [string, string, ReadonlyArray<string>, number]>
}

const project = (snapshot: Snapshot, spec: GraphSpec, undirected: boolean): Projection => {
  const entities = new Map(snapshot.entities.map((entity) => [entity.id, entity]))
  const attributes = (id: string): NodeAttributes | undefined => {
    const entity = entities.get(id)
    if (entity === undefined) {
      return id.startsWith("unresolved:") && spec.includeUnresolved === true ? { kind: "unresolved", path: undefined } : undefined
    }
    if (entity.kind === "external" && spec.includeExternal !== true) return undefined
    return { kind: entity.kind, path: "path" in entity ? entity.path : undefined }
  }
  const nodes = new Map<string, NodeAttributes>()
  const nodeKinds = new Set(spec.nodeKinds ?? [])
  for (const entity of snapshot.entities) {
    if (nodeKinds.has(entity.kind)) nodes.set(entity.id, attributes(entity.id) ?? { kind: entity.kind, path: undefined })
  }
  const reversed = new Set(spec.reversed ?? [])
  const edges = new Map<string, { source: string; target: string; kinds: Set<string>; weight: number }>()
  for (const relation of snapshot.relations) {
    if (!spec.kinds(relation.kind)) continue
    const fromAttributes = attributes(relation.from)
    const toAttributes = attributes(relation.to)
    if (fromAttributes === undefined || toAttributes === undefined) continue
    if (relation.from === relation.to && spec.selfLoops !== true) continue
    let [source, target] = reversed.has(relation.kind) ? [relation.to, relation.from] : [relation.from, relation.to]
    if (undirected && compareIds(target, source) < 0) [source, target] = [target, source]
    nodes.set(relation.from, fromAttributes)
    nodes.set(relation.to, toAttributes)
    // NUL never occurs in an id, so the pair key is unambiguous.
    const key = `${source}\u0000${target}`
    const edge = edges.get(key)
    if (edge === undefined) edges.set(key, { source, target, kinds: new Set([relation.kind]), weight: 1 })
    else {
      edge.kinds.add(relation.kind)
      edge.weight += 1
    }
  }
  return {
    nodes: [...nodes].sort((a, b) => compareIds(a[0], b[0])),
    edges: [...edges.values()]
      .sort((a, b) => compareIds(a.source, b.source) || compareIds(a.target, b.target))
      .map((edge) => [edge.source, edge.target, [...edge.kinds].sort(compareIds), edge.weight] as const)
  }
}

/** A directed graph: one edge per ordered pair, whatever number of relations it stands for. */
export const directedGraph = (snapshot: Snapshot, spec: GraphSpec): SignalGraph => {
  const { edges, nodes } = project(snapshot, spec, false)
  const graph = new DirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: spec.selfLoops === true })
  for (const [id, attributes] of nodes) graph.addNode(id, attributes)
  for (const [source, target, kinds, weight] of edges) {
    graph.addDirectedEdgeWithKey(`${source}\u0000${target}`, source, target, { kinds, weight })
  }
  return graph
}

/** An undirected graph: relations either way between two nodes merge into one edge, weighted by their count. */
export const undirectedGraph = (snapshot: Snapshot, spec: GraphSpec): SignalUndirectedGraph => {
  const { edges, nodes } = project(snapshot, spec, true)
  const graph = new UndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: spec.selfLoops === true })
  for (const [id, attributes] of nodes) graph.addNode(id, attributes)
  for (const [source, target, kinds, weight] of edges) {
    graph.addUndirectedEdgeWithKey(`${source}\u0000${target}`, source, target, { kinds, weight })
  }
  return graph
}
