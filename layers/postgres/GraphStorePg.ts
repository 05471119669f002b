/** GraphStore over `cairn_relations`, indexed by both endpoints. */
import { Effect, Layer } from "effect"
import { compareIds } from "../../src/domain/Ranking.ts"
import { GraphStore, GraphStoreError, type NoteEdge } from "../../src/ports/GraphStore.ts"
import { textArray } from "./PgFilter.ts"
import { PgIndex } from "./PgIndex.ts"
import { reconnecting } from "./Reconnecting.ts"

const byEdge = (a: NoteEdge, b: NoteEdge): number =>
  compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)

export const make = Effect.gen(function*() {
  const { sql, repository } = yield* PgIndex
  const read = reconnecting(sql)
  return GraphStore.of({
    edgesOf: (notes) =>
      read(sql.unsafe<{ from_note: string; to_note: string; verb: string }>(
        "SELECT from_note, to_note, verb FROM cairn_relations WHERE repository = $1 AND from_note = ANY($2::text[]) " +
          "UNION SELECT from_note, to_note, verb FROM cairn_relations WHERE repository = $1 AND to_note = ANY($2::text[])",
        [repository, textArray(notes)]
      )).pipe(
        Effect.map((rows) => rows.map((row): NoteEdge => ({ from: row.from_note, to: row.to_note, verb: row.verb })).sort(byEdge)),
        Effect.mapError((error) => new GraphStoreError({ detail: error.message }))
      )
  })
})

export const layer: Layer.Layer<GraphStore, never, PgIndex> = Layer.effect(GraphStore, make)
