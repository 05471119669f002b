/**
 * The snapshot as a graph an agent can walk and annotate. Three layers, read top-down:
 *
 * - `working`: what the caller wrote through `upsertNode` / `upsertEdge`, kept in process;
 * - `overlay`: extra entities and relations given at construction, in the snapshot's vocabulary
 *   (an approved enrichment, say);
 * - `snapshot`: what discovery observed in the repository.
 *
 * The snapshot and overlay are never changed. A write lands in the working layer and hides the
 * same node or edge below it; `deleteNode` masks the node (and the lower edges touching it) rather
 * than erasing it; `clear()` drops the working layer and every mask. Every node and edge returned
 * names the layer it came from, so an annotation is never mistaken for what the repository said.
 */
import type { Entity, Relation, Snapshot } from "../domain/Snapshot.ts"
import { compareIds } from "./Order.ts"

export type Origin = "snapshot" | "overlay" | "working"

export interface MemoryNode {
  readonly id: string
  /** The entity kind (`module`, `document`, …), or the label a caller wrote. */
  readonly label: string
  /** An entity's fields other than `id` and `kind`, or what a caller wrote. */
  readonly properties: Readonly<Record<string, unknown>>
  readonly origin: Origin
  /** The lower layer holding a node with the same id that this one hides. */
  readonly shadows?: Origin
}

export interface MemoryEdge {
  /** The relation kind (`imports`, `links-to`, an author's verb), or the label a caller wrote. */
  readonly label: string
  readonly from: string
  readonly to: string
  /** A relation's `status`, `confidence` and `evidence`, or what a caller wrote. */
  readonly properties: Readonly<Record<string, unknown>>
  readonly origin: Origin
  readonly shadows?: Origin
}

export interface NodeInput {
  readonly id: string
  readonly label: string
  readonly properties?: Readonly<Record<string, unknown>>
}

export interface EdgeInput {
  readonly label: string
  readonly from: string
  readonly to: string
  readonly properties?: Readonly<Record<string, unknown>>
}

export interface Overlay {
  readonly entities?: ReadonlyArray<Entity>
  readonly relations?: ReadonlyArray<Relation>
}

export interface EdgeQuery {
  readonly label?: string
  readonly from?: string
  readonly to?: string
}

export interface NeighborOptions {
  /** Hops walked; 1 by default. */
  readonly depth?: number
  /** Follow outgoing edges, incoming ones, or both (the default). */
  readonly direction?: "out" | "in" | "both"
  /** Follow only edges with these labels. */
  readonly labels?: ReadonlyArray<string>
}

export interface Neighbor {
  readonly node: MemoryNode
  readonly hops: number
}

export interface GraphMemory {
  getNode(id: string): MemoryNode | undefined
  /** Visible edges matching every field given, sorted by from, label, to. */
  findEdges(query?: EdgeQuery): ReadonlyArray<MemoryEdge>
  /** Nodes within `depth` hops of `id` (itself excluded), nearest first, then by id. */
  neighbors(id: string, options?: NeighborOptions): ReadonlyArray<Neighbor>
  upsertNode(input: NodeInput): MemoryNode
  upsertEdge(input: EdgeInput): MemoryEdge
  /** Hides the node and its edges from every lower layer; erases what the working layer held of it. */
  deleteNode(id: string): void
  /** Drops the working layer and every mask. */
  clear(): void
}

interface StoredNode {
  readonly label: string
  readonly properties: Readonly<Record<string, unknown>>
}

interface StoredEdge {
  readonly label: string
  readonly from: string
  readonly to: string
  readonly properties: Readonly<Record<string, unknown>>
}

interface Layer {
  readonly origin: Origin
  readonly nodes: Map<string, StoredNode>
  readonly edges: Map<string, StoredEdge>
  /** Node id to the keys of the edges leaving it, and of those arriving. */
  readonly outgoing: Map<string, Set<string>>
  readonly incoming: Map<string, Set<string>>
}

// NUL never occurs in an id or a relation kind, so the key is unambiguous.
const edgeKey = (from: string, label: string, to: string): string => `${from}\u0000${label}\u0000${to}`

const emptyLayer = (origin: Origin): Layer => ({ origin, nodes: new Map(), edges: new Map(), outgoing: new Map(), incoming: new Map() })

const index = (map: Map<string, Set<string>>, id: string, key: string) => {
  const keys = map.get(id)
  if (keys === undefined) map.set(id, new Set([key]))
  else keys.add(key)
}

const putEdge = (layer: Layer, edge: StoredEdge) => {
  const key = edgeKey(edge.from, edge.label, edge.to)
  layer.edges.set(key, edge)
  index(layer.outgoing, edge.from, key)
  index(layer.incoming, edge.to, key)
}

const layerOf = (origin: Origin, entities: ReadonlyArray<Entity>, relations: ReadonlyArray<Relation>): Layer => {
  const layer = emptyLayer(origin)
  for (const { id, kind, ...properties } of entities) layer.nodes.set(id, { label: kind, properties })
  for (const { from, kind, to, ...properties } of relations) putEdge(layer, { label: kind, from, to, properties })
  return layer
}

