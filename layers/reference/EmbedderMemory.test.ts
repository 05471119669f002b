import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import type { EmbedderShape, Vector } from "../../src/ports/Embedder.ts"
import { checked, EmbedderError } from "../../src/ports/Embedder.ts"
import { contract } from "../contracts/Embedder.contract.ts"
import * as EmbedderMemory from "./EmbedderMemory.ts"
import { softwareChunks } from "./fixtures/SoftwareNotes.ts"

const TEXTS = softwareChunks().map((chunk) => chunk.text)
const MODEL = Lsa.train(TEXTS, { latentDimension: 48, seed: 7 })

contract("hashing", EmbedderMemory.layerHashing())
contract("latent semantic, trained in the layer", EmbedderMemory.layerTrained(TEXTS, { latentDimension: 48, seed: 7 }))
contract("latent semantic, reloaded model", EmbedderMemory.layer(MODEL))

const cosine = (a: Vector, b: Vector): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0)

const fake = (vectors: ReadonlyArray<Vector>): EmbedderShape => ({
  id: "fake",
  version: "1",
  dimension: 2,
  embed: () => Effect.succeed(vectors)
})

describe("EmbedderMemory", () => {
  it("isContentless - true exactly for the embedding of words the model never saw", () => {
    const encoder = Lsa.encoder(MODEL)
    assert.isTrue(Hashing.isContentless(encoder.embedOne("zzqx vvbnm")))
    assert.isTrue(Hashing.isContentless(encoder.embedOne("")))
    assert.isFalse(Hashing.isContentless(encoder.embedOne(TEXTS[0]!)))
    assert.isFalse(Hashing.isContentless(Hashing.make(8).embedOne("cache")))
    assert.isFalse(Hashing.isContentless([]))
  })

  it.effect("checked - rejects a wrong count, length, non-finite component or norm, naming the vector", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [ReadonlyArray<Vector>, EmbedderError["reason"], number]> = [
        [[[1, 0]], "count", -1],
        [[[1, 0], [1, 0, 0]], "length", 1],
        [[[Number.NaN, 1], [1, 0]], "non_finite", 0],
        [[[1, 0], [0.6, 0.6]], "norm", 1],
        [[[0, 0], [1, 0]], "norm", 0]
      ]
      for (const [vectors, reason, index] of cases) {
        const error = yield* Effect.flip(checked(fake(vectors)).embed(["a", "b"]))
        assert.isTrue(error instanceof EmbedderError)
        assert.deepStrictEqual([error.reason, error.index], [reason, index])
      }
      assert.deepStrictEqual(yield* checked(fake([[0.6, 0.8], [0, -1]])).embed(["a", "b"]), [[0.6, 0.8], [0, -1]])
    }))

  it.effect("latent semantic - a persisted and reloaded model gives bit-identical vectors and version", () =>
    Effect.gen(function*() {
      const reloaded = yield* Lsa.decodeModel(Lsa.encodeModel(MODEL))
      const fresh = Lsa.encoder(MODEL)
      const again = Lsa.encoder(reloaded)
      assert.strictEqual(again.version, fresh.version)
      for (const text of ["idempotency keys for payments", "", TEXTS[17]!]) {
        assert.deepStrictEqual(again.embedOne(text), fresh.embedOne(text))
      }
    }))

  it.effect("latent semantic - a corrupted model is refused with a SchemaError", () =>
    Effect.gen(function*() {
      const json = JSON.parse(Lsa.encodeModel(MODEL)) as Record<string, unknown>
      const truncated = JSON.stringify({ ...json, idf: (json["idf"] as Array<number>).slice(1) })
      const error = yield* Effect.flip(Lsa.decodeModel(truncated))
      assert.strictEqual(error._tag, "SchemaError")
    }))

  it("latent semantic - relates a paraphrase with no word in common, where hashing cannot", () => {
    const lsa = Lsa.encoder(MODEL)
    const question = "how often do we retry a request that failed"
    const answer = "exponential backoff with jitter for outbound calls"
    const unrelated = "postmortems are blameless and published"
    assert.isAbove(cosine(lsa.embedOne(question), lsa.embedOne(answer)), 2 * cosine(lsa.embedOne(question), lsa.embedOne(unrelated)))
    assert.isAbove(cosine(lsa.embedOne(question), lsa.embedOne(answer)), 0.2)
    const hashing = Hashing.make()
    assert.isBelow(Math.abs(cosine(hashing.embedOne(question), hashing.embedOne(answer))), 0.1)
  })

  it("latent semantic - a text with no known term sits on the reserved axis, orthogonal to all content", () => {
    const lsa = Lsa.encoder(MODEL)
    const nothing = lsa.embedOne("zzyzx qwfp")
    assert.strictEqual(nothing[lsa.dimension - 1], 1)
    assert.strictEqual(cosine(nothing, lsa.embedOne("cache invalidation")), 0)
  })
})
