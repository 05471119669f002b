/**
 * Behaviour every IndexStore backend must show, run against each backend by its own test file. A
 * backend is given as a layer over an empty index, made anew for every test.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Stream } from "effect"
import type { Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { IndexStore, type IndexWrite, IndexWriteError, type RebuildContent, type RebuildPart, type VectorModel } from "../../src/ports/IndexStore.ts"
import { makeChunk } from "./ChunkFixtures.ts"

const BUILT_AT = "2025-03-01T12:00:00Z"
const MANIFEST = { snapshotHash: "snapshot-1", builtAt: BUILT_AT }
const MODEL_A: VectorModel = { id: "model-a", version: "1", dimension: 3, model: "weights-a" }
const MODEL_B: VectorModel = { id: "model-b", version: "1", dimension: 3 }

const sha = (digit: string) => digit.repeat(64)
const id = (value: string) => value as ChunkId

const chunk = (id: string, contentSha = sha("a"), text = id): Chunk => makeChunk({ id, contentSha, text })

const ALPHA = [chunk("docs/alpha.md#one"), chunk("docs/alpha.md#two", sha("b"))]
const BETA = [chunk("docs/beta.md#one", sha("c"))]

const cold: IndexWrite = {
  replaceAll: true,
  chunks: [...ALPHA, ...BETA],
  notes: [{ id: "docs/alpha.md", contentHash: "h-alpha" }, { id: "docs/beta.md", contentHash: "h-beta" }],
  relations: { from: ["docs/alpha.md", "docs/beta.md"], edges: [{ from: "docs/alpha.md", to: "docs/beta.md", verb: "links" }] },
  vectors: {
    model: MODEL_A,
    entries: [...ALPHA, ...BETA].map((c, i) => ({ chunkId: c.id, vector: [1, i + 1, 0] }))
  },
  manifest: MANIFEST
}

/** The cold build as a rebuild takes it: one part per note, beta's first, then alpha's. */
const ALPHA_PART: RebuildPart = { notes: [{ id: "docs/alpha.md", contentHash: "h-alpha" }], chunks: ALPHA }
const BETA_PART: RebuildPart = { notes: [{ id: "docs/beta.md", contentHash: "h-beta" }], chunks: BETA }
const rebuilding = (...parts: ReadonlyArray<RebuildPart>): RebuildContent => ({ parts: Stream.fromIterable(parts), relations: cold.relations!, manifest: MANIFEST })
const content = rebuilding(BETA_PART, ALPHA_PART)

/** Everything a reader of the store can see, to compare before and after. */
const observe = Effect.gen(function*() {
  const store = yield* IndexStore
  return {
    manifest: yield* store.manifest,
    notes: [...(yield* store.noteHashes)],
    chunks: [...(yield* store.storedChunks(["docs/alpha.md", "docs/beta.md", "docs/gamma.md"]))],
    unembedded: yield* store.unembedded([]),
    space: yield* store.vectorSpaceHeader,
    builtUnder: yield* store.builtUnder
  }
})

