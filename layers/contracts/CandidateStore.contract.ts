/**
 * Behaviour every CandidateStore backend must show, run against each backend by its own test file.
 * A backend is given as a function from chunks to a layer holding exactly those chunks, so each case
 * builds the store it reasons about.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { CandidateStore, CandidateStoreError } from "../../src/ports/CandidateStore.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { analysedName } from "../../src/retrieval/titlePath.ts"
import { makeChunk } from "./ChunkFixtures.ts"

export type MakeCandidateLayer<E> = (chunks: ReadonlyArray<Chunk>) => Layer.Layer<CandidateStore, E>

const chunk = (id: string, lineStart: number, extra: Partial<Parameters<typeof makeChunk>[0]> = {}): Chunk =>
  makeChunk({ id, lineStart, lineEnd: lineStart + 2, text: `words of ${id}`, ...extra })

// Note ids chosen so code-unit order (`Z` < `a` < `é`) differs from locale order (a, é, Z).
const ZETA = "notes/Zeta.md"
const ALPHA = "notes/alpha.md"
const EMILE = "notes/émile.md"

// Lines out of id order, a tie on line broken by id, a link list, a superseded lead, dates and types.
const CORPUS: ReadonlyArray<Chunk> = [
  chunk(`${ALPHA}#c`, 10, { title: "Alpha", noteType: "decision", provenance: { createdAt: "2024-01-10T00:00:00Z" } }),
  chunk(`${ALPHA}#a`, 30, { title: "Alpha", noteType: "decision", provenance: { createdAt: "2024-09-10T00:00:00Z" } }),
  chunk(`${ALPHA}#b`, 20, { title: "Alpha", noteType: "decision", isLinkList: true }),
  chunk(`${ALPHA}#d`, 30, { title: "Alpha", noteType: "decision" }),
  chunk(`${ZETA}#x`, 1, { title: "Zeta", status: "superseded" }),
  chunk(`${ZETA}#y`, 5, { title: "Zeta" }),
  chunk(`${EMILE}#e`, 3, { title: "Émile", noteType: "state", provenance: { state: "superseded" } }),
  chunk("docs-old/page.md#p", 1, { title: "Old page", noteType: "reference" })
]

const ids = (chunks: ReadonlyArray<Chunk>): Array<string> => chunks.map((c) => c.id)

export const contract = <E>(name: string, makeLayer: MakeCandidateLayer<E>) => {
  const withStore = <A, E2>(chunks: ReadonlyArray<Chunk>, f: (store: CandidateStore["Service"]) => Effect.Effect<A, E2>) =>
    Effect.gen(function*() {
      return yield* f(yield* CandidateStore)
    }).pipe(Effect.provide(makeLayer(chunks)))

  describe(`CandidateStore contract (${name})`, () => {
    it.effect("size - counts every chunk, link lists and superseded ones included; an empty store holds none", () =>
      Effect.gen(function*() {
        assert.strictEqual(yield* withStore(CORPUS, (store) => store.size), CORPUS.length)
        assert.strictEqual(yield* withStore([], (store) => store.size), 0)
      }))

    it.effect("get - the chunks of the ids in the order given, repeats repeated, every field as stored", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const asked = [`${ZETA}#y`, `${ALPHA}#c`, "docs-old/page.md#p", `${ZETA}#y`] as Array<ChunkId>
          const got = yield* store.get(asked)
          assert.deepStrictEqual(got, asked.map((id) => CORPUS.find((c) => c.id === id)!))
          assert.deepStrictEqual(yield* store.get([]), [])
        })))

    it.effect("get - an id the store does not hold fails with missing_chunk naming it", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const error = yield* Effect.flip(store.get([`${ALPHA}#c`, "notes/none.md#z"] as Array<ChunkId>))
          assert.instanceOf(error, CandidateStoreError)
          assert.strictEqual(error.reason, "missing_chunk")
          assert.strictEqual(error.detail, "notes/none.md#z")
        })))

    it.effect("chunksOfNotes - each note's chunks in line order (ties by id), notes in the order asked, link lists left out", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const got = yield* store.chunksOfNotes([ZETA, ALPHA, "notes/unknown.md"], Number.POSITIVE_INFINITY, { includeSuperseded: true })
          assert.deepStrictEqual(ids(got), [`${ZETA}#x`, `${ZETA}#y`, `${ALPHA}#c`, `${ALPHA}#a`, `${ALPHA}#d`])
        })))

    it.effect("chunksOfNotes - at most perNote each, the filter applied before the cut; perNote 0 gives nothing", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          // Zeta's first chunk is superseded: it must not use up Zeta's one place.
          assert.deepStrictEqual(ids(yield* store.chunksOfNotes([ALPHA, ZETA], 1, {})), [`${ALPHA}#c`, `${ZETA}#y`])
          assert.deepStrictEqual(ids(yield* store.chunksOfNotes([ALPHA], 2, { since: "2024-06-01" })), [`${ALPHA}#a`, `${ALPHA}#d`])
          assert.deepStrictEqual(yield* store.chunksOfNotes([ALPHA, ZETA], 0, {}), [])
          assert.deepStrictEqual(yield* store.chunksOfNotes([], 5, {}), [])
          assert.deepStrictEqual(yield* store.chunksOfNotes([EMILE], 5, {}), [])
        })))

    it.effect("notes - sorted by id in code-unit order, each summarised by its first chunk by line", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const notes = yield* store.notes({ includeSuperseded: true })
          assert.deepStrictEqual(notes.map((n) => n.id), ["docs-old/page.md", ZETA, ALPHA, EMILE])
          const alpha = notes.find((n) => n.id === ALPHA)!
          assert.deepStrictEqual([alpha.title, alpha.path, alpha.chunkCount, alpha.leadChunk], ["Alpha", ALPHA, 4, `${ALPHA}#c`])
          const zeta = notes.find((n) => n.id === ZETA)!
          assert.deepStrictEqual([zeta.chunkCount, zeta.leadChunk], [2, `${ZETA}#x`])
          // A store that keeps analysed names must keep what the title/path channel would compute.
          for (const note of notes) if (note.nameTerms !== undefined) assert.deepStrictEqual(note.nameTerms, analysedName(note), note.id)
        })))

    it.effect("notes - only notes with a chunk passing the filter, whatever filter was asked before", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const asked = (filter: RetrievalFilter) => Effect.map(store.notes(filter), (notes) => notes.map((n) => n.id))
          assert.deepStrictEqual(yield* asked({}), ["docs-old/page.md", ZETA, ALPHA])
          assert.deepStrictEqual(yield* asked({ types: ["state"], includeSuperseded: true }), [EMILE])
          assert.deepStrictEqual(yield* asked({ paths: ["notes"] }), [ZETA, ALPHA])
          assert.deepStrictEqual(yield* asked({ paths: ["docs"] }), [])
          assert.deepStrictEqual(yield* asked({}), ["docs-old/page.md", ZETA, ALPHA])
        })))

    it.effect("chunkCounts - every chunk of each known note, link lists included; unknown notes absent", () =>
      withStore(CORPUS, (store) =>
        Effect.gen(function*() {
          const counts = yield* store.chunkCounts([ALPHA, "notes/unknown.md", EMILE])
          assert.deepStrictEqual([...counts].sort(([a], [b]) => (a < b ? -1 : 1)), [[ALPHA, 4], [EMILE, 1]])
          assert.strictEqual((yield* store.chunkCounts([])).size, 0)
        })))

    it.effect("every answer is the same whatever order the chunks were stored in", () =>
      Effect.gen(function*() {
        const answers = (chunks: ReadonlyArray<Chunk>) =>
          withStore(chunks, (store) =>
            Effect.all([
              store.notes({ includeSuperseded: true }),
              store.chunksOfNotes([ALPHA, ZETA, EMILE], 3, { includeSuperseded: true }),
              Effect.map(store.chunkCounts([ZETA, ALPHA]), (counts) => [...counts].sort(([a], [b]) => (a < b ? -1 : 1)))
            ]))
        const forward = yield* answers(CORPUS)
        const backward = yield* answers([...CORPUS].reverse())
        assert.strictEqual(JSON.stringify(backward), JSON.stringify(forward))
      }))
  })
}