export const graphMemory = (snapshot: Snapshot, overlay: Overlay = {}): GraphMemory => {
  // Top layer first.
  const base = [layerOf("overlay", overlay.entities ?? [], overlay.relations ?? []), layerOf("snapshot", snapshot.entities, snapshot.relations)]
  let working = emptyLayer("working")
  let masked = new Set<string>()

  const lowerNode = (id: string): { layer: Layer; node: StoredNode } | undefined => {
    if (masked.has(id)) return undefined
    for (const layer of base) {
      const node = layer.nodes.get(id)
      if (node !== undefined) return { layer, node }
    }
    return undefined
  }

  const getNode = (id: string): MemoryNode | undefined => {
    const written = working.nodes.get(id)
    const below = lowerNode(id)
    if (written !== undefined) {
      return { id, ...written, origin: "working", ...(below === undefined ? {} : { shadows: below.layer.origin }) }
    }
    if (below === undefined) return undefined
    const under = base.slice(base.indexOf(below.layer) + 1).find((layer) => layer.nodes.has(id))
    return { id, ...below.node, origin: below.layer.origin, ...(under === undefined ? {} : { shadows: under.origin }) }
  }

  const visibleEdge = (key: string): MemoryEdge | undefined => {
    const origins: Array<{ layer: Layer; edge: StoredEdge }> = []
    const written = working.edges.get(key)
    if (written !== undefined) origins.push({ layer: working, edge: written })
    for (const layer of base) {
      const edge = layer.edges.get(key)
      if (edge !== undefined && !masked.has(edge.from) && !masked.has(edge.to)) origins.push({ layer, edge })
    }
    const [top, under] = origins
    if (top === undefined) return undefined
    return { ...top.edge, origin: top.layer.origin, ...(under === undefined ? {} : { shadows: under.layer.origin }) }
  }

  const keysAround = (id: string, direction: "out" | "in"): Set<string> => {
    const keys = new Set<string>()
    for (const layer of [working, ...base]) {
      for (const key of (direction === "out" ? layer.outgoing : layer.incoming).get(id) ?? []) keys.add(key)
    }
    return keys
  }

  const findEdges = (query: EdgeQuery = {}): ReadonlyArray<MemoryEdge> => {
    const keys = query.from !== undefined
      ? keysAround(query.from, "out")
      : query.to !== undefined
      ? keysAround(query.to, "in")
      : new Set([working, ...base].flatMap((layer) => [...layer.edges.keys()]))
    const result: Array<MemoryEdge> = []
    for (const key of keys) {
      const edge = visibleEdge(key)
      if (edge === undefined) continue
      if (query.label !== undefined && edge.label !== query.label) continue
      if (query.from !== undefined && edge.from !== query.from) continue
      if (query.to !== undefined && edge.to !== query.to) continue
      result.push(edge)
    }
    return result.sort((a, b) => compareIds(a.from, b.from) || compareIds(a.label, b.label) || compareIds(a.to, b.to))
  }

  const neighbors = (id: string, options: NeighborOptions = {}): ReadonlyArray<Neighbor> => {
    if (getNode(id) === undefined) return []
    const depth = Math.max(0, Math.floor(options.depth ?? 1))
    const direction = options.direction ?? "both"
    const labels = options.labels === undefined ? undefined : new Set(options.labels)
    const seen = new Set([id])
    const result: Array<Neighbor> = []
    let frontier = [id]
    for (let hops = 1; hops <= depth && frontier.length > 0; hops++) {
      const next: Array<string> = []
      for (const current of frontier.sort(compareIds)) {
        const steps: Array<string> = []
        if (direction !== "in") for (const key of keysAround(current, "out")) steps.push(key)
        if (direction !== "out") for (const key of keysAround(current, "in")) steps.push(key)
        for (const key of steps) {
          const edge = visibleEdge(key)
          if (edge === undefined || (labels !== undefined && !labels.has(edge.label))) continue
          const other = edge.from === current ? edge.to : edge.from
          if (seen.has(other)) continue
          const node = getNode(other)
          // An edge to something that is no node (an unresolved reference) is not walked through.
          if (node === undefined) continue
          seen.add(other)
          result.push({ node, hops })
          next.push(other)
        }
      }
      frontier = next
    }
    return result.sort((a, b) => a.hops - b.hops || compareIds(a.node.id, b.node.id))
  }

  return {
    getNode,
    findEdges,
    neighbors,
    upsertNode: (input) => {
      working.nodes.set(input.id, { label: input.label, properties: { ...input.properties } })
      return getNode(input.id)!
    },
    upsertEdge: (input) => {
      putEdge(working, { label: input.label, from: input.from, to: input.to, properties: { ...input.properties } })
      return visibleEdge(edgeKey(input.from, input.label, input.to))!
    },
    deleteNode: (id) => {
      working.nodes.delete(id)
      for (const key of [...keysAround(id, "out"), ...keysAround(id, "in")]) working.edges.delete(key)
      working.outgoing.delete(id)
      working.incoming.delete(id)
      masked.add(id)
    },
    clear: () => {
      working = emptyLayer("working")
      masked = new Set()
    }
  }
}
