/**
 * The filter every retrieval leg honours: which chunks a query may see at all. The same predicate
 * runs inside an index (so a leg still returns `limit` hits) and again over materialised
 * candidates, so superseded words cannot reach a pack through a leg that filters loosely.
 */
import { Schema } from "effect"
import type { Chunk } from "../domain/Chunk.ts"
import { NoteType } from "../domain/Chunk.ts"

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

export const RetrievalFilter = Schema.Struct({
  /** Only chunks of these note types; absent or empty means every type. */
  types: Schema.optional(Schema.Array(NoteType)),
  /**
   * Only chunks whose words are at least this recent (`provenance.createdAt >= since`); a chunk
   * whose age is unknown or unreadable is kept, because absence of a date is not evidence of age.
   */
  since: Schema.optional(IsoInstant),
  /**
   * Only chunks under one of these repository-relative paths, matched on whole path segments
   * (`docs` admits `docs/a.md` and `docs`, not `docs-old/a.md`); absent or empty means everywhere.
   */
  pathPrefixes: Schema.optional(Schema.Array(Schema.String)),
  /** Admit superseded chunks (trust state or status `superseded`). Default false. */
  includeSuperseded: Schema.optional(Schema.Boolean)
})
export type RetrievalFilter = typeof RetrievalFilter.Type

/** No caller clauses: everything except superseded chunks. */
export const defaults: RetrievalFilter = {}

export const decode = Schema.decodeUnknownEffect(RetrievalFilter)

const underPrefix = (path: string, prefix: string): boolean => {
  const bare = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix
  if (bare === "") return true
  return path === bare || path.startsWith(`${bare}/`)
}

/**
 * Compiles a filter once into a predicate (the date is parsed here, not per chunk). Indexes call
 * this per query and then test every candidate.
 */
export const compile = (filter: RetrievalFilter): (chunk: Chunk) => boolean => {
  const types = filter.types !== undefined && filter.types.length > 0 ? new Set(filter.types) : undefined
  const since = filter.since === undefined ? Number.NaN : instantMillis(filter.since)
  const prefixes = filter.pathPrefixes !== undefined && filter.pathPrefixes.length > 0 ? filter.pathPrefixes : undefined
  const includeSuperseded = filter.includeSuperseded === true
  return (chunk) => {
    if (!includeSuperseded && (chunk.provenance.state === "superseded" || chunk.status === "superseded")) return false
    if (types !== undefined && !types.has(chunk.noteType)) return false
    if (!Number.isNaN(since) && chunk.provenance.createdAt !== null) {
      // NaN (an unreadable date) compares false, so such a chunk is kept like an unknown one.
      if (instantMillis(chunk.provenance.createdAt) < since) return false
    }
    if (prefixes !== undefined && !prefixes.some((prefix) => underPrefix(chunk.path, prefix))) return false
    return true
  }
}

/** Whether `chunk` passes `filter`. Pure; equal to `compile(filter)(chunk)`. */
export const matchesFilter = (chunk: Chunk, filter: RetrievalFilter): boolean => compile(filter)(chunk)
