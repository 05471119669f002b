/** Reference SymbolIndex: the table of the given chunks' declarations, built once. */
import { Effect, Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { SymbolIndex } from "../../src/ports/SymbolIndex.ts"
import { buildSymbolTable } from "../../src/retrieval/symbolTable.ts"

export const make = (chunks: ReadonlyArray<Chunk>): SymbolIndex["Service"] => {
  const table = buildSymbolTable(chunks.filter((chunk) => chunk.noteType === "code" && !chunk.isLinkList))
  return SymbolIndex.of({
    search: (text, limit, filter, stopwords) => Effect.sync(() => table.search(text, limit, compile(filter), stopwords))
  })
}

export const layer = (chunks: ReadonlyArray<Chunk>): Layer.Layer<SymbolIndex> => Layer.sync(SymbolIndex, () => make(chunks))
