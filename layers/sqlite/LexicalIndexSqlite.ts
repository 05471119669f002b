/**
 * LexicalIndex over the index file's FTS5 table (`porter unicode61`, fed the analysed surfaces, see
 * docs/backends.md): the query's analysed terms quoted and OR-joined, ranked by `bm25()` with the
 * column weights, the retrieval filter joined in SQL and applied again to the chunks returned.
 * Scores are the doubles LexicalIndexMemory computes (up to the last bits of `log`).
 */
import { Effect, Layer, Schema } from "effect"
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { byScoreThenId } from "../../src/domain/Ranking.ts"
import { matchExpression, type Phrase, phrasesOf } from "../../src/text/Fts5Phrases.ts"
import { stem } from "../../src/text/Porter.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { ColumnWeights as ColumnWeightsSchema, LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile, type FilterSubject } from "../../src/ports/RetrievalFilter.ts"
import { RetrievalConfig } from "../../src/RetrievalConfig.ts"
import { Database } from "./Database.ts"
import type { Clause } from "./FilterSql.ts"
import { chunkClause } from "./FilterSql.ts"
import { feed } from "./FtsFeed.ts"
import type { Totals } from "./Fts5Stats.ts"
import { idf, K1, rowLengths, score, totals } from "./Fts5Stats.ts"
import { chunksAtRows, filterSubjectsAtRows } from "./Rows.ts"

interface Ranked {
  readonly row: number
  /** `bm25()` as FTS5 returns it: lower is better. */
  readonly rank: number
}

/**
 * The best `want` rows by FTS5's rank, plus every row within rounding of the last of them (the
 * final order is decided by exact scores and ids, not by SQL), or all rows when `want` is
 * infinite. `exhausted` says no matching row was left out.
 */
const topRows = (statement: StatementSync, params: ReadonlyArray<SQLInputValue>, want: number): { rows: Array<Ranked>; exhausted: boolean } => {
  if (!Number.isFinite(want)) return { rows: statement.all(...params, -1) as unknown as Array<Ranked>, exhausted: true }
  // Room for a tie at the cut: FTS5 ranks every match either way, so a deeper limit costs little,
  // and asking again for the rest would rank them all a second time.
  const fetched = 4 * want + 1
  const rows = statement.all(...params, fetched) as unknown as Array<Ranked>
  if (rows.length <= want) return { rows, exhausted: true }
  const boundary = rows[want - 1]!.rank
  const edge = boundary + 1e-12 * Math.max(1, Math.abs(boundary))
  let end = want
  while (end < rows.length && rows[end]!.rank <= edge) end++
  if (end < rows.length) return { rows: rows.slice(0, end), exhausted: false }
  if (rows.length < fetched) return { rows, exhausted: true }
  const near: Array<Ranked> = []
  for (const row of statement.iterate(...params, -1) as Iterable<Ranked>) {
    if (row.rank > edge) return { rows: near, exhausted: false }
    near.push(row)
  }
  return { rows: near, exhausted: true }
}

export interface Options {
  /** Column weights; RetrievalConfig's `lexicalWeights` when absent. */
  readonly weights?: ColumnWeights
  /**
   * `pruned` (the default) lets FTS5 rank only the rows holding the query's rarer terms and bounds
   * what the common ones can add; `exhaustive` has FTS5 rank every match. Both give the same hits; the second is the baseline
   * the first is tested and timed against.
   */
  readonly strategy?: "pruned" | "exhaustive"
}

/** Per phrase, each row holding it: its instances in the text, title and tags columns. */
type PhraseCounts = ReadonlyArray<ReadonlyMap<number, readonly [number, number, number]>>

interface Query {
  readonly phrases: ReadonlyArray<Phrase>
  /** Per phrase: the rows holding it, by FTS5's own count, and its idf as `bm25()` takes it. */
  readonly hits: ReadonlyArray<number>
  readonly idfs: ReadonlyArray<number>
  readonly corpus: Totals
  readonly k: number
  readonly clause: Clause
  readonly passes: (chunk: FilterSubject) => boolean
  /** The phrases' instances in `rows` as FTS5 indexed them; undefined where they cannot be read so. */
  readonly counts: (rows: ReadonlyArray<number>) => PhraseCounts | undefined
}

