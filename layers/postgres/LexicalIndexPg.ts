/**
 * LexicalIndex over the postings table: BM25 with the reference layer's arithmetic
 * (LexicalIndexMemory: k1 1.2, b 0.75, idf `log((N - n + 0.5) / (n + 0.5))` floored at 1e-6, one
 * length over all columns, column weights folded into the term frequency). The idf and every
 * constant are computed here and passed as doubles, and the server sums each chunk's terms in the
 * query's order, so its scores are the reference's bit for bit (for weights whose repeated sum
 * equals their product, as the shipped integer weights do). The filter runs in SQL and again on
 * the chunks returned.
 */
import { Effect, Layer, Schema } from "effect"
import { byScoreThenId } from "../../src/domain/Ranking.ts"
import type { LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { ColumnWeights as ColumnWeightsSchema, type ColumnWeights, LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { RetrievalConfig } from "../../src/RetrievalConfig.ts"
import { stem } from "../../src/text/Porter.ts"
import { queryTerms } from "../../src/text/Words.ts"
import { chunkClause, numberArray, Params, supersededOnly, textArray } from "./PgFilter.ts"
import { PgIndex } from "./PgIndex.ts"
import { toChunk } from "./PgRows.ts"
import { abandonable } from "./Reconnecting.ts"

// FTS5's constants, as the reference fixes them; not tunables.
const K1 = 1.2
const B = 0.75
const IDF_FLOOR = 1e-6

const unavailable = (error: unknown) =>
  new LexicalIndexError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

export interface Options {
  /** Column weights; RetrievalConfig's `lexicalWeights` when absent. */
  readonly weights?: ColumnWeights
}

export const make = Effect.fnUntraced(function*(options: Options = {}) {
  const { sql, repository } = yield* PgIndex
  const guard = abandonable(sql)
  const chosen = options.weights ?? (yield* RetrievalConfig).lexicalWeights
  const weights = yield* Schema.decodeUnknownEffect(ColumnWeightsSchema)(chosen).pipe(
    Effect.mapError(() => new LexicalIndexError({ reason: "invalid_weights", detail: JSON.stringify(chosen) }))
  )

  const search = Effect.fn("LexicalIndexPg.search")(function*(query: string, limit: number, filter: Parameters<typeof compile>[0]) {
    const terms = queryTerms(query)
    if (!(limit > 0) || terms.length === 0) return [] as ReadonlyArray<LexicalHit>
    const [totals] = yield* sql.unsafe<{ chunks: number; tokens: string }>(
      "SELECT chunk_count AS chunks, token_total::text AS tokens FROM cairn_manifest WHERE repository = $1",
      [repository]
    )
    const n = Number(totals?.chunks ?? 0)
    if (n === 0) return []
    const frequencies = yield* sql.unsafe<{ term: string; df: number }>(
      "SELECT term, count(*)::int AS df FROM cairn_postings WHERE repository = $1 AND term = ANY($2::text[]) GROUP BY term",
      [repository, textArray(terms)]
    )
    const df = new Map(frequencies.map((row) => [row.term, Number(row.df)] as const))
    const held = terms.filter((term) => df.has(term))
    if (held.length === 0) return []
    const idfs = held.map((term) => {
      const idf = Math.log((n - df.get(term)! + 0.5) / (df.get(term)! + 0.5))
      return idf <= 0 ? IDF_FLOOR : idf
    })
    const avgdl = Number(totals!.tokens) / n
    const params = new Params()
    params.add(repository)
    const q = { terms: params.add(textArray(held)), idfs: params.add(numberArray(idfs)) }
    const c = {
      k1: params.add(K1), k1p1: params.add(K1 + 1), omb: params.add(1 - B), b: params.add(B), avgdl: params.add(avgdl),
      text: params.add(weights.text), title: params.add(weights.title), tags: params.add(weights.tags)
    }
    const cut = Number.isFinite(limit) ? ` LIMIT ${params.add(Math.floor(limit))}` : ""
    const f = `(p.tf_text * ${c.text}::float8 + p.tf_title * ${c.title}::float8 + p.tf_tags * ${c.tags}::float8)`
    const score = `sum(q.idf * ((${f} * ${c.k1p1}::float8) / (${f} + ${c.k1}::float8 * (${c.omb}::float8 + ${c.b}::float8 * p.token_count / ${c.avgdl}::float8))) ORDER BY q.ord)`
    // The default filter reads only what the postings repeat of their chunk; any other joins the chunks.
    const where = supersededOnly(filter)
      ? (filter.includeSuperseded === true ? "TRUE" : "NOT p.superseded")
      : chunkClause(filter, "c", params)
    const join = supersededOnly(filter) ? "" : "JOIN cairn_chunks c ON c.repository = p.repository AND c.id = p.chunk_id "
    const rows = yield* sql.unsafe<{ id: string; score: number; body: string }>(
      `WITH q AS (SELECT * FROM unnest(${q.terms}::text[], ${q.idfs}::float8[]) WITH ORDINALITY AS t(term, idf, ord)), ` +
        `best AS (SELECT p.chunk_id, ${score} AS score FROM q JOIN cairn_postings p ON p.repository = $1 AND p.term = q.term ` +
        `${join}WHERE ${where} GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id${cut}) ` +
        `SELECT b.chunk_id AS id, b.score, c.body FROM best b JOIN cairn_chunks c ON c.repository = $1 AND c.id = b.chunk_id ` +
        `ORDER BY b.score DESC, b.chunk_id`,
      params.values
    )
    const passes = compile(filter)
    return rows.filter((row) => passes(toChunk(row.body))).map((row): LexicalHit => ({ id: row.id as LexicalHit["id"], score: Number(row.score) }))
      .sort(byScoreThenId)
  }, Effect.mapError(unavailable), guard)

  return LexicalIndex.of({
    search,
    documentFrequencies: (words, cap) =>
      Effect.gen(function*() {
        if (words.length === 0) return []
        const stems = words.map(stem)
        const rows = yield* sql.unsafe<{ term: string; df: number }>(
          "SELECT t.term, (SELECT count(*)::int FROM (SELECT 1 FROM cairn_postings p WHERE p.repository = $1 AND p.term = t.term LIMIT $3) held) AS df " +
            "FROM unnest($2::text[]) AS t(term)",
          [repository, textArray([...new Set(stems)]), Math.max(0, Math.floor(cap))]
        )
        const counts = new Map(rows.map((row) => [row.term, Number(row.df)] as const))
        return stems.map((term) => Math.min(cap, counts.get(term) ?? 0))
      }).pipe(Effect.mapError(unavailable), guard)
  })
})

export const layer = (options: Options = {}): Layer.Layer<LexicalIndex, LexicalIndexError, PgIndex> =>
  Layer.effect(LexicalIndex, make(options))