export const contract = <E>(name: string, makeLayer: () => Layer.Layer<IndexStore, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F, IndexStore>) => Effect.provide(body, makeLayer())

  describe(`IndexStore contract (${name})`, () => {
    it.effect("an empty store has no manifest, no notes and no space", () =>
      run(Effect.gen(function*() {
        const seen = yield* observe
        assert.isUndefined(seen.manifest)
        assert.deepStrictEqual(seen.notes, [])
        assert.isUndefined(seen.space)
        assert.isUndefined(seen.builtUnder)
      })), { timeout: 30_000 })

    it.effect("write - a cold build is stored whole, and the manifest counts it", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        const summary = yield* store.write(cold)
        assert.deepStrictEqual(
          [summary.generation, summary.chunkCount, summary.embeddedCount, summary.noteCount, summary.relationCount, summary.chunksWritten, summary.vectorsWritten],
          [1, 3, 3, 2, 1, 3, 3]
        )
        const manifest = yield* store.manifest
        assert.deepStrictEqual(manifest, { generation: 1, snapshotHash: "snapshot-1", chunkCount: 3, embeddedCount: 3, noteCount: 2, relationCount: 1 })
        assert.deepStrictEqual([...(yield* store.noteHashes)], [["docs/alpha.md", "h-alpha"], ["docs/beta.md", "h-beta"]])
        assert.deepStrictEqual([...(yield* store.noteHashesOf(["docs/beta.md", "docs/missing.md"]))], [["docs/beta.md", "h-beta"]])
        assert.strictEqual(yield* store.noteCount, 2)
        const space = yield* store.vectorSpace
        assert.deepStrictEqual(space, { modelId: "model-a", version: "1", dimension: 3, model: "weights-a" })
        assert.deepStrictEqual(yield* store.vectorSpaceHeader, { modelId: "model-a", version: "1", dimension: 3 })
      })), { timeout: 30_000 })

    it.effect("write - a refused batch leaves the store exactly as it was", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const before = yield* observe
        const refusals: ReadonlyArray<readonly [IndexWriteError["reason"], IndexWrite]> = [
          ["duplicate_chunk", { chunks: [ALPHA[0]!, ALPHA[0]!], manifest: MANIFEST }],
          ["invalid_manifest", { chunks: [chunk("docs/gamma.md#one")], manifest: { ...MANIFEST, builtAt: "yesterday" } }],
          ["conflicting_batch", { chunks: [ALPHA[0]!], deleteChunks: [ALPHA[0]!.id], manifest: MANIFEST }],
          ["invalid_vector", { chunks: [chunk("docs/gamma.md#one")], vectors: { model: MODEL_A, entries: [{ chunkId: id("docs/gamma.md#one"), vector: [0, 0, 0] }] }, manifest: MANIFEST }],
          ["dimension_mismatch", { vectors: { model: MODEL_A, entries: [{ chunkId: ALPHA[0]!.id, vector: [1, 0] }] }, manifest: MANIFEST }],
          ["unknown_chunk", { chunks: [chunk("docs/gamma.md#one")], vectors: { model: MODEL_A, entries: [{ chunkId: id("docs/nowhere.md#x"), vector: [1, 0, 0] }] }, manifest: MANIFEST }],
          ["embedder_changed", { chunks: [chunk("docs/gamma.md#one")], vectors: { model: MODEL_B, entries: [{ chunkId: id("docs/gamma.md#one"), vector: [1, 0, 0] }] }, manifest: MANIFEST }]
        ]
        for (const [reason, batch] of refusals) {
          const exit = yield* Effect.exit(store.write(batch))
          assert.isTrue(Exit.isFailure(exit), reason)
          const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
          assert.strictEqual(error?._tag === "Fail" && error.error instanceof IndexWriteError ? error.error.reason : undefined, reason)
          assert.deepStrictEqual(yield* observe, before, reason)
        }
      })), { timeout: 30_000 })

    it.effect("write - a note's chunks are what its batch says: missing ones go, a changed text loses its vector, the same text keeps it", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const summary = yield* store.write({
          chunks: [ALPHA[0]!, chunk("docs/alpha.md#three", sha("d"))],
          notes: [{ id: "docs/alpha.md", contentHash: "h-alpha-2" }],
          manifest: { ...MANIFEST, snapshotHash: "snapshot-2" }
        })
        assert.deepStrictEqual([summary.generation, summary.chunkCount, summary.embeddedCount, summary.chunksDeleted], [2, 3, 2, 1])
        const stored = yield* store.storedChunks(["docs/alpha.md"])
        assert.deepStrictEqual([...stored], [
          ["docs/alpha.md#one", { contentSha: sha("a"), embedded: true }],
          ["docs/alpha.md#three", { contentSha: sha("d"), embedded: false }]
        ])
        assert.deepStrictEqual(yield* store.unembedded([]), [{ id: id("docs/alpha.md#three"), text: "docs/alpha.md#three" }])
        // Excluded notes are not asked for.
        assert.deepStrictEqual(yield* store.unembedded(["docs/alpha.md"]), [])
        const rewritten = yield* store.write({ chunks: [chunk("docs/alpha.md#one", sha("e"))], manifest: MANIFEST })
        assert.strictEqual(rewritten.embeddedCount, 1)
        assert.deepStrictEqual((yield* store.storedChunks(["docs/alpha.md"])).get(id("docs/alpha.md#one")), { contentSha: sha("e"), embedded: false })
        assert.deepStrictEqual([...(yield* store.noteHashes)], [["docs/alpha.md", "h-alpha-2"], ["docs/beta.md", "h-beta"]])
      })), { timeout: 30_000 })

    it.effect("write - a deleted note takes its chunks, vectors and outbound relations; relations of a note are replaced whole", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const relinked = yield* store.write({
          relations: { from: ["docs/beta.md"], edges: [{ from: "docs/beta.md", to: "docs/alpha.md", verb: "links" }, { from: "docs/beta.md", to: "docs/alpha.md", verb: "links" }] },
          manifest: MANIFEST
        })
        assert.strictEqual(relinked.relationCount, 2)
        const summary = yield* store.write({ deleteNotes: ["docs/alpha.md"], manifest: MANIFEST })
        assert.deepStrictEqual([summary.chunkCount, summary.embeddedCount, summary.noteCount, summary.relationCount, summary.chunksDeleted], [1, 1, 1, 1, 2])
        assert.deepStrictEqual([...(yield* store.noteHashes)], [["docs/beta.md", "h-beta"]])
        assert.deepStrictEqual([...(yield* store.storedChunks(["docs/alpha.md"]))], [])
      })), { timeout: 30_000 })

    it.effect("write - another model only with replace, which drops every stored vector first", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const summary = yield* store.write({
          vectors: { model: MODEL_B, entries: [{ chunkId: BETA[0]!.id, vector: [0, 0, 1] }], replace: true },
          manifest: MANIFEST
        })
        assert.deepStrictEqual([summary.embeddedCount, summary.vectorsWritten], [1, 1])
        assert.deepStrictEqual(yield* store.vectorSpace, { modelId: "model-b", version: "1", dimension: 3, model: null })
        assert.deepStrictEqual((yield* store.unembedded([])).map((c) => c.id), ALPHA.map((c) => c.id))
      })), { timeout: 30_000 })

    it.effect("write - a replacing batch without vectors forgets the space; chunking settings are recorded", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const summary = yield* store.write({ replaceAll: true, chunks: BETA, notes: [{ id: "docs/beta.md", contentHash: "h-beta" }], manifest: { ...MANIFEST, chunking: "chunking-x" } })
        assert.deepStrictEqual([summary.chunkCount, summary.embeddedCount, summary.noteCount, summary.relationCount], [1, 0, 1, 0])
        assert.isUndefined(yield* store.vectorSpace)
        assert.strictEqual(yield* store.builtUnder, "chunking-x")
      })), { timeout: 30_000 })

    it.effect("rebuild - parts written as they come, read back in id order, with vectors added while the build is open, commit once", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write({ chunks: [chunk("docs/old.md#one")], notes: [{ id: "docs/old.md", contentHash: "h-old" }], manifest: MANIFEST })
        const pages: Array<ReadonlyArray<string>> = []
        const summary = yield* store.rebuild(content, (vectors) =>
          Effect.gen(function*() {
            yield* Stream.runForEach(vectors.texts(2), (page) => Effect.sync(() => pages.push(page.map((c) => `${c.id}=${c.text}`))))
            yield* vectors.open(MODEL_A)
            yield* vectors.add([{ chunkId: ALPHA[1]!.id, vector: [0, 1, 0] }])
            yield* vectors.add([{ chunkId: ALPHA[0]!.id, vector: [1, 0, 0] }, { chunkId: BETA[0]!.id, vector: [0, 0, 1] }])
          }))
        // Every chunk of the build and none of the index it replaces, by id, two to a page.
        assert.deepStrictEqual(pages, [
          ["docs/alpha.md#one=docs/alpha.md#one", "docs/alpha.md#two=docs/alpha.md#two"],
          ["docs/beta.md#one=docs/beta.md#one"]
        ])
        assert.deepStrictEqual([summary.generation, summary.chunkCount, summary.embeddedCount, summary.noteCount, summary.relationCount, summary.chunksWritten, summary.vectorsWritten], [2, 3, 3, 2, 1, 3, 3])
        assert.deepStrictEqual([...(yield* store.noteHashes)], [["docs/alpha.md", "h-alpha"], ["docs/beta.md", "h-beta"]])
        assert.deepStrictEqual((yield* store.unembedded([])).map((c) => c.id), [])
      })), { timeout: 30_000 })

    it.effect("rebuild - a build of parts stores what one replacing write of the same content stores", () =>
      Effect.gen(function*() {
        const viaWrite = yield* run(Effect.andThen(IndexStore.use((store) => store.write(cold)), observe))
        const viaParts = yield* run(Effect.gen(function*() {
          const store = yield* IndexStore
          yield* store.rebuild(rebuilding(ALPHA_PART, BETA_PART), (vectors) =>
            Effect.andThen(vectors.open(MODEL_A), vectors.add(cold.vectors!.entries)))
          return yield* observe
        }))
        assert.deepStrictEqual(viaParts, viaWrite)
      }), { timeout: 30_000 })

    it.effect("rebuild - a failing part, embed or refused vector, a chunk or note in two parts, leaves the previous index as it was", () =>
      run(Effect.gen(function*() {
        const store = yield* IndexStore
        yield* store.write(cold)
        const before = yield* observe
        const failing: RebuildContent<string> = { ...content, parts: Stream.concat(Stream.make(BETA_PART), Stream.fail("chunking failed")) }
        const failures: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown, never>]> = [
          ["a failing part", store.rebuild(failing, () => Effect.void)],
          ["a failing embed", store.rebuild(rebuilding(BETA_PART), () => Effect.fail("training failed"))],
          ["vectors before the space", store.rebuild(content, (vectors) => vectors.add([{ chunkId: ALPHA[0]!.id, vector: [1, 0, 0] }]))],
          ["a zero vector", store.rebuild(content, (vectors) => Effect.andThen(vectors.open(MODEL_A), vectors.add([{ chunkId: ALPHA[0]!.id, vector: [0, 0, 0] }])))],
          ["two spaces", store.rebuild(content, (vectors) => Effect.andThen(vectors.open(MODEL_A), vectors.open(MODEL_B)))],
          ["a chunk in two parts", store.rebuild(rebuilding(ALPHA_PART, { notes: [], chunks: [ALPHA[0]!] }), () => Effect.void)],
          ["a note in two parts", store.rebuild(rebuilding(ALPHA_PART, { notes: ALPHA_PART.notes, chunks: [] }), () => Effect.void)],
          ["a chunk added to a note an earlier part recorded", store.rebuild(rebuilding(BETA_PART, { notes: [], chunks: [chunk("docs/beta.md#two")] }), () => Effect.void)]
        ]
        for (const [what, failure] of failures) {
          assert.isTrue(Exit.isFailure(yield* Effect.exit(failure)), what)
          assert.deepStrictEqual(yield* observe, before, what)
        }
      })), { timeout: 30_000 })
  })
}
