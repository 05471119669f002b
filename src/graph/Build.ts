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

interface ProjectedEdge {
  readonly target: string
  readonly kinds: Array<string>
  weight: number
}

interface Projection {
  /** Sorted by id. */
  readonly nodes: ReadonlyArray<readonly [string, NodeAttributes]>
  /** Source to target to edge; sorted when inserted. */
  readonly edges: Map<string, Map<string, ProjectedEdge>>
}

const project = (snapshot: Snapshot, spec: GraphSpec, undirected: boolean): Projection => {
  // One attributes object per id, computed once: a snapshot names the same ids many times.
  const known = new Map<string, NodeAttributes | null>()
  for (const entity of snapshot.entities) {
    const excluded = entity.kind === "external" && spec.includeExternal !== true
    known.set(entity.id, excluded ? null : { kind: entity.kind, path: "path" in entity ? entity.path : undefined })
  }
  const unresolved: NodeAttributes = { kind: "unresolved", path: undefined }
  const attributes = (id: string): NodeAttributes | null => {
    const found = known.get(id)
    if (found !== undefined) return found
    return spec.includeUnresolved === true && id.startsWith("unresolved:") ? unresolved : null
  }
  const nodes = new Map<string, NodeAttributes>()
  const nodeKinds = new Set(spec.nodeKinds ?? [])
  for (const entity of snapshot.entities) {
    if (nodeKinds.has(entity.kind)) nodes.set(entity.id, known.get(entity.id) ?? { kind: entity.kind, path: undefined })
  }
  const reversed = new Set(spec.reversed ?? [])
  const edges = new Map<string, Map<string, ProjectedEdge>>()
  for (const relation of snapshot.relations) {
    if (!spec.kinds(relation.kind)) continue
    const fromAttributes = attributes(relation.from)
    const toAttributes = attributes(relation.to)
    if (fromAttributes === null || toAttributes === null) continue
    if (relation.from === relation.to && spec.selfLoops !== true) continue
    // Undirected edges are keyed by their smaller end; direction, reversed or not, is dropped.
    const back = undirected ? compareIds(relation.to, relation.from) < 0 : reversed.has(relation.kind)
    const source = back ? relation.to : relation.from
    const target = back ? relation.from : relation.to
    nodes.set(relation.from, fromAttributes)
    nodes.set(relation.to, toAttributes)
    let out = edges.get(source)
    if (out === undefined) edges.set(source, out = new Map())
    const edge = out.get(target)
    if (edge === undefined) out.set(target, { target, kinds: [relation.kind], weight: 1 })
    else {
      if (!edge.kinds.includes(relation.kind)) edge.kinds.push(relation.kind)
      edge.weight += 1
    }
  }
  return { nodes: [...nodes].sort((a, b) => compareIds(a[0], b[0])), edges }
}

/** Every projected edge, by source then target, kinds sorted. */
const sortedEdges = function*(projection: Projection): Generator<readonly [string, string, EdgeAttributes]> {
  for (const [source] of projection.nodes) {
    const out = projection.edges.get(source)
    if (out === undefined) continue
    for (const edge of [...out.values()].sort((a, b) => compareIds(a.target, b.target))) {
      yield [source, edge.target, { kinds: edge.kinds.sort(compareIds), weight: edge.weight }]
    }
  }
}

/** A directed graph: one edge per ordered pair, whatever number of relations it stands for. */
export const directedGraph = (snapshot: Snapshot, spec: GraphSpec): SignalGraph => {
  const projection = project(snapshot, spec, false)
  const graph = new DirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: spec.selfLoops === true })
  for (const [id, attributes] of projection.nodes) graph.addNode(id, attributes)
  for (const [source, target, attributes] of sortedEdges(projection)) graph.addDirectedEdge(source, target, attributes)
  return graph
}

/** An undirected graph: relations either way between two nodes merge into one edge, weighted by their count. */
export const undirectedGraph = (snapshot: Snapshot, spec: GraphSpec): SignalUndirectedGraph => {
  const projection = project(snapshot, spec, true)
  const graph = new UndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: spec.selfLoops === true })
  for (const [id, attributes] of projection.nodes) graph.addNode(id, attributes)
  for (const [source, target, attributes] of sortedEdges(projection)) graph.addUndirectedEdge(source, target, attributes)
  return graph
}

/**
 * The undirected view of a directed graph, self-loops dropped: both directions between two nodes
 * merge into one edge, weights summed.
 */
export const undirectedOf = (directed: SignalGraph): SignalUndirectedGraph => {
  const graph = new UndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: false })
  directed.forEachNode((id, attributes) => graph.addNode(id, attributes))
  const merged = new Map<string, Map<string, ProjectedEdge>>()
  directed.forEachEdge((_, attributes, source, target) => {
    if (source === target) return
    const [low, high] = compareIds(target, source) < 0 ? [target, source] : [source, target]
    let out = merged.get(low)
    if (out === undefined) merged.set(low, out = new Map())
    const edge = out.get(high)
    if (edge === undefined) out.set(high, { target: high, kinds: [...attributes.kinds], weight: attributes.weight })
    else {
      for (const kind of attributes.kinds) if (!edge.kinds.includes(kind)) edge.kinds.push(kind)
      edge.weight += attributes.weight
    }
  })
  for (const [source, target, attributes] of sortedEdges({ nodes: directed.mapNodes((id, attributes) => [id, attributes] as const), edges: merged })) {
    graph.addUndirectedEdge(source, target, attributes)
  }
  return graph
}

/**
 * The import graph centrality, cycles and communities share: every module (isolated ones too, as
 * they count among the pairs betweenness normalises by), imports and re-exports between entities,
 * a module importing itself kept as the cycle it is.
 */
export const importGraph = (snapshot: Snapshot, options: { readonly includeExternal: boolean; readonly includeUnresolved: boolean }): SignalGraph =>
  directedGraph(snapshot, {
    kinds: kindsOf(...IMPORT_KINDS),
    nodeKinds: ["module"],
    includeExternal: options.includeExternal,
    includeUnresolved: options.includeUnresolved,
    selfLoops: true
  })
