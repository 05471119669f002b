import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { spawn } from "node:child_process"
import * as NodePath from "node:path"
import type { DatabaseSync } from "node:sqlite"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import type { NoteEdge } from "../../src/ports/GraphStore.ts"
import { type IndexWrite, IndexWriteError, type VectorModel, type VectorStore } from "../../src/ports/IndexStore.ts"
import { analysedName } from "../../src/retrieval/titlePath.ts"
import { contract } from "../contracts/IndexStore.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as ChunkStems from "./ChunkStems.ts"
import * as Database from "./Database.ts"
import * as IndexStoreSqlite from "./IndexStoreSqlite.ts"
import * as VectorIndexSqlite from "./VectorIndexSqlite.ts"
import { BUILT_AT, coldBuild, inParts, MANIFEST, openSeeded, tempDir, write } from "./testing/Fixtures.ts"

// Every IndexStore backend's behaviour, over a private in-memory index with sqlite-vec.
contract("sqlite", () => IndexStoreSqlite.layer.pipe(Layer.provide(Database.layer({ path: ":memory:" }))))

const HANGING_WRITER = NodePath.join(import.meta.dirname, "testing", "writeAndHang.ts")

const CHUNKS = softwareChunks()
const MODEL_A: VectorModel = { id: "test/a", version: "1", dimension: 4 }
const MODEL_B: VectorModel = { id: "test/b", version: "1", dimension: 3 }

/** A deterministic non-zero vector per chunk id, different for every id. */
const vectorOf = (id: string, dimension: number): Array<number> => {
  let state = 0
  for (let i = 0; i < id.length; i++) state = (Math.imul(state, 31) + id.charCodeAt(i)) >>> 0
  return Array.from({ length: dimension }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  })
}

const EDGES: ReadonlyArray<NoteEdge> = [
  { from: "notes/caching.md", to: "notes/retries.md", verb: "relates_to" },
  { from: "notes/retries.md", to: "notes/caching.md", verb: "depends_on" },
  { from: "notes/secrets.md", to: "notes/caching.md", verb: "links-to" }
]

const seedBatch = (chunks: ReadonlyArray<Chunk>): IndexWrite =>
  coldBuild(chunks, {
    relations: { from: [...new Set(EDGES.map((edge) => edge.from))], edges: EDGES },
    vectors: { model: MODEL_A, entries: chunks.map((chunk) => ({ chunkId: chunk.id, vector: vectorOf(chunk.id, MODEL_A.dimension) })) }
  })

const hasVectors = (db: DatabaseSync): boolean => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get() !== undefined

/** Everything a reader can observe, row ids and FTS statistics included. */
const dump = (db: DatabaseSync) => ({
  chunks: db.prepare("SELECT row, id, note_id, content_sha, text, superseded, fts_hash FROM chunks ORDER BY row").all(),
  notes: db.prepare("SELECT * FROM notes ORDER BY id").all(),
  relations: db.prepare("SELECT * FROM relations ORDER BY from_note, to_note, verb").all(),
  manifest: db.prepare("SELECT * FROM manifest").all(),
  space: db.prepare("SELECT * FROM vector_space").all(),
  vectors: hasVectors(db) ? db.prepare("SELECT rowid, vec_to_json(embedding) AS v, superseded, note_type, created_ms FROM chunk_vectors ORDER BY rowid").all() : [],
  // bm25 depends on the table's row count and average lengths, so a stale count shows here.
  fts: ["\"cache\" OR \"retry\"", "\"secret\" OR \"deploy\" OR \"the\""].map((match) =>
    db.prepare("SELECT rowid, bm25(chunks_fts, 1, 2, 2) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid").all(match))
})

const refused = (database: Database.DatabaseShape, batch: IndexWrite) =>
  Effect.gen(function*() {
    const before = dump(database.connection)
    const error = yield* Effect.flip(write(database, batch))
    assert.instanceOf(error, IndexWriteError)
    assert.deepStrictEqual(dump(database.connection), before)
    return error.reason
  })

