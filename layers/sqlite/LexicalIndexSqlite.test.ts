import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { terms } from "../../src/text/Words.ts"
import * as RetrievalConfig from "../../src/RetrievalConfig.ts"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import { contract } from "../contracts/LexicalIndex.contract.ts"
import { SOFTWARE_QUERIES, softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as LexicalIndexMemory from "../reference/LexicalIndexMemory.ts"
import { Database } from "./Database.ts"
import type { IndexWriteError } from "../../src/ports/IndexStore.ts"
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
  LexicalIndexSqlite.layer(weights === undefined ? {} : { weights }).pipe(Layer.provide(Layer.effect(Database, openSeeded(coldBuild(chunks)).pipe(Effect.mapError(asLexicalError)))))

contract("sqlite", sqliteLayer)
contract("sqlite, exhaustive", (chunks, weights) =>
  LexicalIndexSqlite.layer(weights === undefined ? { strategy: "exhaustive" } : { weights, strategy: "exhaustive" }).pipe(
    Layer.provide(Layer.effect(Database, openSeeded(coldBuild(chunks)).pipe(Effect.mapError(asLexicalError))))
  ))

const QUERIES = SOFTWARE_QUERIES

const FILTERS: ReadonlyArray<RetrievalFilter> = [
  {},
  { types: ["decision", "convention"] },
  { paths: ["notes/caching.md", "notes/retries.md", "notes/secrets.md"] },
  { includeSuperseded: true }
]

const ids = (hits: ReadonlyArray<LexicalHit>) => hits.map((hit) => hit.id)

const bothIndexes = (chunks: ReadonlyArray<Chunk>, weights: ColumnWeights, strategy: LexicalIndexSqlite.Options["strategy"] = "pruned") =>
  Effect.gen(function*() {
    const memory = yield* LexicalIndexMemory.make(chunks, weights)
    // Built in the test's scope, so the connection stays open while the test searches.
    const context = yield* Layer.build(LexicalIndexSqlite.layer({ weights, strategy }).pipe(Layer.provide(seeded(coldBuild(chunks)))))
    return { memory, sqlite: Context.get(context, LexicalIndex) }
  })

// Scores are computed with the reference's arithmetic over FTS5's statistics: the same doubles.
const assertSameHits = (actual: ReadonlyArray<LexicalHit>, expected: ReadonlyArray<LexicalHit>, label: string) =>
  assert.deepStrictEqual(actual, expected, label)

/** Queries holding a term in at least half the chunks: the ones the pruned strategy shortcuts. */
const withFlooredTerm = (chunks: ReadonlyArray<Chunk>, queries: ReadonlyArray<string>): number => {
  const rows = new Map<string, number>()
  for (const chunk of chunks) for (const term of new Set([chunk.text, chunk.title, chunk.tags.join(" ")].flatMap(terms))) rows.set(term, (rows.get(term) ?? 0) + 1)
  return queries.filter((query) => terms(query).some((term) => (rows.get(term) ?? 0) >= chunks.length / 2)).length
}

/** A seeded corpus over a Zipf vocabulary, where a few words are in nearly every chunk. */
const zipfCorpus = (size: number, queryCount: number, seed: number) => {
  let state = seed >>> 0
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const vocabulary = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(36)}`)
  const harmonic = vocabulary.reduce((sum, _, i) => sum + 1 / (i + 1), 0)
  const word = () => {
    let target = next() * harmonic
    for (let i = 0; i < vocabulary.length; i++) {
      target -= 1 / (i + 1)
      if (target <= 0) return vocabulary[i]!
    }
    return vocabulary[vocabulary.length - 1]!
  }
  const phrase = (n: number) => Array.from({ length: n }, word).join(" ")
  const types = ["decision", "convention", "state", "note"] as const
  const chunks = Array.from({ length: size }, (_, i) => makeChunk({
    id: `notes/${String(i % 40).padStart(2, "0")}.md#${i}`,
    title: phrase(3),
    text: phrase(20 + (i % 50)),
    tags: [word()],
    noteType: types[i % types.length]!,
    status: i % 23 === 0 ? "superseded" : "current"
  }))
  return { chunks, queries: Array.from({ length: queryCount }, (_, i) => phrase(2 + (i % 7))) }
}

/**
 * A seeded corpus where every word is common, each in about a third of the chunks, with counts and
 * lengths that vary: no share leaves a rarer word to rank alone, so only the conjunctive cut prunes.
 * Some queries add a word no chunk holds.
 */
