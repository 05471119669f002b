import { assert, describe, it } from "@effect/vitest"
import * as Candidate from "../domain/Candidate.ts"
import type { Chunk } from "../domain/Chunk.ts"
import * as ScoreComponents from "../domain/ScoreComponents.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { chunk } from "../../test/support/Fixtures.ts"
import { adjust, type AdjustContext, decay } from "./adjust.ts"
import { classify } from "./intent.ts"

const NOW = Date.UTC(2026, 9, 1)
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString()
const config = RetrievalConfig.defaults
const neutral = classify("zzz")

const make = (spec: { id: string; text?: string; base?: number; noteType?: Chunk["noteType"]; age?: number | null; chunk?: Partial<Chunk> }) => {
  const c = chunk({ id: spec.id, text: spec.text ?? `${spec.id} > h\nplain words`, noteType: spec.noteType ?? "note", createdAt: spec.age === undefined || spec.age === null ? null : daysAgo(spec.age) })
  return Candidate.make({ ...c, ...spec.chunk }, spec.base ?? 0.03)
}

const context = (overrides: Partial<AdjustContext> = {}): AdjustContext => ({
  query: "zzz",
  intent: neutral,
  now: NOW,
  edges: [],
  chunkCounts: new Map(),
  config,
  ...overrides
})

