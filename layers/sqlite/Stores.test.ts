/**
 * CandidateStoreSqlite and GraphStoreSqlite against their memory counterparts on the same data:
 * every call, with every filter, answers the same, after a cold build and after incremental writes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import type { CandidateStore } from "../../src/ports/CandidateStore.ts"
import { CandidateStoreError } from "../../src/ports/CandidateStore.ts"
import type { GraphStore, NoteEdge } from "../../src/ports/GraphStore.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import * as CandidateStoreMemory from "../reference/CandidateStoreMemory.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as GraphStoreMemory from "../reference/GraphStoreMemory.ts"
import * as CandidateStoreSqlite from "./CandidateStoreSqlite.ts"
import { Database } from "./Database.ts"
import type { DatabaseShape } from "./Database.ts"
import * as GraphStoreSqlite from "./GraphStoreSqlite.ts"
import { coldBuild, MANIFEST, openSeeded, write } from "./testing/Fixtures.ts"

// Link lists, superseded and dated chunks, lines out of id order, so every rule has work to do.
const CHUNKS: ReadonlyArray<Chunk> = softwareChunks().map((chunk, i) => ({
  ...chunk,
  lineStart: 100 - (i % 10) * 7,
  lineEnd: 105 - (i % 10) * 7,
  isLinkList: i % 13 === 0,
  status: i % 11 === 0 ? "superseded" as const : chunk.status,
  provenance: { ...chunk.provenance, createdAt: i % 4 === 0 ? null : `2024-${String(1 + (i % 12)).padStart(2, "0")}-10T08:00:00Z` }
}))

const NOTES = [...new Set(CHUNKS.map((chunk) => chunk.noteId))].sort()

const EDGES: ReadonlyArray<NoteEdge> = NOTES.flatMap((note, i) => [
  { from: note, to: NOTES[(i + 1) % NOTES.length]!, verb: "relates_to" },
  { from: note, to: NOTES[(i * 7) % NOTES.length]!, verb: i % 2 === 0 ? "depends_on" : "links-to" },
  ...(i % 5 === 0 ? [{ from: note, to: "notes/not-indexed.md", verb: "links-to" }] : [])
])

const FILTERS: ReadonlyArray<RetrievalFilter> = [
  {},
  { includeSuperseded: true },
  { types: ["decision", "state"] },
  { since: "2024-07-01" },
  { paths: ["notes/caching.md", "notes/retries.md"] },
  { paths: ["notes"], types: ["convention"], since: "2024-02-01T00:00:00+01:00", includeSuperseded: true },
  { paths: ["elsewhere"] }
]

const sqliteStores = (database: DatabaseShape) =>
  Effect.gen(function*() {
    const candidates = yield* CandidateStoreSqlite.make
    const graph = yield* GraphStoreSqlite.make
    return { candidates, graph }
  }).pipe(Effect.provideService(Database, database))

const assertSameStores = (
  sqlite: { candidates: CandidateStore["Service"]; graph: GraphStore["Service"] },
  chunks: ReadonlyArray<Chunk>,
  edges: ReadonlyArray<NoteEdge>
) =>
  Effect.gen(function*() {
    const memory = CandidateStoreMemory.make(chunks)
    const graph = GraphStoreMemory.make(edges)
    const notes = [...new Set(chunks.map((chunk) => chunk.noteId))].sort()
    const asked = [notes[3]!, "notes/unknown.md", notes[0]!, notes[notes.length - 1]!, notes[3]!]
    assert.strictEqual(yield* sqlite.candidates.size, yield* memory.size)
    const ids = [chunks[5]!.id, chunks[0]!.id, chunks[chunks.length - 1]!.id, chunks[5]!.id]
    assert.deepStrictEqual(yield* sqlite.candidates.get(ids), yield* memory.get(ids))
    assert.deepStrictEqual(yield* sqlite.candidates.chunkCounts(asked), yield* memory.chunkCounts(asked))
    for (const filter of FILTERS) {
      const label = JSON.stringify(filter)
      assert.deepStrictEqual(yield* sqlite.candidates.notes(filter), yield* memory.notes(filter), label)
      for (const perNote of [0, 1, 3, Number.POSITIVE_INFINITY]) {
        assert.deepStrictEqual(yield* sqlite.candidates.chunksOfNotes(asked, perNote, filter), yield* memory.chunksOfNotes(asked, perNote, filter), `${label} ${perNote}`)
      }
    }
    for (const query of [[notes[0]!], [notes[4]!, notes[9]!], ["notes/not-indexed.md"], ["notes/unknown.md"], notes]) {
      assert.deepStrictEqual(yield* sqlite.graph.edgesOf(query), yield* graph.edgesOf(query), query.join(","))
    }
  })

const batch = coldBuild(CHUNKS, { relations: { from: NOTES, edges: EDGES } })

describe("CandidateStoreSqlite and GraphStoreSqlite", () => {
  it.effect("answer as the memory stores do over the same chunks and edges", () =>
    Effect.gen(function*() {
      const sqlite = yield* sqliteStores(yield* openSeeded(batch))
      yield* assertSameStores(sqlite, CHUNKS, EDGES)
    }))

  it.effect("answer as memory stores over the new data after incremental writes (notes replaced, deleted, chunks moved)", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(batch)
      const sqlite = yield* sqliteStores(database)
      // Warm the notes cache, which must not outlive the commit.
      yield* sqlite.candidates.notes({})
      const [replaced, gone] = [NOTES[2]!, NOTES[6]!]
      const kept = CHUNKS.filter((chunk) => chunk.noteId === replaced).slice(0, 2).map((chunk, i) => ({ ...chunk, lineStart: 900 - i, title: "Renamed" }))
      const moved = { ...CHUNKS.find((chunk) => chunk.noteId === NOTES[8]!)!, noteId: NOTES[9]!, path: NOTES[9]! }
      const newEdges: ReadonlyArray<NoteEdge> = [{ from: replaced, to: NOTES[0]!, verb: "supersedes" }]
      yield* write(database, {
        chunks: [...kept, moved],
        notes: [{ id: replaced, contentHash: "hash:v2" }],
        deleteNotes: [gone],
        relations: { from: [replaced], edges: newEdges },
        manifest: MANIFEST
      })
      const chunks = [
        ...CHUNKS.filter((chunk) => chunk.noteId !== replaced && chunk.noteId !== gone && chunk.id !== moved.id),
        ...kept,
        moved
      ]
      const edges = [...EDGES.filter((edge) => edge.from !== replaced && edge.from !== gone), ...newEdges]
      yield* assertSameStores(sqlite, chunks, edges)
    }))

  it.effect("get - an id the store does not hold fails with missing_chunk", () =>
    Effect.gen(function*() {
      const { candidates } = yield* sqliteStores(yield* openSeeded(batch))
      const error = yield* Effect.flip(candidates.get([CHUNKS[0]!.id, "notes/none.md#x" as ChunkId]))
      assert.isTrue(error instanceof CandidateStoreError && error.reason === "missing_chunk")
    }))
})