const COLUMN = { text: 0, title: 1, tags: 2 } as const

/**
 * FTS5 finds and orders candidates; the hits' scores are computed here, by the reference
 * arithmetic over FTS5's statistics, so they are the reference's doubles (FTS5's `log` may
 * differ from JavaScript's in the last bit, which would otherwise decide exact ties).
 */
const search = (db: DatabaseSync, weights: ColumnWeights, strategy: "pruned" | "exhaustive") => {
  // Statements by filter shape; a process sees a handful of shapes.
  const statements = new Map<string, StatementSync>()
  const statementFor = (where: string, limited: boolean): StatementSync => {
    const key = `${limited}|${where}`
    let statement = statements.get(key)
    if (statement === undefined) {
      statement = db.prepare(
        "SELECT c.row AS row, bm25(chunks_fts, ?, ?, ?) AS rank FROM chunks_fts JOIN chunks c ON c.row = chunks_fts.rowid " +
          `WHERE chunks_fts MATCH ? AND ${where} ORDER BY rank${limited ? " LIMIT ?" : ""}`
      )
      statements.set(key, statement)
    }
    return statement
  }
  // Without a filter but the default one, FTS5 ranks alone: joining `chunks` only to drop superseded
  // rows cost three times the ranking on a common term. `scored` drops them instead, and the cut
  // asks deeper until enough rows pass.
  const unfiltered = new Set(["1", chunkClause({}, "c").sql])
  const rankedAlone = db.prepare("SELECT rowid AS row, bm25(chunks_fts, ?, ?, ?) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?")
  const generationOf = db.prepare("SELECT generation FROM manifest WHERE key = 1")
  const phraseHits = db.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?")
  // Corpus statistics change only with a commit, so they are kept per generation.
  let cached: { generation: number; totals: Totals; hits: Map<string, number> } | undefined
  const statistics = (phrases: ReadonlyArray<Phrase>): { corpus: Totals; hits: Array<number>; idfs: Array<number> } => {
    const generation = Number((generationOf.get() as { generation: number } | undefined)?.generation ?? 0)
    if (cached === undefined || cached.generation !== generation) cached = { generation, totals: totals(db, "chunks_fts"), hits: new Map() }
    const { totals: corpus, hits: known } = cached
    const hits = phrases.map((phrase) => {
      let n = known.get(phrase.surface)
      if (n === undefined) {
        n = Number((phraseHits.get(matchExpression([phrase])) as { n: number }).n)
        known.set(phrase.surface, n)
      }
      return n
    })
    return { corpus, hits, idfs: hits.map((n) => idf(corpus.rows, n)) }
  }

  // The FTS5 index read term by term: `instance` has a row per (doc, col, offset), `row` a row per
  // term with the number of rows holding it. Private to this connection, so they need no write to
  // the file and a read-only open may create them.
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_fts_instances USING fts5vocab(main, chunks_fts, instance)")
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_fts_rows USING fts5vocab(main, chunks_fts, row)")
  // Counted in SQLite for the candidate rows only: a common term has instances in most of the
  // corpus, and handing each to JavaScript cost more than the question's whole lexical leg.
  const instancesIn = db.prepare(
    "SELECT doc, col, count(*) AS n FROM temp.cairn_fts_instances WHERE term = ? AND doc IN (SELECT value FROM json_each(?)) GROUP BY doc, col"
  )
  const rowsHolding = db.prepare("SELECT doc FROM temp.cairn_fts_rows WHERE term = ?")

  /**
   * The instances of each phrase in each of `rows`, from FTS5's index: the counts `bm25()` itself
   * takes, without analysing the candidates' text again (which cost a one-shot question more than
   * the read). Undefined when the rows holding a phrase's stem are not the rows MATCH counted for
   * its surface, that is when FTS5 made the surface into another term: the text is analysed then.
   */
  const indexedCounts = (phrases: ReadonlyArray<Phrase>, hits: ReadonlyArray<number>, rows: ReadonlyArray<number>): PhraseCounts | undefined => {
    const counts: Array<Map<number, [number, number, number]>> = []
    const candidates = JSON.stringify(rows)
    for (let i = 0; i < phrases.length; i++) {
      const stem = phrases[i]!.stem
      if (Number((rowsHolding.get(stem) as { doc: number } | undefined)?.doc ?? 0) !== hits[i]) return undefined
      const byRow = new Map<number, [number, number, number]>()
      for (const { col, doc, n } of instancesIn.iterate(stem, candidates) as Iterable<{ doc: number; col: keyof typeof COLUMN; n: number }>) {
        let columns = byRow.get(doc)
        if (columns === undefined) byRow.set(doc, columns = [0, 0, 0])
        columns[COLUMN[col]] += Number(n)
      }
      counts.push(byRow)
    }
    return counts
  }

  /**
   * Whether to count the phrases in the candidates' text rather than read them from FTS5's index:
   * the index's instances are read for every row holding a phrase, the text only for the
   * candidates. Where each word of a question is in a third of the rows, reading the instances
   * took most of the leg (about 70 of 130 ms over 76,000 chunks); where the words are rare, the
   * index is the cheaper. The counts are the same either way.
   */
  const analysingIsCheaper = (hits: ReadonlyArray<number>, candidates: number, corpus: Totals): boolean => {
    let holding = 0
    for (const n of hits) holding += n
    return holding > candidates * (corpus.tokens / Math.max(1, corpus.rows))
  }

  /** Column by column, instance by instance, as FTS5 adds a column's weight per instance. */
  const weighted = (counts: PhraseCounts, row: number): Array<number> =>
    counts.map((byRow) => {
      const [text, title, tags] = byRow.get(row) ?? [0, 0, 0]
      let f = 0
      for (let n = 0; n < text; n++) f += weights.text
      for (let n = 0; n < title; n++) f += weights.title
      for (let n = 0; n < tags; n++) f += weights.tags
      return f
    })

  /** The same from the chunk's text, analysed as it was fed to FTS5. */
  const analysed = (index: ReadonlyMap<string, number>, phrases: number, chunk: Chunk): Array<number> => {
    const freqs = new Array<number>(phrases).fill(0)
    const fed = feed(chunk.text, chunk.title, chunk.tags)
    for (const [column, weight] of [[fed[0], weights.text], [fed[1], weights.title], [fed[2], weights.tags]] as const) {
      if (column === "") continue
      for (const token of column.split(" ")) {
        const i = index.get(stem(token))
        if (i !== undefined) freqs[i] = freqs[i]! + weight
      }
    }
    return freqs
  }

  /** The scores of the chunks at `rows` that pass the filter, as `bm25()` defines them. */
  const scored = (query: Query, rows: ReadonlyArray<number>): Array<LexicalHit> => {
    const lengths = rowLengths(db, "chunks_fts", rows)
    const avgdl = query.corpus.tokens / query.corpus.rows
    const counts = query.counts(rows)
    // With the index's counts a hit needs only what the filter reads and the id, not the chunk's
    // text: reading whole rows for a few hundred candidates was most of the leg.
    const whole = counts === undefined ? chunksAtRows(db, rows) : undefined
    const chunks = whole ?? filterSubjectsAtRows(db, rows)
    const index = new Map(query.phrases.map((phrase, i) => [phrase.stem, i] as const))
    const hits: Array<LexicalHit> = []
    for (const row of rows) {
      const chunk = chunks.get(row)
      const length = lengths.get(row)
      if (chunk === undefined || length === undefined) throw new Error(`text index row ${row} has no stored chunk; rebuild the index`)
      if (!query.passes(chunk)) continue
      const freqs = counts === undefined ? analysed(index, query.phrases.length, whole!.get(row)!) : weighted(counts, row)
      hits.push({ id: chunk.id, score: score(query.idfs, freqs, length, avgdl) })
    }
    return hits
  }

  /** FTS5 ranks every match; the cut loops only if the SQL filter and `compile` ever disagree. */
  const exhaustive = (query: Query): Array<LexicalHit> => {
    const params: Array<SQLInputValue> = [weights.text, weights.title, weights.tags, matchExpression(query.phrases), ...query.clause.params]
    const alone = query.clause.params.length === 0 && unfiltered.has(query.clause.sql)
    const statement = alone ? rankedAlone : statementFor(query.clause.sql, true)
    for (let want = query.k; ; want *= 2) {
      const { rows, exhausted } = topRows(statement, params, want)
      const hits = scored(query, rows.map((row) => row.row))
      if (hits.length >= query.k || exhausted) return hits.sort(byScoreThenId).slice(0, query.k)
    }
  }

  /**
   * MaxScore pruning (Turtle and Flood, "Query evaluation: strategies and optimizations", 1995).
   * A term held by at least `share` of the rows adds less than `idf × (k1 + 1)` to any score, yet
   * makes most rows a match. FTS5 ranks only the rows holding a rarer term, by those terms; if the
   * k-th of them (θ) beats everything the common terms together could add, every row whose partial
   * score is within that reach of θ is scored in full, and a row left out scores strictly less
   * than k of the rows kept: the cut is exact. Undefined when that cannot be promised, or when
   * more than `budget` rows would have to be scored.
   */
  const pruned = (query: Query, share: number, budget: number): Array<LexicalHit> | undefined => {
    const essential = query.phrases.filter((_, i) => query.hits[i]! < share * query.corpus.rows)
    if (essential.length === 0 || essential.length === query.phrases.length || !Number.isFinite(query.k)) return undefined
    let reach = 0
    query.phrases.forEach((_, i) => {
      if (query.hits[i]! >= share * query.corpus.rows) reach += query.idfs[i]! * (K1 + 1)
    })
    const candidates: Array<number> = []
    let theta = Number.NaN
    let cut = Number.NEGATIVE_INFINITY
    const ranked = statementFor(query.clause.sql, false)
      .iterate(weights.text, weights.title, weights.tags, matchExpression(essential), ...query.clause.params) as Iterable<Ranked>
    for (const { row, rank } of ranked) {
      const partial = -rank
      if (partial < cut) break
      if (candidates.length >= budget) return undefined
      candidates.push(row)
      if (candidates.length === query.k) {
        theta = partial
        // Slack for rounding: partial and full sums add different terms, with different logs.
        cut = partial - reach - 1e-9 * Math.max(1, partial)
      }
    }
    // Too few rows hold an essential term, or a row holding none could reach the k-th.
    if (candidates.length < query.k || !(theta - 1e-9 * Math.max(1, theta) > reach)) return undefined
    const hits = scored(query, candidates)
    return hits.length < query.k ? undefined : hits.sort(byScoreThenId).slice(0, query.k)
  }

  /**
   * Conjunctive first, for a question whose every term is common, so that no share leaves rarer
   * terms to rank alone. A row missing some phrase scores at most what the others can add, at most
   * `Σ idf × (k1 + 1)` over every phrase but the one of least reach. FTS5 ranks only the rows
   * holding every phrase; if the k-th of those beats that bound, no row missing one can enter the
   * top k, and the cut is exact. Undefined when that cannot be promised.
   */
  const conjunctive = (query: Query): Array<LexicalHit> | undefined => {
    if (query.phrases.length < 2 || !Number.isFinite(query.k)) return undefined
    const reaches = query.idfs.map((value) => value * (K1 + 1))
    const bound = reaches.reduce((sum, reach) => sum + reach, 0) - Math.min(...reaches)
    const every = query.phrases.map((phrase) => matchExpression([phrase])).join(" AND ")
    const params: Array<SQLInputValue> = [weights.text, weights.title, weights.tags, every, ...query.clause.params]
    const alone = query.clause.params.length === 0 && unfiltered.has(query.clause.sql)
    const statement = alone ? rankedAlone : statementFor(query.clause.sql, true)
    for (let want = query.k; ; want *= 2) {
      const { rows, exhausted } = topRows(statement, params, want)
      const hits = scored(query, rows.map((row) => row.row)).sort(byScoreThenId)
      if (hits.length >= query.k) {
        const theta = hits[query.k - 1]!.score
        return theta - 1e-9 * Math.max(1, theta) > bound ? hits.slice(0, query.k) : undefined
      }
      if (exhausted) return undefined
    }
  }

  // Counting stops at the cap: FTS5 reads a doclist as it goes, so a common word costs no more
  // than a rare one (fts5vocab's row table reads the whole doclist to count it).
  const rowsUpTo = db.prepare("SELECT count(*) AS n FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)")
  const frequencies = (words: ReadonlyArray<string>, cap: number): Array<number> =>
    words.map((word) => Number((rowsUpTo.get(matchExpression([{ surface: word, stem: word }]), Math.max(0, Math.floor(cap))) as { n: number }).n))

  const ranked = (text: string, limit: number, filter: RetrievalFilter): Array<LexicalHit> => {
    const k = Math.floor(limit)
    if (!(k > 0)) return []
    const asked = phrasesOf(text)
    if (asked.length === 0) return []
    const run = () => {
      const all = statistics(asked)
      // A phrase no row holds adds nothing to any score, but would keep every other from being pruned.
      const held = asked.flatMap((_, i) => (all.hits[i]! > 0 ? [i] : []))
      if (held.length === 0) return []
      const phrases = held.map((i) => asked[i]!)
      const stats = { corpus: all.corpus, hits: held.map((i) => all.hits[i]!), idfs: held.map((i) => all.idfs[i]!) }
      // Once FTS5 made a surface into another term, every later call analyses the text too.
      let indexed = true
      const query: Query = {
        phrases,
        ...stats,
        k,
        clause: chunkClause(filter, "c"),
        passes: compile(filter),
        counts: (rows) => {
          if (!indexed || analysingIsCheaper(stats.hits, rows.length, stats.corpus)) return undefined
          const counts = indexedCounts(phrases, stats.hits, rows)
          indexed = counts !== undefined
          return counts
        }
      }
      if (strategy === "pruned") {
        // First leave out the terms in a tenth of the rows (cheap when it works), then only those
        // in half the rows (floored idf: nearly always works), then rank every match.
        const hits = pruned(query, 0.1, Math.max(2_000, 20 * k)) ?? pruned(query, 0.5, Number.POSITIVE_INFINITY) ?? conjunctive(query)
        if (hits !== undefined) return hits
      }
      return exhaustive(query)
    }
    if (db.isTransaction) return run()
    // One read transaction, so statistics and matches come from one commit.
    db.exec("BEGIN")
    try {
      return run()
    } finally {
      db.exec("COMMIT")
    }
  }
  return { ranked, frequencies }
}

const unavailable = (error: unknown) =>
  new LexicalIndexError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

/** Over the Database service. */
export const make = Effect.fnUntraced(function*(options: Options = {}) {
  const { connection } = yield* Database
  const chosen = options.weights ?? (yield* RetrievalConfig).lexicalWeights
  const checked = yield* Schema.decodeUnknownEffect(ColumnWeightsSchema)(chosen).pipe(
    Effect.mapError(() => new LexicalIndexError({ reason: "invalid_weights", detail: JSON.stringify(chosen) }))
  )
  const run = search(connection, checked, options.strategy ?? "pruned")
  return LexicalIndex.of({
    search: (query, limit, filter) => Effect.try({ try: () => run.ranked(query, limit, filter), catch: unavailable }),
    documentFrequencies: (words, cap) => Effect.try({ try: () => run.frequencies(words, cap), catch: unavailable })
  })
})

export const layer = (options: Options = {}): Layer.Layer<LexicalIndex, LexicalIndexError, Database> =>
  Layer.effect(LexicalIndex, make(options))
