/**
 * How a file ranking is scored against a commit's relevant files: the reciprocal rank of the first
 * relevant file (0 when none is ranked) and whether one is in the first k. Means over items, with
 * the per-item figures kept for paired bootstrap.
 */

/** 1-based rank of the first relevant path in `ranking`, or undefined. */
export const firstRelevantRank = (ranking: ReadonlyArray<string>, relevant: ReadonlyArray<string>): number | undefined => {
  const wanted = new Set(relevant)
  const at = ranking.findIndex((path) => wanted.has(path))
  return at === -1 ? undefined : at + 1
}

export interface ItemScore {
  readonly reciprocalRank: number
  readonly hitAt5: number
}

export const scoreRanking = (ranking: ReadonlyArray<string>, relevant: ReadonlyArray<string>): ItemScore => {
  const rank = firstRelevantRank(ranking, relevant)
  return { reciprocalRank: rank === undefined ? 0 : 1 / rank, hitAt5: rank !== undefined && rank <= 5 ? 1 : 0 }
}

export const mean = (values: ReadonlyArray<number>): number => (values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length)
