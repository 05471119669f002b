/**
 * pgvector's HNSW index for one repository's vectors, kept by the writer and read by the vector
 * leg. Exact search scans every vector of the repository, which grows with it; above
 * `minVectors` the writer builds an HNSW index in the write's transaction (atomic with it, so an
 * interrupted write leaves no half-built index), and drops it when the repository shrinks below.
 * Vectors of every repository share one table and may differ in length, so the index is partial
 * (its repository's rows of its dimension) over a cast to that dimension, which a question's query
 * repeats word for word: the planner matches an index by its expression and predicate. The
 * dimension is in the predicate because a build also reads rows deleted but not yet vacuumed (a
 * space replaced in the same transaction), and the predicate is what keeps the cast off them. The
 * repository goes in as a literal, since a parameter cannot prove a partial index's predicate.
 * Searches through it are approximate: docs/postgres.md says what they cost and recall.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * The size from which a repository's vectors get an HNSW index: on `npm run bench:hnsw` an exact
 * scan took 73 ms a question at 10,000 vectors against 14 ms through the index (figures in
 * docs/postgres.md); below it, search stays exact and deterministic.
 */
export const DEFAULT_MIN_VECTORS = 10_000

/**
 * Candidates the graph search keeps (pgvector's `ef_search`): its most, 1,000. On bench:hnsw's
 * 10,000 hashing-model vectors, 264 found 0.753 of the exact nearest 10 and 1,000 found 0.960,
 * for about 4 ms more a question (10.3 against 14.1 ms).
 */
export const SEARCH_BREADTH = 1_000

/** A string as an SQL literal (standard-conforming strings, PostgreSQL's default since 9.1). */
export const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`

const prefixOf = (repository: string): string =>
  `cairn_hnsw_${createHash("sha256").update(repository).digest("hex").slice(0, 16)}_`

/** The index's name: its repository's (hashed, since names are short) and its dimension. */
export const indexName = (repository: string, dimension: number): string => `${prefixOf(repository)}${dimension}`

/** The expression the index is built over, and a question orders by. */
export const distance = (column: string, query: string, dimension: number): string =>
  `(${column}::vector(${dimension}) <=> ${query}::vector(${dimension}))`

/** The rows the index holds: `alias` is the table's name in the query, with its dot, or "". */
export const predicate = (alias: string, repository: string, dimension: number): string =>
  `${alias}repository = ${literal(repository)} AND vector_dims(${alias}embedding) = ${dimension}`

/**
 * Settings for the transaction of one search: its breadth, and an iterative scan, which goes on
 * past the breadth until a filtered or long cut is full, in order of distance.
 */
export const searchSettings = (sql: SqlClient) =>
  sql.unsafe(
    "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'strict_order', true)",
    [String(SEARCH_BREADTH)]
  )

const indexesOf = (sql: SqlClient, repository: string) =>
  sql.unsafe<{ name: string }>(
    "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'cairn_vectors' AND starts_with(indexname, $1) ORDER BY indexname",
    [prefixOf(repository)]
  )

/** The name of the repository's index, if it has one. */
export const present = (sql: SqlClient, repository: string) => Effect.map(indexesOf(sql, repository), (rows) => rows[0]?.name)

/**
 * Makes the repository's index what its vectors call for, inside the caller's transaction: one
 * over the current dimension when there are at least `minVectors` of them, none otherwise.
 */
export const settle = Effect.fn("PgHnsw.settle")(function*(
  sql: SqlClient,
  repository: string,
  options: { readonly count: number; readonly dimension: number | undefined; readonly minVectors: number }
) {
  const { dimension } = options
  const wanted = dimension !== undefined && options.count >= options.minVectors ? indexName(repository, dimension) : undefined
  const existing = yield* indexesOf(sql, repository)
  for (const { name } of existing) if (name !== wanted) yield* sql.unsafe(`DROP INDEX "${name}"`)
  if (dimension === undefined || wanted === undefined || existing.some(({ name }) => name === wanted)) return
  yield* sql.unsafe(
    `CREATE INDEX "${wanted}" ON cairn_vectors USING hnsw ((embedding::vector(${dimension})) vector_cosine_ops) ` +
      `WHERE ${predicate("", repository, dimension)}`
  )
  // A planner without statistics of the rows just written would sort them instead of reading the index.
  yield* sql.unsafe("ANALYZE cairn_vectors, cairn_chunks")
})
