import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { AuthorKind, ChunkId, TrustState } from "../domain/Chunk.ts"
import * as ScoreComponents from "../domain/ScoreComponents.ts"
import { defaults } from "../RetrievalConfig.ts"
import { candidate } from "../../test/support/Fixtures.ts"
import * as Dedup from "./dedup.ts"

const options = { dedupCosine: defaults.dedupCosine, dedupShingleSize: defaults.dedupShingleSize }

interface Spec {
  readonly id: string
  readonly score: number
  readonly text?: string
  readonly state?: TrustState
  readonly authorKind?: AuthorKind
  readonly createdAt?: string | null
}

/** A candidate with the provenance fields the election reads. */
const make = (spec: Spec): Candidate => {
  const c = candidate({ id: spec.id, score: spec.score, text: spec.text ?? `${spec.id} > s\nbody of ${spec.id}` })
  const provenance = {
    ...c.chunk.provenance,
    state: spec.state ?? "unverified",
    authorKind: spec.authorKind ?? "human",
    createdAt: spec.createdAt ?? null
  }
  return { ...c, chunk: { ...c.chunk, provenance } }
}

const vectors = (entries: Record<string, ReadonlyArray<number>>): Dedup.Vectors =>
  new Map(Object.entries(entries).map(([id, v]) => [id as ChunkId, v]))

const ids = (cs: ReadonlyArray<Candidate>) => cs.map((c) => c.chunk.id as string)
const shape = (result: Dedup.Deduped) => ({
  survivors: ids(result.survivors),
  collapsed: result.collapsed.map((c) => [c.survivor as string, ids(c.members)])
})

// cos θ = 0.96 and cos 2θ = 2 × 0.96² - 1 = 0.8432: A~B and B~C at 0.92, but not A~C.
const A = [1, 0], B = [0.96, 0.28], C = [0.8432, 0.5376]

