/**
 * Behaviour every Embedder backend must show: unit vectors of the declared length for any text,
 * one per text in order, independent of batching, and nearer for texts that share meaning.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import type { Vector } from "../../src/ports/Embedder.ts"
import { assertVectors, Embedder, NORM_MAX, NORM_MIN } from "../../src/ports/Embedder.ts"

const HOSTILE: ReadonlyArray<string> = [
  "",
  "   \n\t ",
  "a".repeat(50_000),
  "日本語のテキスト".repeat(500),
  "🙂🙃 emoji only 🙂",
  "getUserName max_retry_count HTTPServer",
  "Ünïcödé façade Straße"
]

const cosine = (a: Vector, b: Vector): number => {
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!
  return dot
}

export const contract = <E>(name: string, layer: Layer.Layer<Embedder, E>) =>
  describe(`Embedder contract (${name})`, () => {
    const withEmbedder = <A, E2>(f: (embedder: Embedder["Service"]) => Effect.Effect<A, E2>) =>
      Effect.gen(function*() {
        return yield* f(yield* Embedder)
      }).pipe(Effect.provide(layer))

    it.effect("describe - names a model and version, and declares a positive dimension", () =>
      withEmbedder((embedder) =>
        Effect.sync(() => {
          assert.isAbove(embedder.id.length, 0)
          assert.isAbove(embedder.version.length, 0)
          assert.isTrue(Number.isInteger(embedder.dimension) && embedder.dimension > 0)
        })))

    it.effect("embed - every vector is finite, of the declared length and of unit norm, for any text", () =>
      withEmbedder((embedder) =>
        Effect.gen(function*() {
          const vectors = yield* embedder.embed(HOSTILE)
          yield* assertVectors(embedder, HOSTILE.length, vectors)
          for (const vector of vectors) {
            const norm = Math.sqrt(cosine(vector, vector))
            assert.isTrue(norm >= NORM_MIN && norm <= NORM_MAX)
          }
        })))

    it.effect("embed - one vector per text in order, the same whether batched or alone", () =>
      withEmbedder((embedder) =>
        Effect.gen(function*() {
          const texts = ["retry with backoff", "cache invalidation", "rotate the secrets"]
          const batch = yield* embedder.embed(texts)
          const reversed = yield* embedder.embed([...texts].reverse())
          assert.deepStrictEqual([...reversed].reverse(), batch)
          for (let i = 0; i < texts.length; i++) assert.deepStrictEqual((yield* embedder.embed([texts[i]!]))[0], batch[i])
          assert.deepStrictEqual(yield* embedder.embed([]), [])
        })))

    it.effect("embed - texts about the same thing are nearer than texts about nothing in common", () =>
      withEmbedder((embedder) =>
        Effect.gen(function*() {
          const [a, b, c] = yield* embedder.embed([
            "database schema migration adds a column",
            "adding a column in a schema migration on the database",
            "the cat sat on the mat in the sun"
          ])
          assert.isAbove(cosine(a!, b!), cosine(a!, c!))
        })))
  })
