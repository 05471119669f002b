/**
 * Behaviour every LexicalIndex backend must show, run against each backend by its own test file.
 * A backend is given as a function from chunks (and column weights) to a layer, so each case
 * builds exactly the corpus it reasons about.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { ColumnWeights, LexicalHit } from "../../src/ports/LexicalIndex.ts"
import { defaultColumnWeights, LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { makeChunk } from "./ChunkFixtures.ts"

export type MakeLexicalLayer<E> = (chunks: ReadonlyArray<Chunk>, weights?: ColumnWeights) => Layer.Layer<LexicalIndex, E>

// Filler notes keep every test word rare, so idf stays above FTS5's floor and scores stay readable.
const FILLER: ReadonlyArray<Chunk> = Array.from({ length: 12 }, (_, i) =>
  makeChunk({ id: `filler/f${String(i).padStart(2, "0")}.md#a`, title: "Filler", text: `unrelated prose number ${i} about gardens` }))

const note = (id: string, text: string, extra: Partial<Parameters<typeof makeChunk>[0]> = {}): Chunk =>
  makeChunk({ id, title: "Note", text, ...extra })

const ids = (hits: ReadonlyArray<LexicalHit>): Array<string> => hits.map((hit) => hit.id)

export const contract = <E>(name: string, makeLayer: MakeLexicalLayer<E>) => {
  const search = (
    chunks: ReadonlyArray<Chunk>,
    query: string,
    limit: number,
    filter: RetrievalFilter = {},
    weights: ColumnWeights = defaultColumnWeights
  ) =>
    Effect.gen(function*() {
      const index = yield* LexicalIndex
      return yield* index.search(query, limit, filter)
    }).pipe(Effect.provide(makeLayer([...FILLER, ...chunks], weights)))

  describe(`LexicalIndex contract (${name})`, () => {
    it.effect("search - ranks by score descending, then chunk id ascending on equal scores", () =>
      Effect.gen(function*() {
        const hits = yield* search([
          note("n/b.md#x", "alpha beta gamma"),
          note("n/a.md#x", "alpha beta gamma"),
          note("n/c.md#x", "alpha alpha gamma")
        ], "alpha", 10)
        assert.deepStrictEqual(ids(hits), ["n/c.md#x", "n/a.md#x", "n/b.md#x"])
        assert.strictEqual(hits[1]!.score, hits[2]!.score)
        assert.isAbove(hits[0]!.score, hits[1]!.score)
      }))

    it.effect("search - scores are finite and positive, and a rarer term outweighs a common one", () =>
      Effect.gen(function*() {
        const hits = yield* search([
          note("n/rare.md#x", "zebra one two"),
          note("n/common1.md#x", "lion one two"),
          note("n/common2.md#x", "lion three four"),
          note("n/common3.md#x", "lion five six")
        ], "zebra lion", 10)
        assert.strictEqual(hits[0]!.id, "n/rare.md#x")
        assert.strictEqual(hits.length, 4)
        for (const hit of hits) assert.isTrue(Number.isFinite(hit.score) && hit.score > 0)
      }))

    it.effect("search - OR-joins the query terms: a chunk with any one of them matches", () =>
      Effect.gen(function*() {
        const hits = yield* search([note("n/a.md#x", "alpha only"), note("n/b.md#x", "omega only")], "alpha omega missing", 10)
        assert.deepStrictEqual(ids(hits).sort(), ["n/a.md#x", "n/b.md#x"])
      }))

    it.effect("search - matches across stems, accents, case and identifier spellings", () =>
      Effect.gen(function*() {
        const chunks = [
          note("n/run.md#x", "The runners were running late"),
          note("n/cafe.md#x", "Meet at the CAFÉ"),
          note("n/camel.md#x", "call getUserName first"),
          note("n/snake.md#x", "set max_retry_count")
        ]
        assert.deepStrictEqual(ids(yield* search(chunks, "runs", 10)), ["n/run.md#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "cafe", 10)), ["n/cafe.md#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "user name", 10)), ["n/camel.md#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "maxRetryCount", 10)), ["n/snake.md#x"])
      }))

    it.effect("search - honours limit; limit 0, an empty query and unknown words give nothing", () =>
      Effect.gen(function*() {
        const chunks = Array.from({ length: 5 }, (_, i) => note(`n/${i}.md#x`, `alpha ${"filler ".repeat(i)}`))
        assert.strictEqual((yield* search(chunks, "alpha", 3)).length, 3)
        assert.strictEqual((yield* search(chunks, "alpha", Number.POSITIVE_INFINITY)).length, 5)
        assert.deepStrictEqual(yield* search(chunks, "alpha", 0), [])
        assert.deepStrictEqual(yield* search(chunks, "  ?! ", 10), [])
        assert.deepStrictEqual(yield* search(chunks, "nonexistentword", 10), [])
      }))

    it.effect("search - weighs columns: a title hit beats a body hit when the title weighs more, and not otherwise", () =>
      Effect.gen(function*() {
        const chunks = [
          makeChunk({ id: "n/title.md#x", title: "alpha", text: "one two" }),
          makeChunk({ id: "n/body.md#x", title: "other", text: "alpha two" })
        ]
        const titleHeavy = yield* search(chunks, "alpha", 10, {}, { text: 1, title: 3, tags: 1 })
        assert.deepStrictEqual(ids(titleHeavy), ["n/title.md#x", "n/body.md#x"])
        const bodyHeavy = yield* search(chunks, "alpha", 10, {}, { text: 3, title: 1, tags: 1 })
        assert.deepStrictEqual(ids(bodyHeavy), ["n/body.md#x", "n/title.md#x"])
        const tagged = yield* search([...chunks, makeChunk({ id: "n/tag.md#x", title: "other", text: "one two", tags: ["alpha"] })], "alpha", 10, {}, { text: 1, title: 1, tags: 5 })
        assert.strictEqual(tagged[0]!.id, "n/tag.md#x")
      }))

    it.effect("search - leaves out superseded chunks unless asked for them", () =>
      Effect.gen(function*() {
        const chunks = [
          note("n/old.md#x", "alpha alpha alpha", { status: "superseded" }),
          note("n/stale.md#x", "alpha alpha", { provenance: { state: "superseded" } }),
          note("n/new.md#x", "alpha")
        ]
        assert.deepStrictEqual(ids(yield* search(chunks, "alpha", 10)), ["n/new.md#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "alpha", 10, { includeSuperseded: true })), ["n/old.md#x", "n/stale.md#x", "n/new.md#x"])
      }))

    it.effect("search - filters by note type, date and path prefix", () =>
      Effect.gen(function*() {
        const chunks = [
          note("docs/a.md#x", "alpha", { noteType: "decision", provenance: { createdAt: "2024-01-01T00:00:00Z" } }),
          note("docs-old/b.md#x", "alpha", { noteType: "state", provenance: { createdAt: "2024-06-01T00:00:00Z" } }),
          note("src/c.ts#x", "alpha", { noteType: "code", provenance: { createdAt: null } })
        ]
        assert.deepStrictEqual(ids(yield* search(chunks, "alpha", 10, { types: ["decision", "code"] })).sort(), ["docs/a.md#x", "src/c.ts#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "alpha", 10, { since: "2024-03-01" })).sort(), ["docs-old/b.md#x", "src/c.ts#x"])
        assert.deepStrictEqual(ids(yield* search(chunks, "alpha", 10, { paths: ["docs"] })), ["docs/a.md#x"])
      }))

    it.effect("search - applies the filter before the cut, so limit hits come back", () =>
      Effect.gen(function*() {
        const strong = Array.from({ length: 8 }, (_, i) => note(`n/strong${i}.md#x`, "alpha alpha alpha beta", { status: "superseded" }))
        const weak = Array.from({ length: 4 }, (_, i) => note(`n/weak${i}.md#x`, "alpha beta beta beta"))
        const hits = yield* search([...strong, ...weak], "alpha", 3)
        assert.deepStrictEqual(ids(hits), ["n/weak0.md#x", "n/weak1.md#x", "n/weak2.md#x"])
      }))

    it.effect("search - same hits, byte for byte, whatever order the chunks arrive in", () =>
      Effect.gen(function*() {
        const chunks = Array.from({ length: 9 }, (_, i) => note(`n/${(i * 7) % 9}.md#x`, `alpha ${"beta ".repeat(i % 3)} gamma ${i % 2 === 0 ? "alpha" : ""}`))
        const forward = yield* search(chunks, "alpha beta", 10)
        const backward = yield* search([...chunks].reverse(), "alpha beta", 10)
        assert.strictEqual(JSON.stringify(backward), JSON.stringify(forward))
      }))

    it.effect("documentFrequencies - chunks holding each word's term, counted up to the cap; 0 for a word none holds", () =>
      Effect.gen(function*() {
        const chunks = [
          ...Array.from({ length: 5 }, (_, i) => note(`n/common${i}.md#x`, "alpha common words")),
          note("n/rare.md#x", "zebra deploying"),
          note("n/titled.md#x", "plain", { title: "Deploys" })
        ]
        const counts = yield* Effect.gen(function*() {
          const index = yield* LexicalIndex
          return [yield* index.documentFrequencies(["alpha", "zebra", "deployed", "nowhere"], 100), yield* index.documentFrequencies(["alpha"], 3)]
        }).pipe(Effect.provide(makeLayer([...FILLER, ...chunks], defaultColumnWeights)))
        // `deployed` meets `deploying` and the title `Deploys` through their shared stem.
        assert.deepStrictEqual(counts, [[5, 1, 2, 0], [3]])
      }))

    it.effect("build - two chunks with one id fail with a typed error", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(search([note("n/a.md#x", "alpha"), note("n/a.md#x", "beta")], "alpha", 10))
        assert.isTrue(error instanceof LexicalIndexError && error.reason === "duplicate_chunk")
      }))
  })
}