describe("adjust", () => {
  it("freshness: a state note two weeks old decays to 1/e above the 0.9 floor", () => {
    const [state] = adjust([make({ id: "s.md#0", noteType: "state", age: 14 })], context())
    assert.closeTo(state!.components.freshness, 0.9 + 0.1 * Math.exp(-1), 1e-12)
  })

  it("a stale state note loses a near-tie to a fresh reference note, and no more than 1/floor", () => {
    const stale = make({ id: "state.md#0", noteType: "state", age: 400, base: 0.031 })
    const fresh = make({ id: "ref.md#0", noteType: "reference", age: 10, base: 0.03 })
    const ranked = adjust([stale, fresh], context())
    assert.deepStrictEqual(ranked.map((c) => c.chunk.id), ["ref.md#0", "state.md#0"])
    assert.isAtMost(ranked[0]!.components.freshness / ranked[1]!.components.freshness, 1 / config.freshnessFloor)
  })

  it("unknown age decays nothing; recency bias shortens the half-life", () => {
    const [unknown] = adjust([make({ id: "u.md#0", age: null })], context())
    assert.strictEqual(unknown!.components.freshness, 1)
    assert.closeTo(decay(90, "note", 1, config), Math.exp(-2), 1e-12)
    assert.closeTo(decay(90, "note", 0, config), Math.exp(-1), 1e-12)
  })

  it("damps the intent type weight", () => {
    const why = classify("why did we pick this")
    const [decision] = adjust([make({ id: "d.md#0", noteType: "decision" })], context({ intent: why }))
    assert.closeTo(decision!.components.typeWeight, 1 + 0.35 * (why.typeWeights.decision - 1), 1e-12)
  })

  it("a test, fixture or bench file's type weight is scaled by testFileWeight, unless the question asks about tests", () => {
    const at = (path: string) => make({ id: `${path}#0`, noteType: "code", chunk: { path, noteId: path } })
    const files = ["src/retrieval/adjust.ts", "src/retrieval/adjust.test.ts", "layers/reference/fixtures/SoftwareNotes.ts", "bench/dense.bench.ts", "test/chunking/HeadingDense.test.ts"]
    const weights = (query: string, overrides: Partial<typeof config> = {}) =>
      adjust(files.map(at), context({ query, config: { ...config, ...overrides } }))
        .map((c) => [c.chunk.path, c.components.typeWeight] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1))
    const plain = Object.fromEntries(weights("where is the score adjusted?"))
    assert.strictEqual(plain["src/retrieval/adjust.ts"], 1)
    for (const path of files.slice(1)) assert.strictEqual(plain[path], config.testFileWeight, path)
    assert.isBelow(config.testFileWeight, 1)
    // Asked about tests, or switched off, every file weighs the same.
    for (const [query, overrides] of [["which test covers the score adjustment?", {}], ["where is the score adjusted?", { testFileWeight: 1 }]] as const) {
      for (const [, weight] of weights(query, overrides)) assert.strictEqual(weight, 1, query)
    }
  })

  it("note support is over the note's own chunk count, and falls back to the count form as a whole list", () => {
    const list = [make({ id: "a.md#0" }), make({ id: "a.md#1" }), make({ id: "b.md#0" })].map((c) => ({ ...c, chunk: { ...c.chunk, noteId: c.chunk.id.split("#")[0]! } }))
    const counts = new Map([["a.md", 4], ["b.md", 1]])
    const own = adjust(list, context({ chunkCounts: counts }))
    assert.strictEqual(own.find((c) => c.chunk.id === "a.md#0")!.components.noteSupport, 0.5 + 0.5 * (2 / 4))
    assert.strictEqual(own.find((c) => c.chunk.id === "b.md#0")!.components.noteSupport, 1)
    const partial = adjust(list, context({ chunkCounts: new Map([["a.md", 4]]) }))
    assert.strictEqual(partial.find((c) => c.chunk.id === "b.md#0")!.components.noteSupport, 0.5 + 0.5 * (1 / 2))
  })

  it("term and note coverage count the query's named terms", () => {
    const query = "rollback deploy checklist"
    const a = make({ id: "n.md#0", text: "n > h\nthe rollback of a deploy" })
    const b = make({ id: "n.md#1", text: "n > h\nchecklist items" })
    const other = make({ id: "o.md#0", text: "o > h\nnothing relevant" })
    const ranked = adjust([a, b, other].map((c) => ({ ...c, chunk: { ...c.chunk, noteId: c.chunk.id.split("#")[0]! } })), context({ query }))
    const first = ranked.find((c) => c.chunk.id === "n.md#0")!
    assert.closeTo(first.components.termCoverage, 0.35 + 0.65 * (2 / 3), 1e-12)
    assert.strictEqual(first.components.noteCoverage, 1)
    const none = ranked.find((c) => c.chunk.id === "o.md#0")!
    assert.strictEqual(none.components.termCoverage, 0.35)
    assert.strictEqual(none.components.noteCoverage, 0.6)
  })

  it("link consensus counts other listed notes that cite this one, capped, never rewarding popularity", () => {
    const notes = ["hub", "a", "b", "c", "d", "e", "f", "g", "h"]
    const list = notes.map((n) => ({ ...make({ id: `${n}.md#0` }), chunk: { ...make({ id: `${n}.md#0` }).chunk, noteId: `${n}.md` } }))
    const edges = notes.slice(1).map((n) => ({ from: `${n}.md`, to: "hub.md", verb: "links-to" }))
      .concat([{ from: "a.md", to: "b.md", verb: "relates_to" }, { from: "c.md", to: "b.md", verb: "supersedes" }])
    const ranked = adjust(list, context({ edges, config: { ...config, rerankLimit: 20 } }))
    const by = (n: string) => ranked.find((c) => c.chunk.noteId === `${n}.md`)!.components.linkConsensus
    assert.strictEqual(by("hub"), 1) // eight citations, capped at six
    assert.closeTo(by("b"), 0.8 + 0.2 * (1 / 6), 1e-12) // supersedes does not count
    assert.strictEqual(by("g"), 0.8)
  })

  it("trust: an agent's unverified words weigh 0.85 × 0.9", () => {
    const c = make({ id: "x.md#0", chunk: { provenance: { authorKind: "agent", author: "bot", createdAt: null, state: "unverified" } } })
    const [out] = adjust([c], context())
    assert.strictEqual(out!.components.verification, 0.85)
    assert.strictEqual(out!.components.authorKind, 0.9)
    const [off] = adjust([c], context({ config: RetrievalConfig.retrievalConfigFor("off") }))
    assert.strictEqual(off!.components.verification * off!.components.authorKind, 1)
  })

  it("a graph neighbour is capped at its seed's factors and stays below it", () => {
    const seed = { ...make({ id: "seed.md#0", noteType: "state", age: 200 }), chunk: { ...make({ id: "seed.md#0", noteType: "state", age: 200 }).chunk, noteId: "seed.md" } }
    const base = make({ id: "nb.md#0", noteType: "reference", age: 1 })
    const neighbour = {
      ...Candidate.withComponents(base, { ...base.components, relationWeight: 1, hopPenalty: 0.6 }),
      graph: { hops: 1, relation: "depends_on", from: "seed.md" }
    }
    const ranked = adjust([seed, neighbour], context())
    const n = ranked.find((c) => c.chunk.id === "nb.md#0")!
    const s = ranked.find((c) => c.chunk.id === "seed.md#0")!
    assert.strictEqual(n.components.freshness, s.components.freshness)
    assert.isBelow(n.score, s.score)
  })

  it("canonicality is floor + (1 - floor) × the note's score; an unknown note sits at the floor", () => {
    const list = ["hub", "leaf", "unknown"].map((n) => make({ id: `${n}.md#0`, chunk: { noteId: `${n}.md` } }))
    const canonicality = new Map([["hub.md", 1], ["leaf.md", 0.25]])
    const on = adjust(list, context({ canonicality, config: { ...config, canonicalityFloor: 0.8 } }))
    const by = (n: string) => on.find((c) => c.chunk.noteId === `${n}.md`)!.components.canonicality
    assert.strictEqual(by("hub"), 1)
    assert.closeTo(by("leaf"), 0.8 + 0.2 * 0.25, 1e-12)
    assert.strictEqual(by("unknown"), 0.8)
    // The floor bounds what the factor can overturn: a hub beats a leaf by at most 1/floor.
    assert.isAtMost(by("hub") / by("unknown"), 1 / 0.8)
    for (const c of on) assert.strictEqual(c.score, ScoreComponents.score(c.components))
  })

  it("canonicality is off at the default floor of 1, and without signals whatever the floor", () => {
    const list = ["hub", "leaf"].map((n) => make({ id: `${n}.md#0`, chunk: { noteId: `${n}.md` } }))
    const canonicality = new Map([["hub.md", 1], ["leaf.md", 0]])
    const off = adjust(list, context({ canonicality }))
    assert.deepStrictEqual(off.map((c) => c.components.canonicality), [1, 1])
    const none = adjust(list, context({ config: { ...config, canonicalityFloor: 0.5 } }))
    assert.deepStrictEqual(none.map((c) => c.components.canonicality), [1, 1])
  })

  it("a canonical note overtakes a near tie, and a graph neighbour cannot borrow more canonicality than its seed", () => {
    const leaf = make({ id: "leaf.md#0", base: 0.0301, chunk: { noteId: "leaf.md" } })
    const hub = make({ id: "hub.md#0", base: 0.03, chunk: { noteId: "hub.md" } })
    const onConfig = { ...config, canonicalityFloor: 0.8 }
    const canonicality = new Map([["hub.md", 1], ["leaf.md", 0]])
    assert.deepStrictEqual(adjust([leaf, hub], context()).map((c) => c.chunk.id), ["leaf.md#0", "hub.md#0"])
    assert.deepStrictEqual(adjust([leaf, hub], context({ canonicality, config: onConfig })).map((c) => c.chunk.id), ["hub.md#0", "leaf.md#0"])

    const base = make({ id: "hub.md#1", chunk: { noteId: "hub.md" } })
    const neighbour = {
      ...Candidate.withComponents(base, { ...base.components, relationWeight: 1, hopPenalty: 0.6 }),
      graph: { hops: 1, relation: "depends_on", from: "leaf.md" }
    }
    const ranked = adjust([leaf, neighbour], context({ canonicality, config: onConfig }))
    assert.strictEqual(ranked.find((c) => c.chunk.id === "hub.md#1")!.components.canonicality, 0.8)
  })

  it("every score is its components' product, and the list is cut to rerankLimit", () => {
    const list = Array.from({ length: 20 }, (_, i) => make({ id: `n${i}.md#0`, base: 0.01 + i * 0.001, age: i * 30 }))
    const ranked = adjust(list, context())
    assert.strictEqual(ranked.length, config.rerankLimit)
    for (const c of ranked) assert.strictEqual(c.score, ScoreComponents.score(c.components))
  })
})
