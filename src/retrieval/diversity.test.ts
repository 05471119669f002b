import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import { candidate } from "../../test/support/Fixtures.ts"
import * as Diversity from "./diversity.ts"

// Rank order: a1 a2 a3 a4 b1 a5 c1 b2 (scores 0.9 down to 0.2).
const LIST = [
  ["a", 1, 0.9], ["a", 2, 0.8], ["a", 3, 0.7], ["a", 4, 0.6], ["b", 1, 0.5], ["a", 5, 0.4], ["c", 1, 0.3], ["b", 2, 0.2]
] as const
const list: Array<Candidate> = LIST.map(([note, n, score]) =>
  candidate({ id: `${note}.md#${n}`, noteId: `${note}.md`, text: `${note} > s\n${note}${n}`, score })
)
const order = (cs: ReadonlyArray<Candidate>) => cs.map((c) => c.chunk.id.replace(".md#", ""))

describe("diversity", () => {
  it("diversify - cap 2: a1 a2, a3 and a4 set aside, b1, a5 set aside, c1; then the rest in rank order", () => {
    assert.deepStrictEqual(order(Diversity.diversify(list, { diversityCapPerNote: 2 })), [
      "a1", "a2", "b1", "c1", "a3", "a4", "a5", "b2"
    ])
  })

  it("diversify - cap 3 (the default) and cap 1 on the same list", () => {
    assert.deepStrictEqual(order(Diversity.diversify(list, { diversityCapPerNote: 3 })), [
      "a1", "a2", "a3", "b1", "c1", "a4", "a5", "b2"
    ])
    assert.deepStrictEqual(order(Diversity.diversify(list, { diversityCapPerNote: 1 })), [
      "a1", "b1", "c1", "a2", "a3", "a4", "a5", "b2"
    ])
  })

  it("diversify - the cap lifts once every note is in: b2 is not held back behind a4 and a5 by any cap", () => {
    // With cap 1, after c1 the backfill is plain rank order; a round-robin would put b2 right after a2.
    const out = order(Diversity.diversify(list, { diversityCapPerNote: 1 }))
    assert.isTrue(out.indexOf("a5") < out.indexOf("b2"))
  })

  it("diversify - an infinite cap, or a list of one note, is plain rank order", () => {
    const ranked = ["a1", "a2", "a3", "a4", "b1", "a5", "c1", "b2"]
    assert.deepStrictEqual(order(Diversity.diversify(list, { diversityCapPerNote: Infinity })), ranked)
    const onlyA = list.filter((c) => c.chunk.noteId === "a.md")
    assert.deepStrictEqual(order(Diversity.diversify(onlyA, { diversityCapPerNote: 1 })), ["a1", "a2", "a3", "a4", "a5"])
  })

  it("diversify - reads rank order, not input order, and keeps every candidate", () => {
    const reversed = Diversity.diversify([...list].reverse(), { diversityCapPerNote: 2 })
    assert.deepStrictEqual(reversed, Diversity.diversify(list, { diversityCapPerNote: 2 }))
    assert.deepStrictEqual(order(reversed).sort(), order(list).sort())
  })

  it.effect("Diversity - the default layer reorders, layerOff keeps rank order", () =>
    Effect.gen(function*() {
      const run = Effect.gen(function*() {
        const stage = yield* Diversity.Diversity
        return order(stage.diversify(list, { diversityCapPerNote: 2 }))
      })
      assert.deepStrictEqual(yield* Effect.provide(run, Diversity.layer), ["a1", "a2", "b1", "c1", "a3", "a4", "a5", "b2"])
      assert.deepStrictEqual(yield* Effect.provide(run, Diversity.layerOff), ["a1", "a2", "a3", "a4", "b1", "a5", "c1", "b2"])
    }))
})
