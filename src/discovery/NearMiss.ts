/**
 * Near-miss matching of a path-shaped reference that resolved to nothing: accepted only when exactly
 * one known path scores at least 0.92 Jaro-Winkler. Comparing every reference with every path is the
 * analyzer's one super-linear step, so the index skips candidates with two bounds on Jaro's match
 * count m, neither of which can skip a true match:
 *
 * - Winkler's bonus is at most 0.4·(1 − jaro), so jw ≤ 0.6·jaro + 0.4, and jaro ≤ (m/|a| + m/|b| + 1)/3
 *   with m ≤ min(|a|, |b|). At 0.92 that admits only lengths within 0.6× to 1/0.6× of the query's.
 * - m cannot exceed the characters the two strings share, counted with a 128-slot vector per string
 *   (code unit mod 128; a collision only over-counts, which keeps the bound safe).
 */
import { jaroWinkler } from "./JaroWinkler.ts"
import { compareIds } from "../domain/Ranking.ts"

export const NEAR_MISS_THRESHOLD = 0.92

// Bounds are compared with this slack so floating-point rounding can never reject a true match.
const SLACK = 1e-9

const upperBound = (matches: number, a: number, b: number): number =>
  0.6 * ((matches / a + matches / b + 1) / 3) + 0.4

const slotCounts = (text: string): Uint16Array => {
  const counts = new Uint16Array(128)
  for (let index = 0; index < text.length; index++) counts[text.charCodeAt(index) & 127]!++
  return counts
}

export interface NearMissIndex {
  /** Every candidate scoring at least the threshold, in code-unit order. */
  readonly above: (query: string) => ReadonlyArray<string>
  /** The single candidate at or above the threshold, if there is exactly one. */
  readonly match: (query: string) => string | undefined
}

const single = (found: ReadonlyArray<string>): string | undefined => (found.length === 1 ? found[0] : undefined)

const sortedUnique = (values: ReadonlyArray<string>): Array<string> =>
  [...new Set(values)].sort(compareIds)

/** The unpruned comparison, kept as the oracle the index must agree with. */
export const bruteForce = (candidates: ReadonlyArray<string>, threshold = NEAR_MISS_THRESHOLD): NearMissIndex => {
  const unique = sortedUnique(candidates)
  const above = (query: string) => unique.filter((candidate) => jaroWinkler(query, candidate) >= threshold)
  return { above, match: (query) => single(above(query)) }
}

export const makeIndex = (candidates: ReadonlyArray<string>, threshold = NEAR_MISS_THRESHOLD): NearMissIndex => {
  // The shortest length, as a fraction of the longest, that can still reach the threshold (0.6 at 0.92).
  const lengthRatio = Math.max(0, 3 * ((threshold - 0.4) / 0.6) - 2)
  const byLength = sortedUnique(candidates).sort((a, b) => a.length - b.length || compareIds(a, b))
  const lengths = byLength.map((candidate) => candidate.length)
  const counts = byLength.map(slotCounts)
  const firstOfLength = (length: number): number => {
    let low = 0
    let high = lengths.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (lengths[middle]! < length) low = middle + 1
      else high = middle
    }
    return low
  }
  const above = (query: string): ReadonlyArray<string> => {
    // Jaro-Winkler calls two empty strings equal and an empty string nothing like anything else.
    if (query.length === 0) return byLength.filter((candidate) => candidate.length === 0)
    const queryCounts = slotCounts(query)
    const slots: Array<number> = []
    for (let slot = 0; slot < 128; slot++) if (queryCounts[slot]! > 0) slots.push(slot)
    // A generous window on length; the exact bound is checked per candidate below.
    const from = firstOfLength(Math.floor(query.length * lengthRatio) - 1)
    const to = lengthRatio > 0 ? firstOfLength(Math.ceil(query.length / lengthRatio) + 2) : lengths.length
    const found: Array<string> = []
    for (let index = from; index < to; index++) {
      const length = lengths[index]!
      if (upperBound(Math.min(query.length, length), query.length, length) < threshold - SLACK) continue
      const candidateCounts = counts[index]!
      let shared = 0
      for (const slot of slots) shared += Math.min(queryCounts[slot]!, candidateCounts[slot]!)
      if (upperBound(Math.min(shared, query.length, length), query.length, length) < threshold - SLACK) continue
      const candidate = byLength[index]!
      if (jaroWinkler(query, candidate) >= threshold) found.push(candidate)
    }
    return found.sort(compareIds)
  }
  return { above, match: (query) => single(above(query)) }
}
