/**
 * The sentence a conflict carries: each side's value and when it was said, older side first, as in
 * `24h (Mar) vs 1h (Jun). Neither superseded.` The year is added to every dated side only when the
 * sides' years differ; a side with no readable date says `(date unknown)` and goes last.
 */
import { instantMillis } from "../../domain/Instant.ts"
import { compareIds } from "../../domain/Ranking.ts"

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

export interface NoteSide {
  /** What the side says: `24h`, `3 replicas`, `Kafka`, `never stores`. */
  readonly label: string
  /** `provenance.createdAt` of each statement on the side. */
  readonly createdAt: ReadonlyArray<string | null>
  /** Orders two sides with the same date and label. */
  readonly tieBreak: string
}

/** UTC year and month of an instant, by civil-calendar arithmetic (no clock, no Date). */
const yearMonth = (millis: number): { year: number; month: number } => {
  const z = Math.floor(millis / 86_400_000) + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month }
}

/** The latest readable date of a side: when its value was last said. NaN when none is readable. */
const latestMillis = (createdAt: ReadonlyArray<string | null>): number => {
  let latest = Number.NaN
  for (const text of createdAt) {
    const millis = text === null ? Number.NaN : instantMillis(text)
    if (!Number.isNaN(millis) && !(millis <= latest)) latest = millis
  }
  return latest
}

export const conflictNote = (sides: ReadonlyArray<NoteSide>): string => {
  const dated = sides
    .map((side) => ({ ...side, millis: latestMillis(side.createdAt) }))
    .sort((x, y) => {
      const unknown = Number(Number.isNaN(x.millis)) - Number(Number.isNaN(y.millis))
      if (unknown !== 0) return unknown
      if (!Number.isNaN(x.millis) && x.millis !== y.millis) return x.millis - y.millis
      return compareIds(x.label, y.label) || compareIds(x.tieBreak, y.tieBreak)
    })
  const dates = dated.map((side) => (Number.isNaN(side.millis) ? undefined : yearMonth(side.millis)))
  const years = new Set(dates.filter((d) => d !== undefined).map((d) => d.year))
  const when = (d: { year: number; month: number } | undefined): string =>
    d === undefined ? "date unknown" : years.size > 1 ? `${MONTHS[d.month - 1]} ${d.year}` : MONTHS[d.month - 1]!
  return `${dated.map((side, i) => `${side.label} (${when(dates[i])})`).join(" vs ")}. Neither superseded.`
}
