import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as NodePath from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as Hashing from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { Embedder, EmbedderError } from "../../src/ports/Embedder.ts"
import { contract } from "../contracts/Embedder.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as Database from "./Database.ts"
import type { VectorModel } from "../../src/ports/IndexStore.ts"
import * as EmbedderSqlite from "./EmbedderSqlite.ts"
import { coldBuild, openSeeded, seeded, tempDir, write } from "./testing/Fixtures.ts"

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

const restored = (index: Layer.Layer<Database.Database, unknown>) =>
  Effect.gen(function*() {
    return yield* Embedder
  }).pipe(Effect.provide(EmbedderSqlite.layer.pipe(Layer.provide(index))))

/** What the restored embedder gives for `texts`, asked while the index is open. */
const embeddedBy = (database: Database.DatabaseShape, texts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const embedder = yield* Embedder
    return { version: embedder.version, vectors: yield* embedder.embed(texts) }
  }).pipe(Effect.provide(EmbedderSqlite.layer.pipe(Layer.provide(Layer.succeed(Database.Database, database)))))

const LSA_MODEL: VectorModel = { id: ENCODER.id, version: ENCODER.version, dimension: ENCODER.dimension, model: Lsa.encodeModel(MODEL) }

/** Texts whose terms are in the vocabulary, repeated, outside it, or absent. */
const TEXTS = [
  "how are retries bounded?",
  "retry retry retry the cache, then retry",
  "zzqx unheard-of words only",
  "",
  "?!",
  ...CHUNKS.map((chunk) => chunk.text)
]

const termRows = (db: DatabaseSync): number => Number((db.prepare("SELECT count(*) AS n FROM lsa_terms").get() as { n: number }).n)

describe("EmbedderSqlite", () => {
  it.effect("make - the restored model embeds exactly as the model that wrote the vectors", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }))
      const { vectors, version } = yield* embeddedBy(database, TEXTS)
      assert.strictEqual(version, ENCODER.version)
      assert.deepStrictEqual(vectors, TEXTS.map(ENCODER.embedOne))
    }))

  it.effect("make - a question reads the model's terms: the vectors are the same with the whole model gone from the file", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }))
      const { connection } = database
      assert.strictEqual(termRows(connection), MODEL.vocabulary.length)
      connection.exec("UPDATE vector_space SET model = NULL")
      assert.deepStrictEqual((yield* embeddedBy(database, TEXTS)).vectors, TEXTS.map(ENCODER.embedOne))
      // Without the terms' vouching version the whole model is needed, and it is gone.
      connection.exec("UPDATE vector_space SET terms_version = NULL")
      const error = yield* Effect.flip(embeddedBy(database, TEXTS))
      assert.isTrue(error instanceof EmbedderError && error.reason === "unavailable")
    }))

  it.effect("make - a damaged term fails the question's embedding as unavailable", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }))
      database.connection.exec("UPDATE lsa_terms SET projection = substr(projection, 1, 8)")
      const error = yield* Effect.flip(embeddedBy(database, TEXTS.slice(0, 1)))
      assert.isTrue(error instanceof EmbedderError && error.reason === "unavailable")
    }))

  it.effect("make - an index from before the terms table is read by its whole model, and a writer adds the terms from it", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      yield* Effect.scoped(openSeeded(coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }), path))
      // The file as schema version 2 left it.
      const old = new DatabaseSync(path)
      old.exec("DROP TABLE lsa_terms; ALTER TABLE vector_space DROP COLUMN terms_version; ALTER TABLE notes DROP COLUMN name_terms; ALTER TABLE chunks DROP COLUMN stems; ALTER TABLE manifest DROP COLUMN stems_version; PRAGMA user_version = 2")
      old.close()
      const read = yield* Effect.scoped(Effect.flatMap(Database.open({ path, readOnly: true }), (database) => embeddedBy(database, TEXTS)))
      assert.deepStrictEqual(read.vectors, TEXTS.map(ENCODER.embedOne))
      const migrated = yield* Database.open({ path })
      assert.strictEqual(termRows(migrated.connection), MODEL.vocabulary.length)
      migrated.connection.exec("UPDATE vector_space SET model = NULL")
      assert.deepStrictEqual((yield* embeddedBy(migrated, TEXTS)).vectors, TEXTS.map(ENCODER.embedOne))
    }))

  it.effect("write - the terms follow the space: none for a model whose fingerprint is not the version, none once the space is dropped", () =>
    Effect.gen(function*() {
      const mislabelled = yield* openSeeded(coldBuild(CHUNKS, { vectors: { model: { ...LSA_MODEL, version: "cairn/lsa@1/48/0000000000000000" }, entries: [] } }))
      assert.strictEqual(termRows(mislabelled.connection), 0)
      const database = yield* openSeeded(coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }))
      yield* write(database, coldBuild(CHUNKS))
      assert.strictEqual(termRows(database.connection), 0)
      yield* write(database, coldBuild(CHUNKS, { vectors: { model: LSA_MODEL, entries: [] } }))
      assert.strictEqual(termRows(database.connection), MODEL.vocabulary.length)
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
