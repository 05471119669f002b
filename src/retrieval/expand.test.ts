import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"
import * as CandidateStoreMemory from "../../layers/reference/CandidateStoreMemory.ts"
import * as GraphStoreMemory from "../../layers/reference/GraphStoreMemory.ts"
import * as NoteSignalsMemory from "../../layers/reference/NoteSignalsMemory.ts"
import { GraphStore, type NoteEdge as Edge } from "../ports/GraphStore.ts"
import { NoteSignals, NoteSignalsError } from "../ports/NoteSignals.ts"
import { candidate, chunk } from "../../test/support/Fixtures.ts"
import { expandWith, relationWeight, step } from "./expand.ts"

const options = RetrievalConfig.defaults

const run = (seeds: ReadonlyArray<Candidate>, edges: ReadonlyArray<NoteEdge>, overrides: Partial<typeof options> = {}) => {
  const notes = new Set([...edges.flatMap((e) => [e.from, e.to]), ...seeds.map((s) => s.chunk.noteId)])
  const chunks = [...notes].flatMap((note) => [0, 1].map((i) => chunk({ id: `${note}#${i}`, noteId: note, text: `${note} part ${i}`, lineStart: 1 + i * 5 })))
  return expandWith(seeds, {}, { ...options, ...overrides }).pipe(
    Effect.provide(Layer.merge(GraphStoreMemory.layer(edges), CandidateStoreMemory.layer(chunks)))
  )
}

