/**
 * Port: the declarations of the indexed code, searched by name (the symbol leg,
 * `src/retrieval/symbolTable.ts`). A backend without one leaves the leg absent, and recall and
 * search report it `skipped`, never as an empty success.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { RetrievalFilter } from "./RetrievalFilter.ts"
import type { SymbolMatch } from "../domain/SymbolMatch.ts"

export class SymbolIndexError extends Schema.TaggedError<SymbolIndexError>()("SymbolIndexError", {
  detail: Schema.String
}) {
  override get message(): string {
    return `symbol index unavailable: ${this.detail}; rebuild or reopen the index`
  }
}

export class SymbolIndex extends Context.Service<SymbolIndex, {
  /**
   * Declarations whose names `text` spells or whose parts it names, best first, at most `limit`,
   * each in a chunk passing `filter`; `stopwords` are analysed terms that name nothing.
   */
  search(
    text: string,
    limit: number,
    filter: RetrievalFilter,
    stopwords: ReadonlySet<string>
  ): Effect.Effect<ReadonlyArray<SymbolMatch>, SymbolIndexError>
}>()("cairn/ports/SymbolIndex") {}
