/**
 * Behaviour every NoteSignals backend must show, run against each backend by its own test file. A
 * backend is given as a function from the corpus's canonicality (note → score, max-normalised) to a
 * layer that knows exactly those notes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import { NoteSignals } from "../../src/ports/NoteSignals.ts"

export type MakeSignalsLayer<E> = (canonicality: ReadonlyMap<string, number>) => Layer.Layer<NoteSignals, E>

// The most canonical note at 1, a leaf, a note nothing links to (0 is known, not absent).
const SCORES: ReadonlyMap<string, number> = new Map([
  ["docs/index.md", 1],
  ["docs/leaf.md", 4 / 21],
  ["docs/orphan.md", 0],
  ["docs/Émile.md", 0.5]
])

const sorted = (scores: ReadonlyMap<string, number>) => [...scores].sort(([a], [b]) => (a < b ? -1 : 1))

export const contract = <E>(name: string, makeLayer: MakeSignalsLayer<E>) => {
  const canonicality = (seed: ReadonlyMap<string, number>, notes: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const signals = yield* NoteSignals
      return yield* signals.canonicality(notes)
    }).pipe(Effect.provide(makeLayer(seed)))

  describe(`NoteSignals contract (${name})`, () => {
    it.effect("canonicality - each known note asked, with its score in [0, 1]; an unknown note is absent", () =>
      Effect.gen(function*() {
        const got = yield* canonicality(SCORES, ["docs/leaf.md", "docs/unknown.md", "docs/index.md", "docs/orphan.md"])
        assert.deepStrictEqual(sorted(got), [["docs/index.md", 1], ["docs/leaf.md", 4 / 21], ["docs/orphan.md", 0]])
        for (const score of got.values()) assert.isTrue(score >= 0 && score <= 1)
      }))

    it.effect("canonicality - nothing asked, or nothing known, gives nothing; a note asked twice is answered once", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* canonicality(SCORES, [])).size, 0)
        assert.strictEqual((yield* canonicality(new Map(), ["docs/index.md"])).size, 0)
        assert.deepStrictEqual(sorted(yield* canonicality(SCORES, ["docs/Émile.md", "docs/Émile.md"])), [["docs/Émile.md", 0.5]])
      }))

    it.effect("canonicality - the same scores whatever order the notes are asked in", () =>
      Effect.gen(function*() {
        const notes = [...SCORES.keys(), "docs/unknown.md"]
        const forward = yield* canonicality(SCORES, notes)
        const backward = yield* canonicality(SCORES, [...notes].reverse())
        assert.deepStrictEqual(sorted(backward), sorted(forward))
        assert.strictEqual(forward.size, SCORES.size)
      }))
  })
}
