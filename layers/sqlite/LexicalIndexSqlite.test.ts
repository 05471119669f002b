import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import * as RetrievalConfig from "../../src/RetrievalConfig.ts"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import { contract } from "../contracts/LexicalIndex.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as LexicalIndexMemory from "../reference/LexicalIndexMemory.ts"
import { Database } from "./Database.ts"
import type { IndexWriteError } from "./IndexWriter.ts"
import * as LexicalIndexSqlite from "./LexicalIndexSqlite.ts"
import { coldBuild, MANIFEST, openSeeded, seeded, write } from "./testing/Fixtures.ts"

// A refused build is the port's own error, as the contract expects of any backend.
const asLexicalError = (error: unknown) =>
  error instanceof LexicalIndexError
    ? error
    : new LexicalIndexError({
      reason: (error as IndexWriteError).reason === "duplicate_chunk" ? "duplicate_chunk" : "unavailable",
      detail: (error as IndexWriteError).detail
    })

const sqliteLayer = (chunks: ReadonlyArray<Chunk>, weights?: ColumnWeights): Layer.Layer<LexicalIndex, LexicalIndexError> =>
  LexicalIndexSqlite.layer(weights).pipe(Layer.provide(Layer.effect(Database, openSeeded(coldBuild(chunks)).pipe(Effect.mapError(asLexicalError)))))

contract("sqlite", sqliteLayer)

// At least fifteen questions over the 300-chunk corpus: prose, identifiers in both spellings,
// accents, single rare words, and words in nearly every chunk.
const QUERIES: ReadonlyArray<string> = [
  "how do we retry failed HTTP requests with backoff",
  "idempotency key for payment requests",
  "cache invalidation after publishing an article",
  "rate limit per minute for the public API",
  "what is logged with each request and its trace id",
  "retryCount default",
  "max_backoff_ms",
  "feature flag rollout percentage",
  "removing a column in a database migration",
  "rotating secrets and credentials",
  "blue green deployment rollback",
  "dead letter queue poison messages",
  "event sourcing projections replay",
  "property tests with a fixed seed and shrinking",
  "memory leak from an event listener",
  "deadlocks and row locks",
  "café résumé accents",
  "getUserById",
  "time zones and daylight saving",
  "OAuth access tokens expire and refresh",
  "flaky tests quarantined in CI",
  "the a of and to",
  "observability"
]

const FILTERS: ReadonlyArray<RetrievalFilter> = [
  {},
  { types: ["decision", "convention"] },
  { pathPrefixes: ["notes/caching.md", "notes/retries.md", "notes/secrets.md"] },
  { includeSuperseded: true }
]

const ids = (hits: ReadonlyArray<LexicalHit>) => hits.map((hit) => hit.id)

const bothIndexes = (chunks: ReadonlyArray<Chunk>, weights: ColumnWeights) =>
  Effect.gen(function*() {
    const memory = yield* LexicalIndexMemory.make(chunks, weights)
    // Built in the test's scope, so the connection stays open while the test searches.
    const context = yield* Layer.build(LexicalIndexSqlite.layer(weights).pipe(Layer.provide(seeded(coldBuild(chunks)))))
    return { memory, sqlite: Context.get(context, LexicalIndex) }
  })

