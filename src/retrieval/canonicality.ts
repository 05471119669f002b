/**
 * Reading the optional NoteSignals port for recall: one lookup for a set of notes, and the order
 * `related` is published in. No signals, or signals that fail, mean no opinion: `undefined`, and
 * every caller then behaves exactly as if the port did not exist.
 */
import { Effect, Option } from "effect"
import { compareIds } from "../domain/Ranking.ts"
import { NoteSignals } from "../ports/NoteSignals.ts"

export type Canonicality = ReadonlyMap<string, number>

/** A backend's value as a share in [0, 1]; anything else (NaN, an infinity) says nothing. */
const asShare = (value: number): number | undefined => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined)

/** Canonicality of the distinct `notes` the signals know, or `undefined` when there are none to ask. */
export const canonicalityOf = Effect.fnUntraced(function*(notes: Iterable<string>): Effect.fn.Return<Canonicality | undefined> {
  const signals = yield* Effect.serviceOption(NoteSignals)
  if (Option.isNone(signals)) return undefined
  const distinct = [...new Set(notes)].sort(compareIds)
  const found = yield* signals.value.canonicality(distinct).pipe(Effect.catch(() => Effect.succeed(undefined)))
  if (found === undefined) return undefined
  const scores = new Map<string, number>()
  for (const note of distinct) {
    const share = asShare(found.get(note) ?? Number.NaN)
    if (share !== undefined) scores.set(note, share)
  }
  return scores
})

/** Most canonical first (a note the signals do not know counts 0), then id: deterministic either way. */
export const byCanonicality = (scores: Canonicality | undefined) => (a: string, b: string): number => {
  if (scores !== undefined) {
    const sa = scores.get(a) ?? 0
    const sb = scores.get(b) ?? 0
    if (sa !== sb) return sb - sa
  }
  return compareIds(a, b)
}
