/**
 * Behaviour every IndexHealth backend must show over a built index, run against each backend by
 * its own test file. A backend is given as a function from a description of the last build to a
 * layer over an index that build left.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import { instantMillis } from "../../src/domain/Instant.ts"
import { IndexHealth } from "../../src/ports/IndexHealth.ts"

export interface HealthBuild {
  readonly chunkCount: number
  /** Chunks with a vector; absent when the index was built without an embedder. */
  readonly embeddedCount?: number
  /** ISO-8601 instant with a zone. */
  readonly builtAt: string
}

export type MakeHealthLayer<E> = (build: HealthBuild) => Layer.Layer<IndexHealth, E>

const BUILT_AT = "2025-03-01T12:00:00Z"
const BUILT = instantMillis(BUILT_AT)

export const contract = <E>(name: string, makeLayer: MakeHealthLayer<E>) => {
  const readAt = (build: HealthBuild, ...nows: ReadonlyArray<number>) =>
    Effect.gen(function*() {
      const health = yield* IndexHealth
      return yield* Effect.forEach(nows, (now) => health.read(now))
    }).pipe(Effect.provide(makeLayer(build)))

  describe(`IndexHealth contract (${name})`, () => {
    it.effect("read - coverage is embedded chunks over chunks; lag is the time since the build, in seconds", () =>
      Effect.gen(function*() {
        const [reading] = yield* readAt({ chunkCount: 40, embeddedCount: 30, builtAt: BUILT_AT }, BUILT + 90_500)
        assert.strictEqual(reading!.embeddingCoverage, 0.75)
        assert.strictEqual(reading!.lagSeconds, 90.5)
        // Nobody compared this reading with the files.
        assert.isUndefined(reading!.filesChanged)
      }))

    it.effect("read - an index built without an embedder, or holding no chunks, is fully covered", () =>
      Effect.gen(function*() {
        const [plain] = yield* readAt({ chunkCount: 12, builtAt: BUILT_AT }, BUILT)
        assert.deepStrictEqual([plain!.embeddingCoverage, plain!.lagSeconds], [1, 0])
        const [empty] = yield* readAt({ chunkCount: 0, embeddedCount: 0, builtAt: BUILT_AT }, BUILT + 1_000)
        assert.deepStrictEqual([empty!.embeddingCoverage, empty!.lagSeconds], [1, 1])
        const [none] = yield* readAt({ chunkCount: 5, embeddedCount: 0, builtAt: BUILT_AT }, BUILT)
        assert.strictEqual(none!.embeddingCoverage, 0)
      }))

    it.effect("read - the lag follows the caller's clock, not the machine's: later is more, a clock behind the build is none", () =>
      Effect.gen(function*() {
        const readings = yield* readAt({ chunkCount: 4, embeddedCount: 4, builtAt: "2025-03-01T13:00:00+01:00" }, BUILT - 5_000, BUILT, BUILT + 3_600_000, BUILT)
        assert.deepStrictEqual(readings.map((r) => r.lagSeconds), [0, 0, 3_600, 0])
        assert.deepStrictEqual(readings.map((r) => r.embeddingCoverage), [1, 1, 1, 1])
      }))
  })
}
