/**
 * LexicalIndex over the index file's FTS5 table (`porter unicode61`, fed the analysed surfaces, see
 * docs/backends.md): the query's analysed terms quoted and OR-joined, ranked by `bm25()` with the
 * column weights, the retrieval filter joined in SQL and applied again to the chunks returned.
 * Scores are the same doubles LexicalIndexMemory computes.
 */
import { Effect, Layer, Schema } from "effect"
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite"
import { compareIds } from "../../src/domain/Ranking.ts"
import { stem } from "../../src/index/Porter.ts"
import { surfaces } from "../../src/index/Tokenizer.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { ColumnWeights as ColumnWeightsSchema, LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { RetrievalConfig } from "../../src/RetrievalConfig.ts"
import { Database } from "./Database.ts"
import { chunkClause } from "./FilterSql.ts"
import { chunksAtRows } from "./Rows.ts"

/**
 * The FTS5 MATCH expression of a question: one quoted, unstemmed surface per distinct stem, in
 * first-appearance order, OR-joined (FTS5's implicit operator is AND, which a question would
 * almost never satisfy). FTS5 stems each surface to the stem the reference index uses. Empty
 * when the question has no terms.
 */
export const matchExpression = (query: string): string => {
  const seen = new Set<string>()
  const phrases: Array<string> = []
  for (const surface of surfaces(query)) {
    const term = stem(surface)
    if (seen.has(term)) continue
    seen.add(term)
    phrases.push(`"${surface.replaceAll("\"", "\"\"")}"`)
  }
  return phrases.join(" OR ")
}

interface Ranked {
  readonly row: number
  /** `bm25()` as FTS5 returns it: lower is better. */
  readonly rank: number
}

/**
 * The best `want` rows by rank, plus every row tied with the last of them (SQL breaks ties
 * arbitrarily, the port by id), or all rows when `want` is infinite. `exhausted` says nothing
 * ranked below was left out.
 */
const topRows = (statement: StatementSync, params: ReadonlyArray<SQLInputValue>, want: number): { rows: Array<Ranked>; exhausted: boolean } => {
  if (!Number.isFinite(want)) return { rows: statement.all(...params, -1) as unknown as Array<Ranked>, exhausted: true }
  const rows = statement.all(...params, want + 1) as unknown as Array<Ranked>
  if (rows.length <= want) return { rows, exhausted: true }
  const boundary = rows[want - 1]!.rank
  if (rows[want]!.rank !== boundary) return { rows: rows.slice(0, want), exhausted: false }
  const tied: Array<Ranked> = []
  for (const row of statement.iterate(...params, -1) as Iterable<Ranked>) {
    if (row.rank > boundary) return { rows: tied, exhausted: false }
    tied.push(row)
  }
  return { rows: tied, exhausted: true }
}

const search = (db: DatabaseSync, weights: ColumnWeights) => {
  // Statements by filter shape; a process sees a handful of shapes.
  const statements = new Map<string, StatementSync>()
  const statementFor = (where: string): StatementSync => {
    let statement = statements.get(where)
    if (statement === undefined) {
      statement = db.prepare(
        "SELECT c.row AS row, bm25(chunks_fts, ?, ?, ?) AS rank FROM chunks_fts JOIN chunks c ON c.row = chunks_fts.rowid " +
          `WHERE chunks_fts MATCH ? AND ${where} ORDER BY rank LIMIT ?`
      )
      statements.set(where, statement)
    }
    return statement
  }

  return (query: string, limit: number, filter: RetrievalFilter): Array<LexicalHit> => {
    const k = Math.floor(limit)
    if (!(k > 0)) return []
    const expression = matchExpression(query)
    if (expression === "") return []
    const clause = chunkClause(filter, "c")
    const statement = statementFor(clause.sql)
    const params: Array<SQLInputValue> = [weights.text, weights.title, weights.tags, expression, ...clause.params]
    const passes = compile(filter)
    // The SQL filter and `compile` agree, so one pass is the rule; the loop only guards the
    // promise of `limit` hits should they ever disagree.
    for (let want = k; ; want *= 2) {
      const { rows, exhausted } = topRows(statement, params, want)
      const chunks = chunksAtRows(db, rows.map((row) => row.row))
      const hits: Array<LexicalHit> = []
      for (const { row, rank } of rows) {
        const chunk = chunks.get(row)
        if (chunk !== undefined && passes(chunk)) hits.push({ id: chunk.id, score: -rank })
      }
      if (hits.length >= k || exhausted) {
        return hits.sort((a, b) => (b.score - a.score) || compareIds(a.id, b.id)).slice(0, k)
      }
    }
  }
}

const unavailable = (error: unknown) =>
  new LexicalIndexError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

/** Over the Database service, with `weights` or else RetrievalConfig's `lexicalWeights`. */
export const make = Effect.fnUntraced(function*(weights?: ColumnWeights) {
  const { connection } = yield* Database
  const chosen = weights ?? (yield* RetrievalConfig).lexicalWeights
  const checked = yield* Schema.decodeUnknownEffect(ColumnWeightsSchema)(chosen).pipe(
    Effect.mapError(() => new LexicalIndexError({ reason: "invalid_weights", detail: JSON.stringify(chosen) }))
  )
  const run = search(connection, checked)
  return LexicalIndex.of({
    search: (query, limit, filter) => Effect.try({ try: () => run(query, limit, filter), catch: unavailable })
  })
})

export const layer = (weights?: ColumnWeights): Layer.Layer<LexicalIndex, LexicalIndexError, Database> =>
  Layer.effect(LexicalIndex, make(weights))
