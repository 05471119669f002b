/**
 * Fitting and reporting the answerability floor: the score below which recall says it may not
 * know (`low_confidence`). Unanswerable questions are the positives here: "fires" means the gap
 * was given, so recall is the share of unanswerable questions flagged and the false-alarm rate the
 * share of answerable ones.
 */

export interface Scored {
  readonly score: number
  readonly unanswerable: boolean
}

export interface Rates {
  /** Unanswerable questions flagged, of all unanswerable. */
  readonly recall: number
  /** Flagged questions that are unanswerable, of all flagged (1 when none is flagged). */
  readonly precision: number
  /** Answerable questions flagged, of all answerable. */
  readonly falseAlarms: number
  readonly unanswerable: number
  readonly answerable: number
}

const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole)

/** The rates when the gap is given to exactly the questions `flagged` says. */
export const ratesOf = <A extends { readonly unanswerable: boolean }>(items: ReadonlyArray<A>, flagged: (item: A) => boolean): Rates => {
  const negatives = items.filter((i) => i.unanswerable)
  const positives = items.filter((i) => !i.unanswerable)
  const caught = negatives.filter(flagged).length
  const alarms = positives.filter(flagged).length
  return {
    recall: share(caught, negatives.length),
    precision: caught + alarms === 0 ? 1 : caught / (caught + alarms),
    falseAlarms: share(alarms, positives.length),
    unanswerable: negatives.length,
    answerable: positives.length
  }
}

/** The rates of the rule "flag when the score is below `floor`". */
export const ratesAt = (items: ReadonlyArray<Scored>, floor: number): Rates => ratesOf(items, (i) => i.score < floor)

/**
 * The floor that flags the most unanswerable questions while flagging at most `maxFalseAlarms` of
 * the answerable ones; among equals the lowest floor, which flags least. Candidate floors are the
 * scores themselves, rounded down to two decimals so the configured value reads plainly.
 */
export const fitFloor = (items: ReadonlyArray<Scored>, maxFalseAlarms: number): number => {
  const candidates = [...new Set([0, ...items.map((i) => Math.floor(i.score * 100) / 100)])].sort((a, b) => a - b)
  let best = 0
  let bestRecall = -1
  for (const floor of candidates) {
    const rates = ratesAt(items, floor)
    if (rates.falseAlarms <= maxFalseAlarms && rates.recall > bestRecall) {
      best = floor
      bestRecall = rates.recall
    }
  }
  return best
}

/** Probability that an unanswerable question scores below an answerable one (ties count half). */
export const separation = (items: ReadonlyArray<Scored>): number => {
  const negatives = items.filter((i) => i.unanswerable).map((i) => i.score)
  const positives = items.filter((i) => !i.unanswerable).map((i) => i.score)
  if (negatives.length === 0 || positives.length === 0) return 0
  let wins = 0
  for (const n of negatives) for (const p of positives) wins += n < p ? 1 : n === p ? 0.5 : 0
  return wins / (negatives.length * positives.length)
}