/** A chunk whose text cannot be read: the writer meets it half way through its transaction. */
const poisoned = (chunk: Chunk): Chunk =>
  Object.defineProperty({ ...chunk }, "text", {
    get: () => {
      throw new Error("disk went away")
    }
  })

describe("IndexStore", () => {
  it.effect("write - one that throws half way leaves the previous index intact, for this and another connection, and the next write works", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 120)), path)
      const other = yield* Database.open({ path, readOnly: true })
      const before = dump(database.connection)
      const replacement = CHUNKS.slice(100, 300).map((chunk, i) => (i === 100 ? poisoned(chunk) : { ...chunk, text: `${chunk.text} revised` }))
      const error = yield* Effect.flip(write(database, {
        replaceAll: true,
        chunks: replacement,
        relations: { from: ["notes/caching.md"], edges: [] },
        vectors: { model: MODEL_B, entries: replacement.slice(0, 50).map((chunk) => ({ chunkId: chunk.id, vector: vectorOf(chunk.id, 3) })), replace: true },
        manifest: { snapshotHash: "snapshot-2", builtAt: "2025-03-02T00:00:00Z" }
      }))
      assert.isTrue(error instanceof IndexWriteError && error.reason === "write_failed")
      assert.deepStrictEqual(dump(database.connection), before)
      assert.deepStrictEqual(dump(other.connection), before)
      const summary = yield* write(database, { chunks: [{ ...CHUNKS[0]!, text: "rewritten" }], manifest: MANIFEST })
      assert.strictEqual(summary.generation, 2)
      assert.strictEqual(summary.chunkCount, 120)
    }))

  it.effect("write - a process killed in the middle of a write leaves the previous index intact and writable", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      // Built and closed, so only the child holds the file while it writes.
      const before = yield* Effect.scoped(Effect.map(openSeeded(seedBatch(CHUNKS), path), (database) => dump(database.connection)))
      const outcome = yield* Effect.promise(() => killMidWrite(path))
      assert.deepStrictEqual(outcome, { sawMidWrite: true, committed: false, signal: "SIGKILL" })
      const after = yield* Database.open({ path })
      assert.strictEqual((after.connection.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check, "ok")
      assert.deepStrictEqual(dump(after.connection), before)
      const summary = yield* write(after, { chunks: [{ ...CHUNKS[1]!, text: "after the crash" }], manifest: MANIFEST })
      assert.deepStrictEqual([summary.generation, summary.chunkCount], [2, CHUNKS.length])
    }), 60_000) // starts a Node process and waits for it to reach its transaction

  it.effect("write - refuses a malformed batch before touching the file", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 40)))
      const [a, b] = [CHUNKS[0]!, CHUNKS[45]!]
      const reasons = [
        yield* refused(database, { chunks: [b, b], manifest: MANIFEST }),
        yield* refused(database, { chunks: [b], deleteChunks: [b.id], manifest: MANIFEST }),
        yield* refused(database, { chunks: [b], deleteNotes: [b.noteId], manifest: MANIFEST }),
        yield* refused(database, { notes: [{ id: a.noteId, contentHash: "x" }], deleteNotes: [a.noteId], manifest: MANIFEST }),
        yield* refused(database, { relations: { from: ["x.md"], edges: [{ from: "y.md", to: "x.md", verb: "links-to" }] }, manifest: MANIFEST }),
        yield* refused(database, { vectors: { model: MODEL_A, entries: [{ chunkId: a.id, vector: [1, 2, 3] }] }, manifest: MANIFEST }),
        yield* refused(database, { vectors: { model: MODEL_A, entries: [{ chunkId: a.id, vector: [0, 0, 0, 0] }] }, manifest: MANIFEST }),
        yield* refused(database, { vectors: { model: MODEL_A, entries: [{ chunkId: a.id, vector: [1, Number.NaN, 0, 0] }] }, manifest: MANIFEST }),
        yield* refused(database, { chunks: [b], manifest: { snapshotHash: "s", builtAt: "2025-03-01T12:00:00" } })
      ]
      assert.deepStrictEqual(reasons, [
        "duplicate_chunk", "conflicting_batch", "conflicting_batch", "conflicting_batch", "conflicting_batch",
        "dimension_mismatch", "invalid_vector", "invalid_vector", "invalid_manifest"
      ])
      const readOnly = yield* Effect.scoped(Effect.gen(function*() {
        const path = NodePath.join(yield* tempDir, "index.sqlite")
        yield* openSeeded(seedBatch(CHUNKS.slice(0, 3)), path)
        return yield* refused(yield* Database.open({ path, readOnly: true }), { chunks: [b], manifest: MANIFEST })
      }))
      assert.strictEqual(readOnly, "read_only")
    }))

  it.effect("write - vectors of another model are refused; replacing them re-embeds into a fresh space", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 30)))
      const entries = CHUNKS.slice(0, 10).map((chunk) => ({ chunkId: chunk.id, vector: vectorOf(chunk.id, 3) }))
      assert.strictEqual(yield* refused(database, { vectors: { model: MODEL_B, entries }, manifest: MANIFEST }), "embedder_changed")
      assert.strictEqual(yield* refused(database, { vectors: { model: { ...MODEL_A, version: "2" }, entries: [] }, manifest: MANIFEST }), "embedder_changed")
      // A vector for a chunk the index does not hold rolls back the chunks written beside it.
      assert.strictEqual(yield* refused(database, {
        chunks: [CHUNKS[40]!],
        vectors: { model: MODEL_A, entries: [{ chunkId: "nowhere.md#x" as ChunkId, vector: [1, 0, 0, 0] }] },
        manifest: MANIFEST
      }), "unknown_chunk")
      const summary = yield* write(database, { vectors: { model: MODEL_B, entries, replace: true }, manifest: MANIFEST })
      assert.deepStrictEqual([summary.embeddedCount, summary.chunkCount], [10, 30])
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database))
      const space = yield* writer.vectorSpace
      assert.deepStrictEqual(space, { modelId: MODEL_B.id, version: MODEL_B.version, dimension: 3, model: null })
      const manifest = database.connection.prepare("SELECT embedder_id, embedder_version, embedded_count FROM manifest").get() as Record<string, unknown>
      assert.deepStrictEqual({ ...manifest }, { embedder_id: "test/b", embedder_version: "1", embedded_count: 10 })
    }))

  it.effect("write - a rewritten chunk keeps its vector while its words are unchanged, loses it when they change, and the vector filter follows its status", () =>
    Effect.gen(function*() {
      const chunks = CHUNKS.slice(0, 20)
      const database = yield* openSeeded(seedBatch(chunks))
      const [same, changed] = [chunks[3]!, chunks[4]!]
      yield* write(database, {
        chunks: [{ ...same, status: "superseded" }, { ...changed, text: `${changed.text} with new words`, contentSha: "f".repeat(64) }],
        manifest: MANIFEST
      })
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database))
      const stored = yield* writer.storedChunks([same.noteId, changed.noteId])
      assert.deepStrictEqual(stored.get(same.id), { contentSha: same.contentSha, embedded: true })
      assert.deepStrictEqual(stored.get(changed.id), { contentSha: "f".repeat(64), embedded: false })
      const index = yield* VectorIndexSqlite.make.pipe(Effect.provideService(Database.Database, database))
      const query = vectorOf(same.id, MODEL_A.dimension)
      assert.notInclude((yield* index.nearest(query, 20, {})).map((hit) => hit.id), same.id)
      assert.strictEqual((yield* index.nearest(query, 1, { includeSuperseded: true }))[0]!.id, same.id)
    }))

  it.effect("write - a recorded note's chunks are exactly the batch's, a deleted note takes its chunks and outbound edges, summaries follow", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 60)))
      const caching = CHUNKS.filter((chunk) => chunk.noteId === "notes/caching.md")
      assert.isAbove(caching.length, 3)
      const moved = { ...caching[0]!, lineStart: 500, lineEnd: 510 }
      const added = { ...caching[2]!, id: "notes/caching.md#new" as ChunkId, blockId: "new", lineStart: 2, lineEnd: 3 }
      yield* write(database, {
        chunks: [moved, added],
        notes: [{ id: "notes/caching.md", contentHash: "hash:v2" }],
        deleteNotes: ["notes/retries.md"],
        manifest: MANIFEST
      })
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database))
      const stored = yield* writer.storedChunks(["notes/caching.md", "notes/retries.md"])
      assert.deepStrictEqual([...stored.keys()], [moved.id, added.id].sort())
      const hashes = yield* writer.noteHashes
      assert.strictEqual(hashes.get("notes/caching.md"), "hash:v2")
      assert.isFalse(hashes.has("notes/retries.md"))
      // The same of a few notes, and the count the manifest keeps.
      const some = yield* writer.noteHashesOf(["notes/retries.md", "notes/caching.md", "notes/never.md"])
      assert.deepStrictEqual([...some], [["notes/caching.md", "hash:v2"]])
      assert.strictEqual(yield* writer.noteCount, hashes.size)
      assert.strictEqual((yield* writer.manifest)?.noteCount, hashes.size)
      const note = database.connection.prepare("SELECT * FROM notes WHERE id = 'notes/caching.md'").get() as Record<string, unknown>
      assert.deepStrictEqual({ ...note }, {
        id: "notes/caching.md", title: added.title, path: added.path, chunk_count: 2, lead_chunk: added.id, content_hash: "hash:v2",
        name_terms: analysedName(added).join(" ")
      })
      const relations = database.connection.prepare("SELECT from_note, to_note FROM relations ORDER BY from_note").all().map((row) => ({ ...row }))
      assert.deepStrictEqual(relations, [
        { from_note: "notes/caching.md", to_note: "notes/retries.md" },
        { from_note: "notes/secrets.md", to_note: "notes/caching.md" }
      ])
    }))

  it.effect("write - the same batch in any order gives the same tables, row ids included", () =>
    Effect.gen(function*() {
      const chunks = CHUNKS.slice(0, 80)
      const batch = seedBatch(chunks)
      const shuffled: IndexWrite = {
        ...batch,
        chunks: [...chunks].reverse(),
        notes: [...batch.notes!].reverse(),
        relations: { from: [...batch.relations!.from].reverse(), edges: [...EDGES].reverse() },
        vectors: { ...batch.vectors!, entries: [...batch.vectors!.entries].reverse() }
      }
      const forward = yield* openSeeded(batch)
      const backward = yield* openSeeded(shuffled)
      assert.deepStrictEqual(dump(backward.connection), dump(forward.connection))
    }))

  it.effect("write - incremental writes leave FTS statistics equal to a cold build of the same chunks", () =>
    Effect.gen(function*() {
      const incremental = yield* openSeeded(coldBuild(CHUNKS.slice(0, 100)))
      const rewritten = CHUNKS.slice(50, 70).map((chunk) => ({ ...chunk, text: `${chunk.text} and a longer tail of extra words` }))
      yield* write(incremental, { chunks: rewritten, deleteChunks: CHUNKS.slice(0, 10).map((chunk) => chunk.id), manifest: MANIFEST })
      yield* write(incremental, { chunks: CHUNKS.slice(100, 130), manifest: MANIFEST })
      const finalChunks = [...CHUNKS.slice(10, 50), ...rewritten, ...CHUNKS.slice(70, 130)]
      const cold = yield* openSeeded(coldBuild(finalChunks))
      const ranks = (db: DatabaseSync) =>
        db.prepare("SELECT c.id, bm25(chunks_fts, 1, 2, 2) AS rank FROM chunks_fts JOIN chunks c ON c.row = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY c.id")
          .all("\"cache\" OR \"retry\" OR \"deploy\" OR \"longer\"").map((row) => ({ ...row }))
      assert.deepStrictEqual(ranks(incremental.connection), ranks(cold.connection))
    }))

  it.effect("write - a stored row that no longer analyses to what was indexed is refused rather than corrupting the text index", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(coldBuild(CHUNKS.slice(0, 10)))
      // Stands in for an analyser that changed between the build and this write.
      database.connection.prepare("UPDATE chunks SET fts_hash = fts_hash + 1 WHERE id = ?").run(CHUNKS[2]!.id)
      assert.strictEqual(yield* refused(database, { chunks: [{ ...CHUNKS[2]!, text: "new" }], manifest: MANIFEST }), "analysis_changed")
      const rebuilt = yield* write(database, coldBuild(CHUNKS.slice(0, 10)))
      assert.strictEqual(rebuilt.chunkCount, 10)
    }))

  it.effect("rebuild - stores exactly what write stores for the same cold build, with the vectors produced while the chunks are written", () =>
    Effect.gen(function*() {
      const older = yield* openSeeded(seedBatch(CHUNKS.slice(0, 12)))
      const chunks = CHUNKS.slice(5, 40)
      const whole = coldBuild(chunks, {
        relations: { from: [...new Set(EDGES.map((edge) => edge.from))], edges: EDGES },
        vectors: { model: MODEL_B, entries: chunks.map((chunk) => ({ chunkId: chunk.id, vector: vectorOf(chunk.id, MODEL_B.dimension) })), replace: true }
      })
      const viaWrite = yield* openSeeded(seedBatch(CHUNKS.slice(0, 12)))
      const written = yield* write(viaWrite, whole)
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, older))
      const vectors = whole.vectors
      let chunksSeenWhileEmbedding = -1
      const texts: Array<string> = []
      // In chunk id order, in two runs, the second as Float32Arrays (stored as they are).
      const entries = [...vectors!.entries].sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1))
      // Three notes to a part, so the build's chunks come in several parts.
      const rebuilt = yield* writer.rebuild(inParts(whole, 3), (store) =>
        Effect.gen(function*() {
          chunksSeenWhileEmbedding = Number((older.connection.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n)
          yield* Stream.runForEach(store.texts(7), (page) => Effect.sync(() => texts.push(...page.map((c) => c.id))))
          yield* store.open(vectors!.model)
          yield* store.add(entries.slice(0, 10))
          yield* store.add(entries.slice(10).map((entry) => ({ ...entry, vector: Float32Array.from(entry.vector) })))
        }))
      assert.strictEqual(chunksSeenWhileEmbedding, chunks.length)
      assert.deepStrictEqual(texts, chunks.map((c) => c.id).sort(compareIds))
      assert.deepStrictEqual(rebuilt, written)
      assert.deepStrictEqual(dump(older.connection), dump(viaWrite.connection))
    }))

  it.effect("rebuild - a failure of the vectors, or a refused vector, leaves the previous index intact and writable", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 12)))
      const before = dump(database.connection)
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database))
      const staged = inParts(coldBuild(CHUNKS.slice(5, 40)), 4)
      const failed = yield* Effect.flip(writer.rebuild(staged, (store) =>
        Effect.andThen(store.open(MODEL_A), Effect.fail("training died" as const))))
      assert.strictEqual(failed, "training died")
      assert.deepStrictEqual(dump(database.connection), before)
      const vector = (chunk: Chunk, v: ReadonlyArray<number>) => ({ chunkId: chunk.id, vector: v })
      const refusals: ReadonlyArray<readonly [IndexWriteError["reason"], (store: VectorStore) => Effect.Effect<void, IndexWriteError>]> = [
        ["invalid_vector", (store) => Effect.andThen(store.open(MODEL_A), store.add([vector(CHUNKS[5]!, [0, 0, 0, 0])]))],
        ["conflicting_batch", (store) => store.add([vector(CHUNKS[5]!, [1, 0, 0, 0])])],
        ["duplicate_chunk", (store) =>
          Effect.andThen(store.open(MODEL_A), Effect.andThen(store.add([vector(CHUNKS[5]!, [1, 0, 0, 0])]), store.add([vector(CHUNKS[5]!, [0, 1, 0, 0])])))],
        ["unknown_chunk", (store) => Effect.andThen(store.open(MODEL_A), store.add([vector(CHUNKS[60]!, [1, 0, 0, 0])]))]
      ]
      for (const [reason, embed] of refusals) {
        const error = yield* Effect.flip(writer.rebuild(staged, embed))
        assert.instanceOf(error, IndexWriteError)
        assert.strictEqual((error as IndexWriteError).reason, reason)
        assert.deepStrictEqual(dump(database.connection), before)
      }
      assert.isFalse(database.connection.isTransaction)
      const summary = yield* write(database, seedBatch(CHUNKS.slice(0, 3)))
      assert.strictEqual(summary.chunkCount, 3)
    }))

  it.effect("write - the manifest counts what was committed, the generation advances, replaceAll clears everything", () =>
    Effect.gen(function*() {
      const database = yield* openSeeded(seedBatch(CHUNKS.slice(0, 30)))
      const first = database.connection.prepare("SELECT * FROM manifest").get() as Record<string, unknown>
      const notes = new Set(CHUNKS.slice(0, 30).map((chunk) => chunk.noteId)).size
      assert.deepStrictEqual({ ...first }, {
        key: 1, generation: 1, snapshot_hash: "snapshot-1", built_at: BUILT_AT, chunk_count: 30, embedded_count: 30,
        note_count: notes, relation_count: 3, embedder_id: "test/a", embedder_version: "1", chunking: null,
        stems_version: ChunkStems.version()
      })
      const summary = yield* write(database, coldBuild(CHUNKS.slice(200, 205), { manifest: { snapshotHash: "snapshot-9", builtAt: "2025-04-01T00:00:00+02:00", chunking: "{\"targetTokens\":200}" } }))
      assert.deepStrictEqual(
        [summary.generation, summary.chunkCount, summary.embeddedCount, summary.relationCount, summary.chunksWritten, summary.chunksDeleted],
        [2, 5, 0, 0, 5, 0]
      )
      assert.isFalse(hasVectors(database.connection))
      assert.deepStrictEqual(database.connection.prepare("SELECT * FROM vector_space").all(), [])
      assert.strictEqual(database.connection.prepare("SELECT chunking FROM manifest").get()!["chunking"], "{\"targetTokens\":200}")
    }))

  it.effect("builtUnder - the chunking settings of the last commit; the defaults' for a commit that named none, none before the first", () =>
    Effect.gen(function*() {
      const database = yield* Database.open({ path: NodePath.join(yield* tempDir, "index.sqlite") })
      const writer = yield* IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database))
      assert.isUndefined(yield* writer.builtUnder)
      yield* writer.write(coldBuild(CHUNKS.slice(0, 3)))
      assert.strictEqual(yield* writer.builtUnder, ChunkingConfig.DEFAULT_FINGERPRINT)
      const settings = ChunkingConfig.fingerprint({ targetTokens: 200 })
      yield* writer.write(coldBuild(CHUNKS.slice(0, 3), { manifest: { snapshotHash: "snapshot-2", builtAt: BUILT_AT, chunking: settings } }))
      assert.strictEqual(yield* writer.builtUnder, settings)
      assert.notStrictEqual(settings, ChunkingConfig.DEFAULT_FINGERPRINT)
    }))
})

/** Runs testing/writeAndHang.ts, kills it once it reports being inside its transaction. */
const killMidWrite = (path: string): Promise<{ sawMidWrite: boolean; committed: boolean; signal: string | null }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [HANGING_WRITER, path])
    let stdout = ""
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString()
      if (stdout.includes("mid-write")) child.kill("SIGKILL")
    })
    child.on("close", (_code, signal) => resolve({ sawMidWrite: stdout.includes("mid-write"), committed: stdout.includes("committed"), signal }))
  })
