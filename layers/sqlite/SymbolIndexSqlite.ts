/**
 * SymbolIndex over the index file's `chunks` table: the declarations of its code chunks, read into
 * a table once per committed generation and kept while the generation stands, so a long-lived
 * server pays the read once per index run and a one-shot command once per question.
 */
import { Effect, Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { SymbolIndex, SymbolIndexError } from "../../src/ports/SymbolIndex.ts"
import { buildSymbolTable, type SymbolSource, type SymbolTable } from "../../src/retrieval/symbolTable.ts"
import { Database } from "./Database.ts"

interface Row {
  readonly id: string
  readonly path: string
  readonly status: string
  readonly state: string
  readonly created_at: string | null
  readonly symbols: string
  readonly line_start: number
  readonly text: string
}

export const make = Effect.gen(function*() {
  const { connection: db } = yield* Database
  let kept: { readonly generation: number; readonly table: SymbolTable } | undefined
  const tableNow = (): SymbolTable => {
    const row = db.prepare("SELECT generation FROM manifest WHERE key = 1").get() as { generation: number } | undefined
    const generation = row === undefined ? 0 : Number(row.generation)
    if (kept !== undefined && kept.generation === generation) return kept.table
    const rows = db.prepare(
      "SELECT id, path, status, state, created_at, symbols, line_start, text FROM chunks " +
        "WHERE note_type = 'code' AND is_link_list = 0 AND symbols <> '[]'"
    ).all() as unknown as Array<Row>
    const sources = rows.map((r): SymbolSource => ({
      id: r.id as ChunkId,
      path: r.path,
      noteType: "code",
      status: r.status as Chunk["status"],
      provenance: { state: r.state as Chunk["provenance"]["state"], createdAt: r.created_at },
      symbols: JSON.parse(r.symbols) as Array<string>,
      lineStart: Number(r.line_start),
      text: r.text
    }))
    kept = { generation, table: buildSymbolTable(sources) }
    return kept.table
  }
  return SymbolIndex.of({
    search: (text, limit, filter, stopwords) =>
      Effect.try({
        try: () => tableNow().search(text, limit, compile(filter), stopwords),
        catch: (error) => new SymbolIndexError({ detail: error instanceof Error ? error.message : String(error) })
      })
  })
})

export const layer: Layer.Layer<SymbolIndex, never, Database> = Layer.effect(SymbolIndex, make)
