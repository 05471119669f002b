/**
 * Reference LexicalIndex: in-memory BM25 with the arithmetic of SQLite FTS5's `bm25()` (k1 1.2,
 * b 0.75, idf `log((N - n + 0.5) / (n + 0.5))` floored at 1e-6, one document length over all
 * columns, per-column weights folded into the term frequency), over the `porter unicode61`-style
 * analysis of src/text/Words. Postings live in typed arrays; a search touches only the
 * postings of its own terms.
 */
import { Effect, Layer, Schema } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { stem } from "../../src/text/Porter.ts"
import { queryTerms, surfaces } from "../../src/text/Words.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { columns, defaultColumnWeights, LexicalIndex, LexicalIndexError, ColumnWeights as ColumnWeightsSchema } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { TopK } from "../../src/domain/TopK.ts"
import { compareIds } from "../../src/domain/Ranking.ts"

// FTS5's constants, fixed in its source; not tunables.
const K1 = 1.2
const B = 0.75
const IDF_FLOOR = 1e-6

interface Postings {
  /** Chunks in chunk-id order; a row number is a position here. */
  readonly rows: ReadonlyArray<Chunk>
  readonly termIds: ReadonlyMap<string, number>
  /** Postings of term t are `[start[t], start[t + 1])` in `postRows` / `postFreqs`. */
  readonly start: Int32Array
  readonly postRows: Int32Array
  /** Weighted frequency: the sum of the column weight over every occurrence, as FTS5 adds it. */
  readonly postFreqs: Float64Array
  /** `k1 * (1 - b + b * D / avgdl)` per row, D the row's token count over all columns. */
  readonly lengthNorm: Float64Array
}

const byId = (a: Chunk, b: Chunk): number => compareIds(a.id, b.id)

const build = (sorted: ReadonlyArray<Chunk>, weights: ColumnWeights): Postings => {
  // One lookup per token: surface straight to term id (surfaces with a shared stem share an id).
  const surfaceIds = new Map<string, number>()
  const termIds = new Map<string, number>()
  const termRows: Array<Array<number>> = []
  const termFreqs: Array<Array<number>> = []
  // Per-row scratch: weighted frequency by term id, and the ids this row touched in first-seen order.
  const rowFreq: Array<number> = []
  const rowTerms: Array<number> = []
  const lengths = new Float64Array(sorted.length)
  let totalTokens = 0
  for (let row = 0; row < sorted.length; row++) {
    const fields = columns(sorted[row]!)
    let length = 0
    // Column order text, title, tags, as FTS5 visits instances, so weighted sums round alike.
    for (const [text, weight] of [[fields.text, weights.text], [fields.title, weights.title], [fields.tags, weights.tags]] as const) {
      for (const surface of surfaces(text)) {
        let id = surfaceIds.get(surface)
        if (id === undefined) {
          const term = stem(surface)
          id = termIds.get(term)
          if (id === undefined) {
            id = termRows.length
            termIds.set(term, id)
            termRows.push([])
            termFreqs.push([])
            rowFreq.push(-1)
          }
          surfaceIds.set(surface, id)
        }
        if (rowFreq[id] === -1) {
          rowFreq[id] = 0
          rowTerms.push(id)
        }
        rowFreq[id] = rowFreq[id]! + weight
        length++
      }
    }
    for (const id of rowTerms) {
      termRows[id]!.push(row)
      termFreqs[id]!.push(rowFreq[id]!)
      rowFreq[id] = -1
    }
    rowTerms.length = 0
    lengths[row] = length
    totalTokens += length
  }
  const start = new Int32Array(termRows.length + 1)
  for (let t = 0; t < termRows.length; t++) start[t + 1] = start[t]! + termRows[t]!.length
  const postRows = new Int32Array(start[termRows.length]!)
  const postFreqs = new Float64Array(postRows.length)
  for (let t = 0; t < termRows.length; t++) {
    postRows.set(termRows[t]!, start[t]!)
    postFreqs.set(termFreqs[t]!, start[t]!)
  }
  const avgdl = totalTokens / sorted.length
  const lengthNorm = new Float64Array(sorted.length)
  for (let row = 0; row < sorted.length; row++) lengthNorm[row] = K1 * (1 - B + B * lengths[row]! / avgdl)
  return { rows: sorted, termIds, start, postRows, postFreqs, lengthNorm }
}

const searcher = (index: Postings) => {
  const n = index.rows.length
  // Scratch reused across searches: a search runs synchronously, so no two ever interleave.
  const scores = new Float64Array(n)
  const seen = new Uint32Array(n)
  const touched = new Int32Array(n)
  let stamp = 0

  return (query: string, limit: number, filter: RetrievalFilter): Array<LexicalHit> => {
    // No more rows than exist: the heap is sized by k, and a caller may pass Infinity.
    const k = Math.min(Math.floor(limit), n)
    if (!(k > 0)) return []
    stamp++
    let touchedCount = 0
    // Terms in query order, so each row's sum is taken in the order FTS5 takes it.
    for (const term of queryTerms(query)) {
      const t = index.termIds.get(term)
      if (t === undefined) continue
      const from = index.start[t]!, to = index.start[t + 1]!
      const df = to - from
      let idf = Math.log((n - df + 0.5) / (df + 0.5))
      if (idf <= 0) idf = IDF_FLOOR
      for (let p = from; p < to; p++) {
        const row = index.postRows[p]!
        const f = index.postFreqs[p]!
        if (seen[row] !== stamp) {
          seen[row] = stamp
          scores[row] = 0
          touched[touchedCount++] = row
        }
        scores[row] = scores[row]! + idf * ((f * (K1 + 1)) / (f + index.lengthNorm[row]!))
      }
    }
    const passes = compile(filter)
    const best = new TopK(k)
    for (let i = 0; i < touchedCount; i++) {
      const row = touched[i]!
      const score = scores[row]!
      if (best.admits(score, row) && passes(index.rows[row]!)) best.push(score, row)
    }
    return best.drain().map(({ row, score }) => ({ id: index.rows[row]!.id, score }))
  }
}

/** Builds the index over `chunks` (any order; ids must be unique) with the given column weights. */
export const make = Effect.fnUntraced(function*(
  chunks: ReadonlyArray<Chunk>,
  weights: ColumnWeights = defaultColumnWeights
) {
  const checked = yield* Schema.decodeUnknownEffect(ColumnWeightsSchema)(weights).pipe(
    Effect.mapError(() => new LexicalIndexError({ reason: "invalid_weights", detail: JSON.stringify(weights) }))
  )
  const sorted = [...chunks].sort(byId)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) {
      return yield* new LexicalIndexError({ reason: "duplicate_chunk", detail: sorted[i]!.id })
    }
  }
  const index = build(sorted, checked)
  const search = searcher(index)
  const frequency = (word: string, cap: number): number => {
    const t = index.termIds.get(stem(word))
    return t === undefined ? 0 : Math.min(cap, index.start[t + 1]! - index.start[t]!)
  }
  return LexicalIndex.of({
    search: (query, limit, filter) => Effect.sync(() => search(query, limit, filter)),
    documentFrequencies: (words, cap) => Effect.sync(() => words.map((word) => frequency(word, cap)))
  })
})

export const layer = (
  chunks: ReadonlyArray<Chunk>,
  weights: ColumnWeights = defaultColumnWeights
): Layer.Layer<LexicalIndex, LexicalIndexError> => Layer.effect(LexicalIndex, make(chunks, weights))