describe("dedup", () => {
  it("dedup - a near-duplicate pair (cosine 0.96) collapses into the higher score; the far one stays", () => {
    const result = Dedup.dedup(
      [make({ id: "b.md#1", score: 0.02 }), make({ id: "a.md#1", score: 0.03 }), make({ id: "c.md#1", score: 0.01 })],
      vectors({ "a.md#1": [1, 0, 0], "b.md#1": [0.96, 0.28, 0], "c.md#1": [0, 0, 1] }),
      options
    )
    assert.deepStrictEqual(shape(result), { survivors: ["a.md#1", "c.md#1"], collapsed: [["a.md#1", ["b.md#1"]]] })
    // Candidates pass through untouched, so the score identity still holds.
    for (const s of result.survivors) assert.strictEqual(s.score, ScoreComponents.score(s.components))
  })

  it("dedup - complete link: A~B and B~C without A~C is two clusters, not one chain", () => {
    const v = vectors({ a: A, b: B, c: C })
    const aFirst = Dedup.dedup([make({ id: "a", score: 3 }), make({ id: "b", score: 2 }), make({ id: "c", score: 1 })], v, options)
    assert.deepStrictEqual(shape(aFirst), { survivors: ["a", "c"], collapsed: [["a", ["b"]]] })
    // With B ranked first, C clears the survivor B but not the member A, so it still stands alone.
    const bFirst = Dedup.dedup([make({ id: "a", score: 2 }), make({ id: "b", score: 3 }), make({ id: "c", score: 1 })], v, options)
    assert.deepStrictEqual(shape(bFirst), { survivors: ["b", "c"], collapsed: [["b", ["a"]]] })
  })

  it("dedup - a candidate joins the first cluster it fully matches, in rank order of the clusters", () => {
    // a and c are 0.8432 apart; d, halfway, is 0.96 from each, and joins a's cluster, the first.
    const v = vectors({ a: A, c: [0.8432, -0.5376], d: [0.96, -0.28] })
    const result = Dedup.dedup([make({ id: "a", score: 3 }), make({ id: "c", score: 2 }), make({ id: "d", score: 1 })], v, options)
    assert.deepStrictEqual(shape(result), { survivors: ["a", "c"], collapsed: [["a", ["d"]]] })
  })

  describe("election, one tie-break at a time (identical vectors, so every pair is a duplicate)", () => {
    const elect = (...specs: Array<Spec>) => {
      const result = Dedup.dedup(specs.map(make), vectors(Object.fromEntries(specs.map((s) => [s.id, [1, 1]]))), options)
      assert.strictEqual(result.survivors.length, 1)
      return shape(result)
    }
    const everyOtherFlag = { state: "verified", authorKind: "human", createdAt: "2026-01-01T00:00:00Z" } as const

    it("election - the higher score wins over verified, human and fresher", () => {
      assert.deepStrictEqual(
        elect({ id: "a", score: 1, ...everyOtherFlag }, { id: "b", score: 2, state: "unverified", authorKind: "agent", createdAt: null }),
        { survivors: ["b"], collapsed: [["b", ["a"]]] }
      )
    })

    it("election - at equal scores, verified wins over human and fresher", () => {
      assert.deepStrictEqual(
        elect({ id: "a", score: 1, ...everyOtherFlag, state: "accepted" }, { id: "b", score: 1, state: "verified", authorKind: "agent" }),
        { survivors: ["b"], collapsed: [["b", ["a"]]] }
      )
    })

    it("election - then a human author wins over fresher", () => {
      assert.deepStrictEqual(
        elect({ id: "a", score: 1, ...everyOtherFlag, authorKind: "agent" }, { id: "b", score: 1, state: "verified", authorKind: "human" }),
        { survivors: ["b"], collapsed: [["b", ["a"]]] }
      )
    })

    it("election - then the later createdAt; an unknown one counts as oldest", () => {
      assert.deepStrictEqual(
        elect({ id: "a", score: 1, createdAt: "2024-01-01T00:00:00Z" }, { id: "b", score: 1, createdAt: "2025-06-01T00:00:00Z" }),
        { survivors: ["b"], collapsed: [["b", ["a"]]] }
      )
      assert.deepStrictEqual(
        elect({ id: "a", score: 1, createdAt: null }, { id: "b", score: 1, createdAt: "2001-01-01T00:00:00Z" }),
        { survivors: ["b"], collapsed: [["b", ["a"]]] }
      )
    })

    it("election - then the smaller chunk id", () => {
      assert.deepStrictEqual(
        elect({ id: "b", score: 1, ...everyOtherFlag }, { id: "a", score: 1, ...everyOtherFlag }),
        { survivors: ["a"], collapsed: [["a", ["b"]]] }
      )
    })
  })

  it("dedup - survivors are re-sorted into presentation order after the election", () => {
    // Visit order a, ab, b (equal scores, by id). {a, b} elects the verified b, so survivors are
    // b and ab, and presentation order puts ab first.
    const result = Dedup.dedup(
      [make({ id: "a", score: 1 }), make({ id: "b", score: 1, state: "verified" }), make({ id: "ab", score: 1 })],
      vectors({ a: A, b: A, ab: [0, 1] }),
      options
    )
    assert.deepStrictEqual(shape(result), { survivors: ["ab", "b"], collapsed: [["b", ["a"]]] })
  })

  it("dedup - falls back to text without vectors: equal folded bodies collapse across notes", () => {
    const result = Dedup.dedup(
      [
        make({ id: "a.md#1", score: 2, text: "a.md > Cache\nThe cache TTL is 4h for every tenant." }),
        make({ id: "b.md#1", score: 1, text: "b.md > Caching\nthe cache ttl is 4H, for every tenant" }),
        make({ id: "c.md#1", score: 1.5, text: "c.md > Cache\nThe cache TTL is 1h for every tenant." })
      ],
      new Map(),
      options
    )
    // a and c share 3 of 9 distinct shingles (0.33): a claim that differs in its number stays.
    assert.deepStrictEqual(shape(result), { survivors: ["a.md#1", "c.md#1"], collapsed: [["a.md#1", ["b.md#1"]]] })
  })

  it("dedup - the order of the input changes nothing", () => {
    const list = [make({ id: "a", score: 3 }), make({ id: "b", score: 2 }), make({ id: "c", score: 1 }), make({ id: "d", score: 2 })]
    const v = vectors({ a: A, b: B, c: C, d: B })
    const forward = Dedup.dedup(list, v, options)
    assert.deepStrictEqual(Dedup.dedup([...list].reverse(), v, options), forward)
    assert.deepStrictEqual(Dedup.dedup(list, v, options, "exhaustive"), forward)
  })

  it.effect("Dedup - the default layer collapses, layerOff keeps every candidate in presentation order", () =>
    Effect.gen(function*() {
      const list = [make({ id: "b", score: 2 }), make({ id: "a", score: 3 }), make({ id: "c", score: 1 })]
      const v = vectors({ a: A, b: B, c: C })
      const run = Effect.gen(function*() {
        const stage = yield* Dedup.Dedup
        return stage.dedup(list, v, options)
      })
      const on = yield* Effect.provide(run, Dedup.layer)
      const off = yield* Effect.provide(run, Dedup.layerOff)
      assert.deepStrictEqual(shape(on), { survivors: ["a", "c"], collapsed: [["a", ["b"]]] })
      assert.deepStrictEqual(shape(off), { survivors: ["a", "b", "c"], collapsed: [] })
    }))
})
