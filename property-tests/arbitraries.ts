/** fast-check arbitraries shared by the property suites: hostile text, candidate lists, budgets. */
import fc from "fast-check"
import type { Candidate } from "../src/domain/Candidate.ts"
import type { Conflict } from "../src/domain/Conflict.ts"
import type { Gap, GapReason } from "../src/domain/Gap.ts"
import { candidate } from "../test/support/Fixtures.ts"

const words = fc.constantFrom(
  "budget", "token", "pack", "claim", "the", "cairn", "retrieval", "graph", "<|endoftext|>", "naïve",
  "façade", "中文", "検索", "😀", "👩‍👩‍👧", "\t", "\n", "\n\n", "  ", "{", "}\"", "...", "1234567", "é", "\u0000"
)

/** Prose with unicode, emoji, CJK and special-token text. */
export const prose = fc.array(words, { maxLength: 80 }).map((parts) => parts.join(" "))

/** A run long enough to trip the guard: letters, CJK, emoji, punctuation or spaces. */
export const longRun = fc.tuple(fc.constantFrom("a", "字", "😀", "!", " ", "é"), fc.integer({ min: 100, max: 900 }))
  .map(([unit, times]) => unit.repeat(times))

/** Anything a file or a query may hold, hostile runs included. */
export const hostileText = fc.oneof(
  { weight: 4, arbitrary: prose },
  { weight: 1, arbitrary: fc.tuple(prose, longRun, prose).map((parts) => parts.join(" ")) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) }
)

/** Scores drawn from a few values with tiny offsets, so ties and near-ties are common. */
const score = fc.oneof(
  fc.constantFrom(0, 1e-12, 0.0164, 0.0254, 0.5, 1),
  fc.tuple(fc.constantFrom(0.0164, 0.5), fc.integer({ min: 0, max: 3 })).map(([s, k]) => s + k * Number.EPSILON)
)

/** Candidate lists of any length up to `maxLength` (sized "max", so long lists really occur). */
export const candidateList = (maxLength: number): fc.Arbitrary<Array<Candidate>> =>
  fc.uniqueArray(
    fc.record({
      note: fc.constantFrom("docs/a.md", "docs/b.md", "src/c.ts", "字/d.md"),
      block: fc.integer({ min: 0, max: 500 }),
      text: hostileText,
      score,
      isLinkList: fc.integer({ min: 0, max: 9 }).map((n) => n === 0)
    }),
    { maxLength, size: "max", selector: (c) => `${c.note}#${c.block}` }
  ).map((specs) =>
    specs.map((s) => candidate({ id: `${s.note}#${s.block}`, noteId: s.note, text: s.text, score: s.score, isLinkList: s.isLinkList }))
  )

// Every reason a stage detects; `budget_truncated` is the packer's own notice.
const reasons: ReadonlyArray<GapReason> = ["no_results", "low_confidence", "filtered_out", "implied_type", "index_incomplete", "leg_failed", "query_reduced"]

export const gapList: fc.Arbitrary<Array<Gap>> = fc.array(
  fc.record({ reason: fc.constantFrom(...reasons), text: hostileText }),
  { maxLength: 6 }
)

export const conflictList: fc.Arbitrary<Array<Conflict>> = fc.array(
  fc.record({ topic: prose, refs: fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }), note: prose }),
  { maxLength: 5 }
)

/** Every budget a caller may ask for, with the edges weighted in. */
export const budget = fc.oneof(
  fc.integer({ min: 0, max: 32_000 }),
  fc.constantFrom(0, 1, 511, 512, 513, 4_000, 32_000)
)

/** A seeded Fisher-Yates shuffle (Park-Miller), so a failing order replays. */
export const shuffle = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const out = [...items]
  let state = (Math.abs(seed) % 2147483646) + 1
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 16807) % 2147483647
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
