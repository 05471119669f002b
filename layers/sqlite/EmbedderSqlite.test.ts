import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { Embedder, EmbedderError } from "../../src/ports/Embedder.ts"
import { contract } from "../contracts/Embedder.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import { Database } from "./Database.ts"
import type { VectorModel } from "./IndexWriter.ts"
import * as EmbedderSqlite from "./EmbedderSqlite.ts"
import { coldBuild, seeded } from "./testing/Fixtures.ts"

const CHUNKS = softwareChunks()
const MODEL = Lsa.train(CHUNKS.map((chunk) => chunk.text), { latentDimension: 48, seed: 7 })
const ENCODER = Lsa.encoder(MODEL)
const HASHING = Hashing.make(64)

/** An index whose vectors were written by `model` (every chunk embedded by `embed`). */
const indexBy = (model: VectorModel, embed: (text: string) => ReadonlyArray<number>) =>
  seeded(coldBuild(CHUNKS, {
    vectors: { model, entries: CHUNKS.map((chunk) => ({ chunkId: chunk.id, vector: embed(chunk.text) })) }
  }))

const lsaIndex = indexBy({ id: ENCODER.id, version: ENCODER.version, dimension: ENCODER.dimension, model: Lsa.encodeModel(MODEL) }, ENCODER.embedOne)
const hashingIndex = indexBy({ id: HASHING.id, version: HASHING.version, dimension: HASHING.dimension }, HASHING.embedOne)

contract("sqlite, latent semantic model stored in the index", EmbedderSqlite.layer.pipe(Layer.provide(lsaIndex)))
contract("sqlite, hashing", EmbedderSqlite.layer.pipe(Layer.provide(hashingIndex)))

const restored = (index: Layer.Layer<Database, unknown>) =>
  Effect.gen(function*() {
    return yield* Embedder
  }).pipe(Effect.provide(EmbedderSqlite.layer.pipe(Layer.provide(index))))

describe("EmbedderSqlite", () => {
  it.effect("make - the restored model embeds exactly as the model that wrote the vectors", () =>
    Effect.gen(function*() {
      const embedder = yield* restored(lsaIndex)
      assert.deepStrictEqual([embedder.id, embedder.version, embedder.dimension], [ENCODER.id, ENCODER.version, ENCODER.dimension])
      const texts = ["how are retries bounded?", CHUNKS[17]!.text]
      assert.deepStrictEqual(yield* embedder.embed(texts), texts.map(ENCODER.embedOne))
    }))

  it.effect("decodeModel - refuses a projection that is not the padded base64 of the right size", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* Lsa.decodeModel(Lsa.encodeModel(MODEL)), MODEL)
      const bad = [
        `*${MODEL.projection.slice(1)}`,
        // base64url's alphabet: a lenient decoder reads the same number of bytes from it.
        `-_${MODEL.projection.slice(2)}`,
        MODEL.projection.slice(0, -4),
        `${MODEL.projection.slice(0, -4)}A=A=`,
        `${MODEL.projection.slice(0, -4)}AA==`,
        `${MODEL.projection.slice(0, -4)}A\nAA`,
        // Past ASCII: a lenient decoder reads İ as the byte of its low half.
        `İ${MODEL.projection.slice(1)}`
      ]
      for (const projection of bad) {
        const decoded = yield* Effect.result(Lsa.decodeModel(Lsa.encodeModel({ ...MODEL, projection })))
        assert.isTrue(decoded._tag === "Failure", projection.slice(-8))
      }
      // Twelve bytes of projection take no padding, and still decode.
      const small = { format: MODEL.format, seed: 1, latentDimension: 1, vocabulary: ["a", "b", "c"], idf: [1, 1, 1], projection: Buffer.from(new Float32Array([1, 0, 0.5]).buffer).toString("base64") }
      assert.notInclude(small.projection, "=")
      assert.deepStrictEqual(yield* Lsa.decodeModel(Lsa.encodeModel(small)), small)
      assert.strictEqual(Lsa.encoder(small).rowOf("c"), 2)
    }))

  it.effect("decodeModelBytes - the stored bytes decode as the text does, and what the text refuses the bytes refuse", () =>
    Effect.gen(function*() {
      const bytesOf = (text: string) => new TextEncoder().encode(text)
      // A vocabulary past ASCII, and one that spells the projection key inside a term.
      const odd = { ...MODEL, vocabulary: MODEL.vocabulary.map((term, i) => (i === 0 ? "検索" : i === 1 ? "\",\"projection\":\"" : term)).sort() }
      // Keys in another order are another layout: decoded whole, to the same model.
      const { projection, ...rest } = MODEL
      for (const text of [Lsa.encodeModel(MODEL), Lsa.encodeModel(odd), JSON.stringify({ projection, ...rest })]) {
        assert.deepStrictEqual(yield* Lsa.decodeModelBytes(bytesOf(text)), yield* Lsa.decodeModel(text))
      }
      const refused = [
        Lsa.encodeModel({ ...MODEL, projection: `*${MODEL.projection.slice(1)}` }),
        Lsa.encodeModel({ ...MODEL, projection: `${MODEL.projection.slice(0, -4)}A"AA` }),
        Lsa.encodeModel(MODEL).slice(0, -10),
        `${Lsa.encodeModel(MODEL).slice(0, -2)}","extra":"x"}`,
        "{\"format\":\"nope\"}"
      ]
      for (const text of refused) {
        const fromBytes = yield* Effect.result(Lsa.decodeModelBytes(bytesOf(text)))
        const fromText = yield* Effect.result(Lsa.decodeModel(text))
        assert.strictEqual(fromBytes._tag, fromText._tag, text.slice(-24))
      }
    }))

  it.effect("make - a model the file cannot restore fails as unavailable: none stored, an outside model, a missing or corrupt payload", () =>
    Effect.gen(function*() {
      const cases = [
        seeded(coldBuild(CHUNKS)),
        indexBy({ id: "vendor/remote", version: "3", dimension: 2 }, () => [1, 0]),
        indexBy({ id: ENCODER.id, version: ENCODER.version, dimension: ENCODER.dimension }, ENCODER.embedOne),
        indexBy({ id: ENCODER.id, version: ENCODER.version, dimension: ENCODER.dimension, model: "{\"format\":\"nope\"}" }, ENCODER.embedOne),
        indexBy({ id: ENCODER.id, version: "cairn/lsa@1/48/0000000000000000", dimension: ENCODER.dimension, model: Lsa.encodeModel(MODEL) }, ENCODER.embedOne)
      ]
      for (const index of cases) {
        const error = yield* Effect.flip(restored(index))
        assert.isTrue(error instanceof EmbedderError && error.reason === "unavailable")
      }
    }))
})