describe("LexicalIndexSqlite", () => {
  // Some chunks superseded and dated, so the filters have something to remove.
  const corpus = softwareChunks().map((chunk, i) =>
    i % 17 === 0 ? { ...chunk, status: "superseded" as const } : chunk)

  it.effect("search - the same top-10 order and scores as the reference index, for every query, filter and weighting", () =>
    Effect.gen(function*() {
      for (const weights of [RetrievalConfig.defaults.lexicalWeights, { text: 1, title: 0.5, tags: 3 }]) {
        const { memory, sqlite } = yield* bothIndexes(corpus, weights)
        let compared = 0
        for (const query of QUERIES) {
          for (const filter of FILTERS) {
            const expected = yield* memory.search(query, 10, filter)
            const actual = yield* sqlite.search(query, 10, filter)
            assert.deepStrictEqual(ids(actual), ids(expected), `${query} ${JSON.stringify(filter)}`)
            actual.forEach((hit, i) => {
              const want = expected[i]!.score
              assert.isAtMost(Math.abs(hit.score - want), 1e-12 * Math.max(1, want), `${query} @${i}`)
            })
            if (expected.length > 0) compared++
          }
        }
        // Nearly every pair returns something, so the agreement is not agreement on nothing.
        assert.isAtLeast(compared, QUERIES.length * FILTERS.length - 8)
      }
    }))

  it.effect("search - a tie that straddles the cut is broken by chunk id, whatever SQLite's order", () =>
    Effect.gen(function*() {
      // Thirty identical chunks inserted in scrambled id order, cut at five.
      const chunks = Array.from({ length: 30 }, (_, i) => makeChunk({ id: `t/${String((i * 11) % 30).padStart(2, "0")}.md#x`, title: "Same", text: "alpha beta" }))
      const { memory, sqlite } = yield* bothIndexes([...chunks, makeChunk({ id: "t/other.md#x", title: "Other", text: "gamma" })], RetrievalConfig.defaults.lexicalWeights)
      const hits = yield* sqlite.search("alpha", 5, {})
      assert.deepStrictEqual(ids(hits), ["t/00.md#x", "t/01.md#x", "t/02.md#x", "t/03.md#x", "t/04.md#x"])
      assert.deepStrictEqual(hits, yield* memory.search("alpha", 5, {}))
    }))

  it.effect("search - without explicit weights, reads RetrievalConfig's lexicalWeights", () =>
    Effect.gen(function*() {
      const chunks = [
        makeChunk({ id: "w/title.md#x", title: "alpha", text: "one two" }),
        makeChunk({ id: "w/body.md#x", title: "other", text: "alpha two" }),
        ...Array.from({ length: 6 }, (_, i) => makeChunk({ id: `w/f${i}.md#x`, title: "filler", text: `gardens ${i}` }))
      ]
      const first = (weights: ColumnWeights) =>
        Effect.gen(function*() {
          const index = yield* LexicalIndex
          return (yield* index.search("alpha", 1, {}))[0]!.id
        }).pipe(Effect.provide(LexicalIndexSqlite.layer().pipe(
          Layer.provide(seeded(coldBuild(chunks))),
          Layer.provide(RetrievalConfig.layer({ lexicalWeights: weights }))
        )))
      assert.strictEqual(yield* first({ text: 1, title: 4, tags: 1 }), "w/title.md#x")
      assert.strictEqual(yield* first({ text: 4, title: 1, tags: 1 }), "w/body.md#x")
    }))

  it.effect("search - follows incremental writes: a replaced chunk matches its new words only, a deleted one nothing", () =>
    Effect.gen(function*() {
      const database = Context.get(yield* Layer.build(seeded(coldBuild(corpus.slice(0, 60)))), Database)
      const index = yield* LexicalIndexSqlite.make().pipe(Effect.provideService(Database, database))
      const target = corpus[3]!
      const replaced = { ...target, text: "zanzibar quokka", contentSha: "1".repeat(64) }
      const gone = corpus[4]!
      yield* write(database, { chunks: [replaced], deleteChunks: [gone.id], manifest: MANIFEST })
      assert.deepStrictEqual(ids(yield* index.search("zanzibar", 10, {})), [target.id])
      assert.isFalse(ids(yield* index.search(gone.text, 60, { includeSuperseded: true })).includes(gone.id))
      const reference = yield* LexicalIndexMemory.make(
        [...corpus.slice(0, 60).filter((chunk) => chunk.id !== target.id && chunk.id !== gone.id), replaced],
        RetrievalConfig.defaults.lexicalWeights
      )
      for (const query of QUERIES) assert.deepStrictEqual(yield* index.search(query, 10, {}), yield* reference.search(query, 10, {}), query)
    }))

  it.effect("search - hostile questions return quickly: 50,000 letters, CJK without spaces, 16 KB of prose, nothing", () =>
    Effect.gen(function*() {
      const { memory, sqlite } = yield* bothIndexes(corpus, RetrievalConfig.defaults.lexicalWeights)
      const hostile = ["a".repeat(50_000), "日本語のテキスト".repeat(2_000), QUERIES.join(" ").repeat(16).slice(0, 16_384), "", "\"OR\" AND NOT NEAR(* ^"]
      for (const query of hostile) {
        assert.deepStrictEqual(yield* sqlite.search(query, 10, {}), yield* memory.search(query, 10, {}), query.slice(0, 40))
      }
    }))
})
