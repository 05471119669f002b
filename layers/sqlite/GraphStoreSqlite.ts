/** GraphStore over the index file's `relations` table, indexed by both endpoints. */
import { Effect, Layer } from "effect"
import { compareIds } from "../../src/domain/Ranking.ts"
import { GraphStore, GraphStoreError, type NoteEdge } from "../../src/ports/GraphStore.ts"
import { Database } from "./Database.ts"

const byEdge = (a: NoteEdge, b: NoteEdge): number =>
  compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)

export const make = Effect.gen(function*() {
  const { connection: db } = yield* Database
  return GraphStore.of({
    edgesOf: (notes) =>
      Effect.try({
        try: () => {
          const rows = db.prepare(
            "SELECT from_note, to_note, verb FROM relations WHERE from_note IN (SELECT value FROM json_each(?1)) " +
              "UNION SELECT from_note, to_note, verb FROM relations WHERE to_note IN (SELECT value FROM json_each(?1))"
          ).all(JSON.stringify(notes)) as Array<{ from_note: string; to_note: string; verb: string }>
          return rows.map((row): NoteEdge => ({ from: row.from_note, to: row.to_note, verb: row.verb })).sort(byEdge)
        },
        catch: (error) => new GraphStoreError({ detail: error instanceof Error ? error.message : String(error) })
      })
  })
})

export const layer: Layer.Layer<GraphStore, never, Database> = Layer.effect(GraphStore, make)
