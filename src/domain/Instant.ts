/**
 * Instants as callers write them: an ISO-8601 date, or a date-time that names its zone. Shared by
 * the query's `since` filter and every leg that applies it, so a date one accepts the other reads.
 */
import { Schema } from "effect"

// A date, or a date and time that names its zone: an instant without a zone would be read in the
// machine's local time, and the same filter would then mean different things on different hosts.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/

/**
 * Milliseconds since the epoch for an ISO-8601 date (`YYYY-MM-DD`, read as UTC midnight) or a
 * date-time with `Z` or an offset; `NaN` for anything else, including impossible dates.
 */
export const instantMillis = (text: string): number => {
  const m = INSTANT.exec(text)
  if (m === null) return Number.NaN
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "0", zone = "Z"] = m
  const year = Number(y), month = Number(mo), day = Number(d)
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  if (monthDays === undefined || day < 1 || day > monthDays || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return Number.NaN
  }
  const utc = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), Math.floor(Number(`0.${frac}`) * 1000))
  if (zone === "Z") return utc
  const sign = zone.startsWith("-") ? -1 : 1
  const digits = zone.slice(1).replace(":", "")
  return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000
}

/** An ISO-8601 date, or date-time with a zone, that {@link instantMillis} can read. */
export const IsoInstant = Schema.String.check(
  Schema.makeFilter((text: string) => !Number.isNaN(instantMillis(text)), {
    expected: "an ISO-8601 date (YYYY-MM-DD) or a date-time with Z or an offset"
  })
)