const flatCorpus = (size: number, queryCount: number, seed: number) => {
  let state = seed >>> 0
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const vocabulary = ["token", "budget", "import", "cycle", "fresh", "compute", "packer", "claim", "ledger", "refund"]
  const filler = Array.from({ length: 200 }, (_, i) => `f${i.toString(36)}`)
  const text = () => {
    const words: Array<string> = []
    for (const word of vocabulary) if (next() < 0.33) for (let n = 1 + Math.floor(next() * 4); n > 0; n--) words.push(word)
    for (let n = 5 + Math.floor(next() * 60); n > 0; n--) words.push(filler[Math.floor(next() * filler.length)]!)
    return words.sort(() => next() - 0.5).join(" ")
  }
  const chunks = Array.from({ length: size }, (_, i) => makeChunk({
    id: `notes/${String(i % 40).padStart(2, "0")}.md#${i}`,
    title: next() < 0.2 ? vocabulary[Math.floor(next() * vocabulary.length)]! : filler[i % filler.length]!,
    text: text(),
    noteType: (["decision", "convention", "state", "note"] as const)[i % 4]!,
    status: i % 19 === 0 ? "superseded" : "current"
  }))
  const queries = Array.from({ length: queryCount }, (_, i) => {
    const words = Array.from({ length: 2 + (i % 3) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!)
    return [...words, ...(i % 4 === 0 ? ["absentword"] : [])].join(" ")
  })
  return { chunks, queries }
}

describe("LexicalIndexSqlite", () => {
  // Some chunks superseded and dated, so the filters have something to remove.
  const corpus = softwareChunks().map((chunk, i) =>
    i % 17 === 0 ? { ...chunk, status: "superseded" as const } : chunk)

  it.effect("search - the same top-10 order and scores as the reference index, for every query, filter, weighting and strategy", () =>
    Effect.gen(function*() {
      assert.isAtLeast(withFlooredTerm(corpus, QUERIES), 5)
      for (const strategy of ["pruned", "exhaustive"] as const) {
        for (const weights of [RetrievalConfig.defaults.lexicalWeights, { text: 1, title: 0.5, tags: 3 }]) {
          const { memory, sqlite } = yield* bothIndexes(corpus, weights, strategy)
          let compared = 0
          for (const query of QUERIES) {
            for (const filter of FILTERS) {
              const expected = yield* memory.search(query, 10, filter)
              assertSameHits(yield* sqlite.search(query, 10, filter), expected, `${strategy} ${query} ${JSON.stringify(filter)}`)
              if (expected.length > 0) compared++
            }
          }
          // Nearly every pair returns something, so the agreement is not agreement on nothing.
          assert.isAtLeast(compared, QUERIES.length * FILTERS.length - 8)
        }
      }
    }), 30_000) // every query under every filter and weighting, on two indexes

  it.effect("search - pruned and exhaustive agree with the reference where common words dominate (Zipf corpus, 100 queries)", () =>
    Effect.gen(function*() {
      const { chunks, queries } = zipfCorpus(1_000, 100, 3)
      assert.isAtLeast(withFlooredTerm(chunks, queries), 50)
      const { memory, sqlite } = yield* bothIndexes(chunks, { text: 1, title: 2.5, tags: 1.5 }, "pruned")
      const { sqlite: exhaustive } = yield* bothIndexes(chunks, { text: 1, title: 2.5, tags: 1.5 }, "exhaustive")
      for (const [i, query] of queries.entries()) {
        const filter = FILTERS[i % FILTERS.length]!
        for (const limit of [5, 40]) {
          const expected = yield* memory.search(query, limit, filter)
          assertSameHits(yield* sqlite.search(query, limit, filter), expected, `pruned ${query} ${limit}`)
          assertSameHits(yield* exhaustive.search(query, limit, filter), expected, `exhaustive ${query} ${limit}`)
        }
      }
    }), 60_000)

  it.effect("search - pruned agrees with the reference where every word is common and none is rare (flat corpus, 60 queries)", () =>
    Effect.gen(function*() {
      const { chunks, queries } = flatCorpus(1_200, 60, 11)
      const { memory, sqlite } = yield* bothIndexes(chunks, { text: 1, title: 2.5, tags: 1.5 }, "pruned")
      // The path filter names notes this corpus lacks; the others leave hundreds of matches.
      const filters = FILTERS.filter((filter) => filter.paths === undefined)
      for (const [i, query] of queries.entries()) {
        const filter = filters[i % filters.length]!
        for (const limit of [1, 10, 40]) {
          const expected = yield* memory.search(query, limit, filter)
          assert.strictEqual(expected.length, limit, query)
          assertSameHits(yield* sqlite.search(query, limit, filter), expected, `pruned ${query} ${limit}`)
        }
      }
    }), 60_000)

  it.effect("search - the pruned cut leaves room for what the common words add: they can lift a row past another", () =>
    Effect.gen(function*() {
      // Same length; A's rare word counts a hair more (title weight), B has the common word four times.
      const a = makeChunk({ id: "p/a.md#x", title: "zebra", text: "alpha beta gamma delta epsilon" })
      const b = makeChunk({ id: "p/b.md#x", title: "other", text: "zebra the the the the" })
      const filler = Array.from({ length: 30 }, (_, i) => makeChunk({ id: `p/f${i}.md#x`, title: "filler", text: `the garden number ${i}` }))
      const weights = { text: 1, title: 1.000001, tags: 1 }
      const { memory, sqlite } = yield* bothIndexes([a, b, ...filler], weights)
      const expected = yield* memory.search("zebra the", 1, {})
      assert.deepStrictEqual(ids(expected), [b.id])
      assertSameHits(yield* sqlite.search("zebra the", 1, {}), expected, "zebra the")
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

  it.effect("search - a tie wider than the first fetch, with the lowest ids written last, still answers in id order", () =>
    Effect.gen(function*() {
      // Forty identical chunks, then ten more whose ids sort first: SQLite meets them last.
      const same = (n: number) => makeChunk({ id: `t/${String(n).padStart(2, "0")}.md#x`, noteId: `t/${String(n).padStart(2, "0")}.md`, title: "Same", text: "alpha beta" })
      const first = Array.from({ length: 40 }, (_, i) => same(i + 10))
      const later = Array.from({ length: 10 }, (_, i) => same(i))
      const database = Context.get(yield* Layer.build(seeded(coldBuild([...first, makeChunk({ id: "t/other.md#x", title: "Other", text: "gamma" })]))), Database)
      yield* write(database, { chunks: later, notes: later.map((chunk) => ({ id: chunk.noteId, contentHash: `hash:${chunk.noteId}` })), manifest: MANIFEST })
      const index = yield* LexicalIndexSqlite.make().pipe(Effect.provideService(Database, database))
      const reference = yield* LexicalIndexMemory.make([...first, ...later, makeChunk({ id: "t/other.md#x", title: "Other", text: "gamma" })], RetrievalConfig.defaults.lexicalWeights)
      for (const limit of [1, 5, 9]) {
        const hits = yield* index.search("alpha", limit, {})
        assert.deepStrictEqual(ids(hits), later.slice(0, limit).map((chunk) => chunk.id))
        assert.deepStrictEqual(hits, yield* reference.search("alpha", limit, {}))
      }
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

  it.effect("search - superseded rows that outrank every current one are left out, however many there are", () =>
    Effect.gen(function*() {
      // FTS5 ranks the default filter's matches alone, so the cut must look past 60 better rows it then drops.
      const chunks = Array.from({ length: 80 }, (_, i) => makeChunk({
        id: `notes/${String(i).padStart(2, "0")}.md#s00`,
        title: `note ${i}`,
        text: i < 60 ? "zebra zebra zebra crossing" : `zebra crossing number ${i} with more words around it`,
        status: i < 60 ? "superseded" : "current"
      }))
      for (const strategy of ["pruned", "exhaustive"] as const) {
        const { memory, sqlite } = yield* bothIndexes(chunks, RetrievalConfig.defaults.lexicalWeights, strategy)
        for (const query of ["zebra", "zebra crossing"]) {
          const expected = yield* memory.search(query, 10, {})
          assert.lengthOf(expected, 10)
          assert.isTrue(expected.every((hit) => !hit.id.startsWith("notes/0") && Number(hit.id.slice(6, 8)) >= 60), query)
          assertSameHits(yield* sqlite.search(query, 10, {}), expected, `${strategy} ${query}`)
        }
      }
    }))

  it.effect("search - term counts read from the index are not trusted where they disagree with MATCH: the text is analysed instead", () =>
    Effect.gen(function*() {
      const weights = RetrievalConfig.defaults.lexicalWeights
      const memory = yield* LexicalIndexMemory.make(corpus, weights)
      const database = yield* openSeeded(coldBuild(corpus))
      // Stand in for the connection's views of the FTS5 index, and hold no term: no row holds what MATCH found.
      database.connection.exec("CREATE TEMP TABLE cairn_fts_instances (term TEXT, doc INTEGER, col TEXT)")
      database.connection.exec("CREATE TEMP TABLE cairn_fts_rows (term TEXT, doc INTEGER, cnt INTEGER)")
      const sqlite = yield* LexicalIndexSqlite.make({ weights }).pipe(Effect.provideService(Database, database))
      for (const query of QUERIES) assertSameHits(yield* sqlite.search(query, 10, {}), yield* memory.search(query, 10, {}), query)
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
