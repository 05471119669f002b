import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as NoteSignalsMemory from "../../layers/reference/NoteSignalsMemory.ts"
import { NoteSignals, NoteSignalsError } from "../ports/NoteSignals.ts"
import { byCanonicality, canonicalityOf } from "./canonicality.ts"

describe("reading NoteSignals", () => {
  it.effect("no port and a failing port are both no opinion", () =>
    Effect.gen(function*() {
      assert.isUndefined(yield* canonicalityOf(["a.md"]))
      const failing = Layer.succeed(NoteSignals, { canonicality: () => Effect.fail(new NoteSignalsError({ detail: "closed" })) })
      assert.isUndefined(yield* canonicalityOf(["a.md"]).pipe(Effect.provide(failing)))
    }))

  it.effect("asks once for the distinct notes in id order, and keeps only finite values, clamped to [0, 1]", () =>
    Effect.gen(function*() {
      const asked: Array<ReadonlyArray<string>> = []
      const memory = NoteSignalsMemory.make(new Map([["a.md", 0.5], ["b.md", Number.NaN], ["c.md", 7], ["d.md", -1], ["e.md", Infinity]]))
      const spying = Layer.succeed(NoteSignals, {
        canonicality: (notes) => Effect.suspend(() => {
          asked.push(notes)
          return memory.canonicality(notes)
        })
      })
      const scores = yield* canonicalityOf(["e.md", "d.md", "c.md", "a.md", "b.md", "a.md", "z.md"]).pipe(Effect.provide(spying))
      assert.deepStrictEqual(asked, [["a.md", "b.md", "c.md", "d.md", "e.md", "z.md"]])
      assert.deepStrictEqual([...scores!], [["a.md", 0.5], ["c.md", 1], ["d.md", 0]])
    }))

  it("orders most canonical first, unknown as 0, ties by code unit", () => {
    const scores = new Map([["b", 0.2], ["a", 0.2], ["c", 0.9]])
    assert.deepStrictEqual(["z", "b", "a", "c", "B"].sort(byCanonicality(scores)), ["c", "a", "b", "B", "z"])
    assert.deepStrictEqual(["z", "b", "a", "c", "B"].sort(byCanonicality(undefined)), ["B", "a", "b", "c", "z"])
  })
})
