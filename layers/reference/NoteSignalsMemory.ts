/** Reference NoteSignals: a canonicality map held in memory (`canonicality(snapshot)` computes one). */
import { Effect, Layer } from "effect"
import { NoteSignals } from "../../src/ports/NoteSignals.ts"

export const make = (scores: ReadonlyMap<string, number>): NoteSignals["Service"] =>
  NoteSignals.of({
    canonicality: (notes) =>
      Effect.sync(() => {
        const found = new Map<string, number>()
        for (const note of notes) {
          const score = scores.get(note)
          if (score !== undefined) found.set(note, score)
        }
        return found
      })
  })

export const layer = (scores: ReadonlyMap<string, number>): Layer.Layer<NoteSignals> => Layer.sync(NoteSignals, () => make(scores))
