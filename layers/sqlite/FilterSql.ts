/**
 * The retrieval filter as SQL, so an index applies it inside its query and still fills `limit`.
 * Each clause means what `compile` in src/ports/RetrievalFilter.ts means; the legs apply
 * `compile` again to what they return, so a clause that admitted too much still cannot leak.
 */
import type { SQLInputValue } from "node:sqlite"
import { instantMillis } from "../../src/domain/Instant.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"

/** A `WHERE` fragment and its parameters, in order. */
export interface Clause {
  readonly sql: string
  readonly params: ReadonlyArray<SQLInputValue>
}

/**
 * Whole-segment prefix match: `path = p` or `p/ <= path < p0` (`0` is the byte after `/`, so the
 * range is exactly the paths starting `p/`, and the path index serves it). Undefined when some
 * prefix admits everything.
 */
const pathClause = (column: string, prefixes: ReadonlyArray<string>): Clause | undefined => {
  if (prefixes.length === 0) return undefined
  const parts: Array<string> = []
  const params: Array<SQLInputValue> = []
  for (const prefix of prefixes) {
    const bare = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix
    if (bare === "") return undefined
    parts.push(`${column} = ? OR (${column} >= ? AND ${column} < ?)`)
    params.push(bare, `${bare}/`, `${bare}0`)
  }
  return { sql: `(${parts.map((part) => `(${part})`).join(" OR ")})`, params }
}

interface Columns {
  readonly superseded: string
  readonly noteType: string
  readonly createdMs: string
}

const clauses = (filter: RetrievalFilter, columns: Columns): { parts: Array<string>; params: Array<SQLInputValue> } => {
  const parts: Array<string> = []
  const params: Array<SQLInputValue> = []
  if (filter.includeSuperseded !== true) parts.push(`${columns.superseded} = 0`)
  if (filter.types !== undefined && filter.types.length > 0) {
    parts.push(`${columns.noteType} IN (${filter.types.map(() => "?").join(", ")})`)
    params.push(...filter.types)
  }
  // An unreadable `since` is no clause, as in `compile`.
  const since = filter.since === undefined ? Number.NaN : instantMillis(filter.since)
  if (!Number.isNaN(since)) {
    parts.push(`${columns.createdMs} >= ?`)
    params.push(since)
  }
  return { parts, params }
}

const join = (parts: ReadonlyArray<string>, params: ReadonlyArray<SQLInputValue>): Clause =>
  ({ sql: parts.length === 0 ? "1" : parts.join(" AND "), params })

/** The filter over the `chunks` table aliased `alias`. */
export const chunkClause = (filter: RetrievalFilter, alias: string): Clause => {
  const { parts, params } = clauses(filter, {
    superseded: `${alias}.superseded`,
    noteType: `${alias}.note_type`,
    createdMs: `${alias}.created_ms`
  })
  const paths = filter.paths === undefined ? undefined : pathClause(`${alias}.path`, filter.paths)
  if (paths !== undefined) {
    parts.push(paths.sql)
    params.push(...paths.params)
  }
  return join(parts, params)
}

/**
 * The filter inside a vec0 KNN query: superseded, type and date on the vector table's own
 * metadata columns (vec0 tests them during its scan), paths as a set of chunk rows.
 */
export const vectorClause = (filter: RetrievalFilter): Clause => {
  const { parts, params } = clauses(filter, { superseded: "superseded", noteType: "note_type", createdMs: "created_ms" })
  const paths = filter.paths === undefined ? undefined : pathClause("c.path", filter.paths)
  if (paths !== undefined) {
    parts.push(`rowid IN (SELECT c.row FROM chunks c WHERE ${paths.sql})`)
    params.push(...paths.params)
  }
  return join(parts, params)
}
