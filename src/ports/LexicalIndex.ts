/**
 * Port: full-text search over chunks with BM25 as SQLite FTS5's `bm25()` computes it, over three
 * columns (text, title, tags) with per-column weights and the query's terms OR-joined.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { Chunk, ChunkId } from "../domain/Chunk.ts"
import type { RetrievalFilter } from "./RetrievalFilter.ts"
import { defaults } from "../RetrievalConfig.ts"

/**
 * One hit. `score` is the raw BM25 score with the sign flipped from FTS5's: **higher is better**
 * and every score is finite and non-negative (FTS5's `bm25()` returns `-score`, so that SQL's
 * ascending sort puts the best row first).
 */
export interface LexicalHit {
  readonly id: ChunkId
  readonly score: number
}

/** The weight each column's occurrences count with in a term's frequency (FTS5 `bm25(t, w0, w1, w2)`). */
export const ColumnWeights = Schema.Struct({
  text: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
  title: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
  tags: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
})
export type ColumnWeights = typeof ColumnWeights.Type

/** The shipped weights, from RetrievalConfig (the one place a tunable lives). */
export const defaultColumnWeights: ColumnWeights = defaults.lexicalWeights

/** What each column indexes, so every backend indexes the same words. Tags are space-joined. */
export const columns = (chunk: Chunk): { readonly text: string; readonly title: string; readonly tags: string } => ({
  text: chunk.text,
  title: chunk.title,
  tags: chunk.tags.join(" ")
})

export class LexicalIndexError extends Schema.TaggedError<LexicalIndexError>()("LexicalIndexError", {
  reason: Schema.Literals(["duplicate_chunk", "invalid_weights", "unavailable"]),
  detail: Schema.String
}) {
  override get message(): string {
    switch (this.reason) {
      case "duplicate_chunk":
        return `lexical index: chunk id ${this.detail} appears twice; give every chunk a unique id`
      case "invalid_weights":
        return `lexical index: column weights ${this.detail} must be finite and >= 0`
      case "unavailable":
        return `lexical index unavailable: ${this.detail}; rebuild or reopen the index`
    }
  }
}

export class LexicalIndex extends Context.Service<LexicalIndex, {
  /**
   * At most `limit` chunks that contain at least one analysed term of `query` and pass `filter`,
   * by score descending, then chunk id ascending (code-unit order) on equal scores. Term
   * statistics (document frequency, average length) are corpus-wide: the filter removes rows, it
   * never changes another row's score. An empty or unmatched query, or `limit <= 0`, gives `[]`.
   */
  search(query: string, limit: number, filter: RetrievalFilter): Effect.Effect<ReadonlyArray<LexicalHit>, LexicalIndexError>
  /**
   * For each word (one folded surface, as `Words.surfaces` gives it), how many chunks hold its
   * analysed term, in the order given, counted no further than `cap`: `min(held, cap)`, and 0 for a
   * word no chunk holds. A long question is reduced to its rarest words by these counts before any
   * leg runs; the cap keeps a common word's count as cheap as a rare one's.
   */
  documentFrequencies(words: ReadonlyArray<string>, cap: number): Effect.Effect<ReadonlyArray<number>, LexicalIndexError>
}>()("cairn/ports/LexicalIndex") {}
