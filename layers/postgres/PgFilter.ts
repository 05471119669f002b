/**
 * The retrieval filter as a PostgreSQL `WHERE` fragment, each clause meaning what `compile` in
 * src/ports/RetrievalFilter.ts means (as FilterSql.ts says it for SQLite). The legs apply `compile`
 * again to what they return, so a clause that admitted too much still cannot leak.
 */
import { instantMillis } from "../../src/domain/Instant.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"

/** Positional parameters of one statement: `add` stores a value and names its placeholder. */
export class Params {
  readonly values: Array<unknown> = []
  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/** A PostgreSQL array literal of text values, quoted: one parameter however long the list. */
export const textArray = (values: ReadonlyArray<string>): string =>
  `{${values.map((value) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`

/** A float8[] or real[] literal; numbers print exactly as JavaScript reads them back. */
export const numberArray = (values: ArrayLike<number>): string => {
  const parts: Array<string> = []
  for (let i = 0; i < values.length; i++) parts.push(String(values[i]))
  return `{${parts.join(",")}}`
}

/**
 * The filter over `cairn_chunks` aliased `alias`. Paths match by whole segment: `path = p` or
 * `p/ <= path < p0` (byte order, `0` the byte after `/`).
 */
export const chunkClause = (filter: RetrievalFilter, alias: string, params: Params): string => {
  const parts: Array<string> = []
  if (filter.includeSuperseded !== true) parts.push(`NOT ${alias}.superseded`)
  if (filter.types !== undefined && filter.types.length > 0) parts.push(`${alias}.note_type = ANY(${params.add(textArray(filter.types))}::text[])`)
  // An unreadable `since` is no clause, as in `compile`.
  const since = filter.since === undefined ? Number.NaN : instantMillis(filter.since)
  if (!Number.isNaN(since)) parts.push(`${alias}.created_ms >= ${params.add(since)}::float8`)
  const bare = (filter.paths ?? []).map((prefix) => (prefix.endsWith("/") ? prefix.slice(0, -1) : prefix))
  // No prefixes, or one that admits everything: no clause.
  if (bare.length > 0 && !bare.includes("")) {
    const path = `${alias}.path`
    const alternatives = bare.map((p) => `(${path} = ${params.add(p)} OR (${path} >= ${params.add(`${p}/`)} AND ${path} < ${params.add(`${p}0`)}))`)
    parts.push(`(${alternatives.join(" OR ")})`)
  }
  return parts.length === 0 ? "TRUE" : parts.join(" AND ")
}

/** Whether `filter` asks no more than the superseded clause (no types, date or paths that narrow). */
export const supersededOnly = (filter: RetrievalFilter): boolean => {
  if (filter.types !== undefined && filter.types.length > 0) return false
  if (filter.since !== undefined && !Number.isNaN(instantMillis(filter.since))) return false
  const bare = (filter.paths ?? []).map((prefix) => (prefix.endsWith("/") ? prefix.slice(0, -1) : prefix))
  return bare.length === 0 || bare.includes("")
}
