/**
 * IndexHealth from the index file's manifest: embedding coverage is embedded chunks over chunks
 * (1 when the index was built without an embedder, or holds no chunks), lag is the time since the
 * last commit's `builtAt`, measured against the caller's `now`. A connection without sqlite-vec
 * says the dense leg is unavailable.
 */
import { Effect, Layer } from "effect"
import { instantMillis } from "../../src/domain/Instant.ts"
import { IndexHealth, IndexHealthError, type IndexHealthReading } from "../../src/ports/IndexHealth.ts"
import { Database } from "./Database.ts"

interface ManifestRow {
  readonly built_at: string
  readonly chunk_count: number
  readonly embedded_count: number
  readonly embedder_id: string | null
}

const reading = (manifest: ManifestRow, now: number): IndexHealthReading => {
  const chunks = Number(manifest.chunk_count)
  const embeddingCoverage = manifest.embedder_id === null || chunks === 0 ? 1 : Number(manifest.embedded_count) / chunks
  // A clock behind the writer's is no negative lag.
  return { embeddingCoverage, lagSeconds: Math.max(0, (now - instantMillis(manifest.built_at)) / 1000) }
}

export const make = Effect.gen(function*() {
  const { connection: db, vectorsUnavailable } = yield* Database
  return IndexHealth.of({
    read: (now) =>
      Effect.try({
        try: () => db.prepare("SELECT built_at, chunk_count, embedded_count, embedder_id FROM manifest WHERE key = 1").get() as ManifestRow | undefined,
        catch: (error) => new IndexHealthError({ detail: error instanceof Error ? error.message : String(error) })
      }).pipe(Effect.flatMap((manifest) =>
        manifest === undefined
          ? Effect.fail(new IndexHealthError({ detail: "the index has never been built; run `cairn index`" }))
          : Effect.succeed({ ...reading(manifest, now), ...(vectorsUnavailable === undefined ? {} : { denseUnavailable: vectorsUnavailable }) })
      ))
  })
})

export const layer: Layer.Layer<IndexHealth, never, Database> = Layer.effect(IndexHealth, make)
