/**
 * IndexHealth from the repository's manifest: embedding coverage is embedded chunks over chunks (1
 * when the index holds no vector space, or no chunks), lag the time since the last commit's
 * `builtAt`, against the caller's `now`.
 */
import { Effect, Layer } from "effect"
import { instantMillis } from "../../src/domain/Instant.ts"
import { IndexHealth, IndexHealthError } from "../../src/ports/IndexHealth.ts"
import { PgIndex } from "./PgIndex.ts"
import { reconnecting } from "./Reconnecting.ts"

export const make = Effect.gen(function*() {
  const { sql, repository } = yield* PgIndex
  const read = reconnecting(sql)
  return IndexHealth.of({
    read: (now) =>
      read(sql.unsafe<{ built_at: string; chunk_count: number; embedded_count: number; spaced: boolean }>(
        "SELECT m.built_at, m.chunk_count, m.embedded_count, EXISTS (SELECT 1 FROM cairn_spaces s WHERE s.repository = m.repository) AS spaced " +
          "FROM cairn_manifest m WHERE m.repository = $1",
        [repository]
      )).pipe(
        Effect.mapError((error) => new IndexHealthError({ detail: error.message })),
        Effect.flatMap(([manifest]) => {
          if (manifest === undefined) return Effect.fail(new IndexHealthError({ detail: "the index has never been built; run `cairn index`" }))
          const chunks = Number(manifest.chunk_count)
          const embeddingCoverage = !manifest.spaced || chunks === 0 ? 1 : Number(manifest.embedded_count) / chunks
          // A clock behind the writer's is no negative lag.
          return Effect.succeed({ embeddingCoverage, lagSeconds: Math.max(0, (now - instantMillis(manifest.built_at)) / 1000) })
        })
      )
  })
})

export const layer: Layer.Layer<IndexHealth, never, PgIndex> = Layer.effect(IndexHealth, make)
