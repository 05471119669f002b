/**
 * The one total order of a ranking: score descending, then chunk id ascending by code unit.
 * Every list cairn emits is sorted with it, so ties never depend on arrival order.
 */
import type { Candidate } from "./Candidate.ts"

export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Score descending, then `key` ascending by code unit: the order every scored list is sorted in. */
export const byScoreThen = <A extends { readonly score: number }>(key: (a: A) => string) => (a: A, b: A): number =>
  a.score !== b.score ? (b.score > a.score ? 1 : -1) : compareIds(key(a), key(b))

/** A hit's order: score descending, then its id. */
export const byScoreThenId: <A extends { readonly id: string; readonly score: number }>(a: A, b: A) => number = byScoreThen((a) => a.id)

/** A candidate's order: score descending, then its chunk's id. */
export const byScoreDescThenId: (a: Candidate, b: Candidate) => number = byScoreThen((c) => c.chunk.id)

export const sortCandidates = (candidates: ReadonlyArray<Candidate>): Array<Candidate> =>
  [...candidates].sort(byScoreDescThenId)
