/** Reference GraphStore: note edges in memory, indexed by both endpoints. */
import { Effect, Layer } from "effect"
import { compareIds } from "../../src/domain/Ranking.ts"
import { GraphStore, type NoteEdge } from "../../src/ports/GraphStore.ts"

const byEdge = (a: NoteEdge, b: NoteEdge): number =>
  compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)

export const make = (edges: ReadonlyArray<NoteEdge>): GraphStore["Service"] => {
  const touching = new Map<string, Array<NoteEdge>>()
  for (const edge of edges) {
    for (const note of new Set([edge.from, edge.to])) {
      let list = touching.get(note)
      if (list === undefined) touching.set(note, (list = []))
      list.push(edge)
    }
  }
  return GraphStore.of({
    edgesOf: (notes) =>
      Effect.sync(() => {
        const seen = new Set<NoteEdge>()
        for (const note of notes) for (const edge of touching.get(note) ?? []) seen.add(edge)
        return [...seen].sort(byEdge)
      })
  })
}

export const layer = (edges: ReadonlyArray<NoteEdge>): Layer.Layer<GraphStore> => Layer.sync(GraphStore, () => make(edges))
