/**
 * SymbolIndex over `cairn_chunks`: the declarations of the repository's code chunks, read into a
 * table once per committed generation (as SymbolIndexSqlite reads its file) and kept while the
 * generation stands.
 */
import { Effect, Layer } from "effect"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { SymbolIndex, SymbolIndexError } from "../../src/ports/SymbolIndex.ts"
import { buildSymbolTable, type SymbolTable } from "../../src/retrieval/symbolTable.ts"
import { PgIndex } from "./PgIndex.ts"
import { toChunk } from "./PgRows.ts"
import { reconnecting } from "./Reconnecting.ts"

const unavailable = (error: unknown) =>
  error instanceof SymbolIndexError ? error : new SymbolIndexError({ detail: error instanceof Error ? error.message : String(error) })

export const make = Effect.gen(function*() {
  const { sql, repository } = yield* PgIndex
  const read = reconnecting(sql)
  let kept: { readonly generation: number; readonly table: SymbolTable } | undefined
  const tableNow = Effect.gen(function*() {
    const [row] = yield* read(sql.unsafe<{ generation: number }>("SELECT generation FROM cairn_manifest WHERE repository = $1", [repository]))
    const generation = row === undefined ? 0 : Number(row.generation)
    if (kept !== undefined && kept.generation === generation) return kept.table
    const rows = yield* read(sql.unsafe<{ body: string }>(
      "SELECT body FROM cairn_chunks WHERE repository = $1 AND note_type = 'code' AND NOT is_link_list ORDER BY id",
      [repository]
    ))
    const table = buildSymbolTable(rows.map((r) => toChunk(r.body)).filter((chunk) => chunk.symbols.length > 0))
    kept = { generation, table }
    return table
  })
  return SymbolIndex.of({
    search: (text, limit, filter, stopwords) =>
      Effect.map(tableNow, (table) => table.search(text, limit, compile(filter), stopwords)).pipe(Effect.mapError(unavailable))
  })
})

export const layer: Layer.Layer<SymbolIndex, never, PgIndex> = Layer.effect(SymbolIndex, make)