describe("graph expansion", () => {
  it("relation weights follow the verb, and supersedes is never followed", () => {
    assert.strictEqual(relationWeight("depends_on", options), 1)
    assert.strictEqual(relationWeight("implements", options), 0.9)
    assert.strictEqual(relationWeight("blocks", options), 0.7)
    assert.strictEqual(relationWeight("links-to", options), 0.6)
    assert.strictEqual(relationWeight("supersedes", { ...options, graphRelationWeights: { supersedes: 1 } }), 0)
  })

  it.effect("a neighbour scores seed × relation weight × 0.6 and records the relation", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "a.md#0", noteId: "a.md", text: "a", score: 0.03 })
      const { candidates } = yield* run([seed], [{ from: "a.md", to: "b.md", verb: "implements" }])
      const neighbours = candidates.filter((c) => c.graph !== null)
      assert.deepStrictEqual(neighbours.map((c) => c.chunk.id), ["b.md#0", "b.md#1"])
      const first = neighbours[0]!
      assert.deepStrictEqual(first.graph, { hops: 1, relation: "implements", from: "a.md" })
      assert.strictEqual(first.components.relationWeight, 0.9)
      assert.strictEqual(first.components.hopPenalty, 0.6)
      assert.closeTo(first.score, 0.03 * 0.9 * 0.6, 1e-15)
      assert.isBelow(first.score, seed.score)
    }))

  it.effect("a hub linked by forty notes gains nothing from its popularity", () =>
    Effect.gen(function*() {
      const seeds = Array.from({ length: 40 }, (_, i) =>
        candidate({ id: `n${String(i).padStart(2, "0")}.md#0`, noteId: `n${String(i).padStart(2, "0")}.md`, text: "x", score: 0.03 - i * 0.0001 }))
      const edges = seeds.map((s) => ({ from: s.chunk.noteId, to: "hub.md", verb: "relates_to" }))
      const many = yield* run(seeds, edges)
      const one = yield* run(seeds, edges.slice(0, 1))
      const hubScore = (cs: ReadonlyArray<Candidate>) => cs.find((c) => c.chunk.noteId === "hub.md")!.score
      assert.strictEqual(hubScore(many.candidates), hubScore(one.candidates))
      assert.closeTo(hubScore(many.candidates), 0.03 * 0.6 * 0.6, 1e-15)
    }))

  it.effect("supersedes edges are reported in related but never walked", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "new.md#0", noteId: "new.md", text: "x", score: 0.03 })
      const { candidates } = yield* run([seed], [{ from: "new.md", to: "old.md", verb: "supersedes" }])
      assert.deepStrictEqual(candidates.map((c) => c.chunk.id), ["new.md#0"])
      assert.deepStrictEqual(candidates[0]!.related, ["old.md"])
    }))

  it.effect("graphSeedLimit walks from the best seeds a word leg ranked, never from a match by meaning alone", () =>
    Effect.gen(function*() {
      const ranked = (note: string, score: number, legRanks: Record<string, number>) =>
        ({ ...candidate({ id: `${note}#0`, noteId: note, text: "x", score }), legRanks })
      const seeds = [
        ranked("a.md", 0.05, { dense: 1 }),
        ranked("b.md", 0.04, { lexical: 1, dense: 2 }),
        ranked("c.md", 0.03, { title_path: 1 }),
        ranked("d.md", 0.02, { lexical: 2 })
      ]
      const edges = seeds.map((seed) => ({ from: seed.chunk.noteId, to: `${seed.chunk.noteId}-next.md`, verb: "depends_on" }))
      const reachedFrom = (candidates: ReadonlyArray<Candidate>) =>
        [...new Set(candidates.flatMap((c) => (c.graph === null ? [] : [c.graph.from])))].sort()
      assert.deepStrictEqual(reachedFrom((yield* run(seeds, edges)).candidates), ["a.md", "b.md", "c.md", "d.md"])
      const confident = (yield* run(seeds, edges, { graphSeedLimit: 3 })).candidates
      assert.deepStrictEqual(reachedFrom(confident), ["b.md", "c.md"])
      // A seed the walk did not start from keeps its edges in related.
      assert.deepStrictEqual(confident.find((c) => c.chunk.noteId === "a.md")!.related, ["a.md-next.md"])
      assert.deepStrictEqual(confident.find((c) => c.chunk.noteId === "d.md")!.related, ["d.md-next.md"])
    }))

  it.effect("bounded by graphExpandLimit and graphChunksPerNote", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "a.md#0", noteId: "a.md", text: "x", score: 0.03 })
      const edges = ["b.md", "c.md", "d.md"].map((to) => ({ from: "a.md", to, verb: "depends_on" }))
      const limited = yield* run([seed], edges, { graphExpandLimit: 2, graphChunksPerNote: 1 })
      assert.deepStrictEqual(limited.candidates.filter((c) => c.graph !== null).map((c) => c.chunk.id), ["b.md#0", "c.md#0"])
      const off = yield* run([seed], edges, { graphExpandLimit: 0 })
      assert.deepStrictEqual(off.candidates.map((c) => c.chunk.id), ["a.md#0"])
    }))

  it.effect("related lists the most canonical target first, ties and unknown notes by id; by id alone without signals", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "a.md#0", noteId: "a.md", text: "x", score: 0.03 })
      const edges = ["b.md", "c.md", "d.md", "e.md", "f.md"].map((to) => ({ from: "a.md", to, verb: "links-to" }))
      const scores = new Map([["b.md", 0.1], ["c.md", 0.9], ["d.md", 0.1], ["f.md", 1]])
      const ordered = yield* run([seed], edges).pipe(Effect.provide(NoteSignalsMemory.layer(scores)))
      const byId = yield* run([seed], edges)
      const seedOf = (cs: ReadonlyArray<Candidate>) => cs.find((c) => c.chunk.id === "a.md#0")!
      assert.deepStrictEqual(seedOf(ordered.candidates).related, ["f.md", "c.md", "b.md", "d.md", "e.md"])
      assert.deepStrictEqual(seedOf(byId.candidates).related, ["b.md", "c.md", "d.md", "e.md", "f.md"])
      // Admitted neighbours carry their own note's related in the same order.
      const reversed = [...edges].reverse()
      const again = yield* run([seed], reversed).pipe(Effect.provide(NoteSignalsMemory.layer(scores)))
      assert.deepStrictEqual(seedOf(again.candidates).related, seedOf(ordered.candidates).related)
      // Ranking is stage 7's business: the walk admits the same neighbours either way.
      assert.deepStrictEqual(ordered.candidates.map((c) => c.chunk.id), byId.candidates.map((c) => c.chunk.id))
    }))

  it.effect("signals that fail leave related in id order and the walk intact", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "a.md#0", noteId: "a.md", text: "x", score: 0.03 })
      const edges = ["c.md", "b.md"].map((to) => ({ from: "a.md", to, verb: "links-to" }))
      const failing = Layer.succeed(NoteSignals, { canonicality: () => Effect.fail(new NoteSignalsError({ detail: "gone" })) })
      const { candidates } = yield* run([seed], edges).pipe(Effect.provide(failing))
      assert.deepStrictEqual(candidates.find((c) => c.chunk.id === "a.md#0")!.related, ["b.md", "c.md"])
    }))

  it.effect("one hop reads the edges of the listed notes only, not of every neighbour the hub reaches", () =>
    Effect.gen(function*() {
      const seed = candidate({ id: "hub.md#0", noteId: "hub.md", text: "x", score: 0.03 })
      const spokes = Array.from({ length: 60 }, (_, i) => `spoke-${String(i).padStart(2, "0")}.md`)
      // Each spoke links on to a note of its own, and the first two link to each other.
      const edges: Array<Edge> = [
        ...spokes.map((to) => ({ from: "hub.md", to, verb: "depends_on" })),
        ...spokes.map((from) => ({ from, to: `far-${from}`, verb: "depends_on" })),
        { from: "spoke-00.md", to: "spoke-01.md", verb: "links-to" }
      ]
      const asked: Array<ReadonlyArray<string>> = []
      const memory = yield* GraphStore.pipe(Effect.provide(GraphStoreMemory.layer(edges)))
      const counting = Layer.succeed(GraphStore, { edgesOf: (notes) => Effect.sync(() => asked.push(notes)).pipe(Effect.andThen(memory.edgesOf(notes))) })
      const notes = new Set(edges.flatMap((e) => [e.from, e.to]))
      const chunks = [...notes].map((note) => chunk({ id: `${note}#0`, noteId: note, text: note }))
      const { candidates, edges: read } = yield* expandWith([seed], {}, { ...options, graphExpandLimit: 3, graphChunksPerNote: 1 }).pipe(
        Effect.provide(Layer.merge(counting, CandidateStoreMemory.layer(chunks)))
      )
      const admitted = candidates.filter((c) => c.graph !== null).map((c) => c.chunk.noteId)
      assert.deepStrictEqual(admitted, ["spoke-00.md", "spoke-01.md", "spoke-02.md"])
      assert.deepStrictEqual(asked.flat().sort(), ["hub.md", ...admitted].sort())
      // What the later stages read is still there: the edge between two listed notes, and each listed note's onward link.
      assert.isTrue(read.some((e) => e.from === "spoke-00.md" && e.to === "spoke-01.md"))
      assert.deepStrictEqual(candidates.find((c) => c.chunk.noteId === "spoke-00.md")!.related, ["far-spoke-00.md", "spoke-01.md"])
    }))

  it("step keeps the best path into a note, ties broken by verb then source", () => {
    const sources = new Map([["a", { rrf: 0.02, relationWeight: 1, hops: 0 }], ["b", { rrf: 0.02, relationWeight: 1, hops: 0 }]])
    const reached = step(sources, [
      { from: "b", to: "t", verb: "relates_to" },
      { from: "a", to: "t", verb: "relates_to" },
      { from: "a", to: "u", verb: "blocks" }
    ], new Set(["a", "b"]), options)
    assert.strictEqual(reached.get("t")?.from, "a")
    assert.closeTo(reached.get("u")!.score, 0.02 * 0.7 * 0.6, 1e-15)
  })
})
