/**
 * Ordering and rounding shared by every signal: ids compare by UTF-16 code unit (never by locale),
 * and a score is cut to six significant digits before anyone sees it, so a result never depends on
 * the last bits of floating-point arithmetic.
 */
import { byScoreThenId, compareIds } from "../domain/Ranking.ts"

export { byScoreThenId, compareIds }

const SIGNIFICANT_DIGITS = 6

/** `x` to six significant digits; `-0` becomes `0`. */
export const round = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(SIGNIFICANT_DIGITS)) + 0)

