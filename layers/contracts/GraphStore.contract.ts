/**
 * Behaviour every GraphStore backend must show, run against each backend by its own test file. A
 * backend is given as a function from edges to a layer holding exactly those edges; it may record
 * whatever notes it needs for their sources.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import { GraphStore, type NoteEdge } from "../../src/ports/GraphStore.ts"

export type MakeGraphLayer<E> = (edges: ReadonlyArray<NoteEdge>) => Layer.Layer<GraphStore, E>

const edge = (from: string, to: string, verb: string): NoteEdge => ({ from, to, verb })

// Upper case sorts before lower case by code unit, so a locale sort would put these elsewhere.
const EDGES: ReadonlyArray<NoteEdge> = [
  edge("b.md", "a.md", "links-to"),
  edge("a.md", "b.md", "depends_on"),
  edge("a.md", "b.md", "implements"),
  edge("a.md", "Z.md", "links-to"),
  edge("c.md", "a.md", "mentions"),
  edge("c.md", "c.md", "links-to"),
  edge("c.md", "gone.md", "links-to"),
  edge("d.md", "e.md", "imports")
]

export const contract = <E>(name: string, makeLayer: MakeGraphLayer<E>) => {
  const edgesOf = (edges: ReadonlyArray<NoteEdge>, notes: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const graph = yield* GraphStore
      return yield* graph.edgesOf(notes)
    }).pipe(Effect.provide(makeLayer(edges)))

  describe(`GraphStore contract (${name})`, () => {
    it.effect("edgesOf - outbound and inbound edges, sorted by from, then to, then verb, in code-unit order", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* edgesOf(EDGES, ["a.md"]), [
          edge("a.md", "Z.md", "links-to"),
          edge("a.md", "b.md", "depends_on"),
          edge("a.md", "b.md", "implements"),
          edge("b.md", "a.md", "links-to"),
          edge("c.md", "a.md", "mentions")
        ])
      }))

    it.effect("edgesOf - an edge is listed once, when both its ends are asked, a note is asked twice, or it loops", () =>
      Effect.gen(function*() {
        const both = yield* edgesOf(EDGES, ["b.md", "a.md", "b.md"])
        assert.strictEqual(both.length, 5)
        assert.deepStrictEqual(yield* edgesOf(EDGES, ["c.md"]), [
          edge("c.md", "a.md", "mentions"),
          edge("c.md", "c.md", "links-to"),
          edge("c.md", "gone.md", "links-to")
        ])
      }))

    it.effect("edgesOf - an edge to a note the store does not hold is kept, and found from that note", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* edgesOf(EDGES, ["gone.md"]), [edge("c.md", "gone.md", "links-to")])
        assert.deepStrictEqual(yield* edgesOf(EDGES, ["Z.md"]), [edge("a.md", "Z.md", "links-to")])
      }))

    it.effect("edgesOf - no notes, an unknown note, or an empty store give no edges", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* edgesOf(EDGES, []), [])
        assert.deepStrictEqual(yield* edgesOf(EDGES, ["nowhere.md"]), [])
        assert.deepStrictEqual(yield* edgesOf([], ["a.md"]), [])
      }))

    it.effect("edgesOf - the same edges, byte for byte, whatever order they were stored or asked in", () =>
      Effect.gen(function*() {
        const notes = ["e.md", "a.md", "c.md"]
        const forward = yield* edgesOf(EDGES, notes)
        const backward = yield* edgesOf([...EDGES].reverse(), [...notes].reverse())
        assert.strictEqual(JSON.stringify(backward), JSON.stringify(forward))
        assert.strictEqual(forward.length, 8)
      }))
  })
}
