/**
 * The SQL of an index write on PostgreSQL, run inside the caller's transaction, with the meaning
 * of the SQLite writer's (WriteSql.ts): deletions, chunks and their postings, notes, relations, the
 * vector space and its vectors, and the manifest, all of one repository's rows. Rows go in as
 * arrays (`unnest`), a few hundred chunks a statement, so a build costs statements by the hundred
 * and not by the chunk.
 */
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import { refuse } from "../../src/index/IndexWriteChecks.ts"
import type { IndexWrite, IndexWriteError, VectorEntry, VectorModel, WriteSummary } from "../../src/ports/IndexStore.ts"
import { leadChunk } from "../sqlite/NoteLead.ts"
import * as NoteNames from "../sqlite/NoteNames.ts"
import { numberArray, textArray } from "./PgFilter.ts"
import type { PgIndexShape } from "./PgIndex.ts"
import * as PgHnsw from "./PgHnsw.ts"
import { analyse } from "./PgPostings.ts"
import { chunkRow } from "./PgRows.ts"

/** Chunks per statement: a few hundred keeps each statement's arrays to a few megabytes. */
const CHUNKS_PER_STATEMENT = 400
const VECTORS_PER_STATEMENT = 1000

type Step<A> = Effect.Effect<A, SqlError | IndexWriteError>

const boolArray = (values: ReadonlyArray<boolean>): string => `{${values.map((value) => (value ? "t" : "f")).join(",")}}`

const slices = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

export const writer = (pg: PgIndexShape) => {
  const { sql, repository } = pg
  const run = <A extends object = Record<string, unknown>>(text: string, params: ReadonlyArray<unknown> = []): Step<ReadonlyArray<A>> =>
    sql.unsafe<A>(text, [repository, ...params])
  const ids = (values: ReadonlyArray<string>) => textArray(values)

  /** The one writer of this repository's rows, until the transaction ends; another is refused at once. */
  const lock: Step<void> = Effect.flatMap(
    run<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock(hashtext('cairn:' || $1)) AS locked"),
    (rows) => rows[0]?.locked === true ? Effect.void : Effect.fail(refuse("write_failed", `another process is writing the index of ${pg.location}`))
  )

  const count = (text: string): Step<number> => Effect.map(run<{ n: number | string }>(text), (rows) => Number(rows[0]?.n ?? 0))

  const clearAll: Step<void> = Effect.asVoid(Effect.all([
    run("DELETE FROM cairn_chunks WHERE repository = $1"),
    run("DELETE FROM cairn_notes WHERE repository = $1"),
    run("DELETE FROM cairn_relations WHERE repository = $1")
  ], { discard: true }))

  // The space's HNSW index goes with it: one over another dimension would refuse the next vectors.
  const dropSpace: Step<void> = Effect.asVoid(Effect.all([
    PgHnsw.settle(sql, repository, { count: 0, dimension: undefined, minVectors: pg.hnswMinVectors }),
    run("DELETE FROM cairn_vectors WHERE repository = $1"),
    run("DELETE FROM cairn_spaces WHERE repository = $1")
  ], { discard: true }))

  const createSpace = (model: VectorModel): Step<void> =>
    Effect.andThen(dropSpace, run(
      "INSERT INTO cairn_spaces (repository, model_id, version, dimension, model) VALUES ($1, $2, $3, $4, $5)",
      [model.id, model.version, model.dimension, model.model ?? null]
    ))

  /** Makes the stored space the batch's, or refuses a silent mix of models. */
  const settleSpace = Effect.fn("PgWrite.settleSpace")(function*(batch: IndexWrite): Effect.fn.Return<void, SqlError | IndexWriteError> {
    const vectors = batch.vectors
    if (vectors === undefined) {
      if (batch.replaceAll === true) yield* dropSpace
      return
    }
    const [stored] = yield* run<{ model_id: string; version: string; dimension: number }>(
      "SELECT model_id, version, dimension FROM cairn_spaces WHERE repository = $1"
    )
    const next = vectors.model
    if (stored === undefined || batch.replaceAll === true || vectors.replace === true) return yield* createSpace(next)
    if (stored.model_id !== next.id || stored.version !== next.version || Number(stored.dimension) !== next.dimension) {
      return yield* refuse(
        "embedder_changed",
        `stored vectors are ${stored.model_id}@${stored.version} (${stored.dimension}), the batch's ${next.id}@${next.version} (${next.dimension})`
      )
    }
    if (next.model !== undefined) {
      yield* run("UPDATE cairn_spaces SET model = $2 WHERE repository = $1 AND model IS DISTINCT FROM $2", [next.model])
    }
  })

  /** Inserts chunks that are not stored, with their postings. */
  const insertChunks = (chunks: ReadonlyArray<Chunk>): Step<void> =>
    Effect.forEach(slices(chunks, CHUNKS_PER_STATEMENT), (slice) =>
      Effect.gen(function*() {
        const stems = new Map<string, string>()
        const rows = slice.map((chunk) => {
          const analysis = analyse(chunk, stems)
          return { row: chunkRow(repository, chunk, analysis), analysis }
        })
        yield* run(
          "INSERT INTO cairn_chunks (repository, id, note_id, path, title, note_type, superseded, created_ms, line_start, is_link_list, content_sha, token_count, body) " +
            "SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::float8[], $9::int[], $10::bool[], $11::text[], $12::int[], $13::text[])",
          [
            ids(rows.map(({ row }) => row.id)), ids(rows.map(({ row }) => row.note_id)), ids(rows.map(({ row }) => row.path)),
            textArray(rows.map(({ row }) => row.title)), textArray(rows.map(({ row }) => row.note_type)),
            boolArray(rows.map(({ row }) => row.superseded)), numberArray(rows.map(({ row }) => row.created_ms)),
            numberArray(rows.map(({ row }) => row.line_start)), boolArray(rows.map(({ row }) => row.is_link_list)),
            textArray(rows.map(({ row }) => row.content_sha)), numberArray(rows.map(({ row }) => row.token_count)),
            textArray(rows.map(({ row }) => row.body))
          ]
        )
        const terms: Array<string> = [], owners: Array<string> = [], text: Array<number> = [], title: Array<number> = [], tags: Array<number> = []
        const lengths: Array<number> = [], superseded: Array<boolean> = []
        for (const { row, analysis } of rows) {
          for (const [term, [a, b, c]] of analysis.postings) {
            terms.push(term)
            owners.push(row.id)
            text.push(a)
            title.push(b)
            tags.push(c)
            lengths.push(row.token_count)
            superseded.push(row.superseded)
          }
        }
        if (terms.length > 0) {
          yield* run(
            "INSERT INTO cairn_postings (repository, term, chunk_id, tf_text, tf_title, tf_tags, token_count, superseded) " +
              "SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::bool[])",
            [textArray(terms), ids(owners), numberArray(text), numberArray(title), numberArray(tags), numberArray(lengths), boolArray(superseded)]
          )
        }
      }), { discard: true })

  /** Recomputes each touched note's summary from its chunks, as the reference store derives it. */
  const settleNotes = Effect.fn("PgWrite.settleNotes")(function*(notes: ReadonlyArray<string>, recorded: ReadonlyMap<string, string>): Effect.fn.Return<void, SqlError | IndexWriteError> {
    if (notes.length === 0) return
    const rows = yield* run<{ note_id: string; id: string; title: string; path: string; line_start: number }>(
      "SELECT note_id, id, title, path, line_start FROM cairn_chunks WHERE repository = $1 AND note_id = ANY($2::text[])",
      [ids(notes)]
    )
    const hashes = yield* run<{ id: string; content_hash: string | null }>(
      "SELECT id, content_hash FROM cairn_notes WHERE repository = $1 AND id = ANY($2::text[])",
      [ids(notes)]
    )
    const storedHash = new Map(hashes.map((row) => [row.id, row.content_hash] as const))
    const byNote = new Map<string, Array<(typeof rows)[number]>>()
    for (const row of rows) {
      const list = byNote.get(row.note_id)
      if (list === undefined) byNote.set(row.note_id, [row])
      else list.push(row)
    }
    const removed: Array<string> = []
    const kept: Array<{ id: string; title: string | null; path: string | null; count: number; lead: string | null; hash: string | null; names: string | null }> = []
    for (const note of notes) {
      const chunks = byNote.get(note) ?? []
      const hash = recorded.get(note) ?? storedHash.get(note) ?? null
      if (chunks.length === 0 && hash === null) {
        removed.push(note)
        continue
      }
      const lead = leadChunk(chunks)
      kept.push({
        id: note, title: lead?.title ?? null, path: lead?.path ?? null, count: chunks.length, lead: lead?.id ?? null, hash,
        names: NoteNames.encode(lead?.title ?? null, lead?.path ?? null)
      })
    }
    if (removed.length > 0) yield* run("DELETE FROM cairn_notes WHERE repository = $1 AND id = ANY($2::text[])", [ids(removed)])
    for (const slice of slices(kept, CHUNKS_PER_STATEMENT)) {
      // NULLs travel as unquoted NULL elements of the array literal.
      const nullable = (values: ReadonlyArray<string | null>) =>
        `{${values.map((value) => (value === null ? "NULL" : textArray([value]).slice(1, -1))).join(",")}}`
      yield* run(
        "INSERT INTO cairn_notes (repository, id, title, path, chunk_count, lead_chunk, content_hash, name_terms) " +
          "SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[]) " +
          "ON CONFLICT (repository, id) DO UPDATE SET title = EXCLUDED.title, path = EXCLUDED.path, chunk_count = EXCLUDED.chunk_count, " +
          "lead_chunk = EXCLUDED.lead_chunk, content_hash = EXCLUDED.content_hash, name_terms = EXCLUDED.name_terms",
        [
          ids(slice.map((note) => note.id)), nullable(slice.map((note) => note.title)), nullable(slice.map((note) => note.path)),
          numberArray(slice.map((note) => note.count)), nullable(slice.map((note) => note.lead)), nullable(slice.map((note) => note.hash)),
          nullable(slice.map((note) => note.names))
        ]
      )
    }
  })

  /** Everything of a batch but its vectors and manifest. */
  const applyContent = Effect.fn("PgWrite.applyContent")(function*(
    batch: IndexWrite
  ): Effect.fn.Return<Pick<WriteSummary, "chunksWritten" | "chunksDeleted">, SqlError | IndexWriteError> {
    if (batch.replaceAll === true) yield* clearAll
    yield* settleSpace(batch)
    const touched = new Set<string>()
    let deleted = 0
    const deleteNotes = batch.deleteNotes ?? []
    if (deleteNotes.length > 0) {
      const gone = yield* run("DELETE FROM cairn_chunks WHERE repository = $1 AND note_id = ANY($2::text[]) RETURNING id", [ids(deleteNotes)])
      deleted += gone.length
      yield* run("DELETE FROM cairn_notes WHERE repository = $1 AND id = ANY($2::text[])", [ids(deleteNotes)])
      yield* run("DELETE FROM cairn_relations WHERE repository = $1 AND from_note = ANY($2::text[])", [ids(deleteNotes)])
    }
    const deleteChunks = batch.deleteChunks ?? []
    if (deleteChunks.length > 0) {
      const gone = yield* run<{ note_id: string }>("DELETE FROM cairn_chunks WHERE repository = $1 AND id = ANY($2::text[]) RETURNING note_id", [ids(deleteChunks)])
      deleted += gone.length
      for (const row of gone) touched.add(row.note_id)
    }
    const chunks = [...(batch.chunks ?? [])].sort((a, b) => compareIds(a.id, b.id))
    const incoming = chunks.map((chunk) => chunk.id)
    const recordedNotes = (batch.notes ?? []).map((note) => note.id)
    for (const note of recordedNotes) touched.add(note)
    if (recordedNotes.length > 0) {
      // A recorded note's chunks are all in the batch: the others go.
      const gone = yield* run(
        "DELETE FROM cairn_chunks WHERE repository = $1 AND note_id = ANY($2::text[]) AND NOT (id = ANY($3::text[])) RETURNING id",
        [ids(recordedNotes), ids(incoming)]
      )
      deleted += gone.length
    }
    if (chunks.length > 0 && batch.replaceAll !== true) {
      const stored = yield* run<{ id: string; note_id: string; content_sha: string }>(
        "SELECT id, note_id, content_sha FROM cairn_chunks WHERE repository = $1 AND id = ANY($2::text[])",
        [ids(incoming)]
      )
      const shaOf = new Map(chunks.map((chunk) => [chunk.id as string, chunk.contentSha] as const))
      for (const row of stored) touched.add(row.note_id)
      // Same words, same vector: a chunk keeps its vector only while its content is unchanged.
      const keep = stored.filter((row) => shaOf.get(row.id) === row.content_sha).map((row) => row.id)
      const saved = keep.length === 0 ? [] : yield* run<{ chunk_id: string; embedding: string }>(
        "SELECT chunk_id, embedding::text AS embedding FROM cairn_vectors WHERE repository = $1 AND chunk_id = ANY($2::text[])",
        [ids(keep)]
      )
      if (stored.length > 0) yield* run("DELETE FROM cairn_chunks WHERE repository = $1 AND id = ANY($2::text[])", [ids(stored.map((row) => row.id))])
      yield* insertChunks(chunks)
      if (saved.length > 0) {
        yield* run(
          `INSERT INTO cairn_vectors (repository, chunk_id, embedding) SELECT $1, id, v::${pg.vectors === "pgvector" ? "vector" : "real[]"} FROM unnest($2::text[], $3::text[]) AS t(id, v)`,
          [ids(saved.map((row) => row.chunk_id)), textArray(saved.map((row) => row.embedding))]
        )
      }
    } else {
      yield* insertChunks(chunks)
    }
    for (const chunk of chunks) touched.add(chunk.noteId)
    yield* settleNotes([...touched].sort(compareIds), new Map((batch.notes ?? []).map((note) => [note.id, note.contentHash])))
    if (batch.relations !== undefined) {
      const from = [...new Set(batch.relations.from)]
      if (from.length > 0) yield* run("DELETE FROM cairn_relations WHERE repository = $1 AND from_note = ANY($2::text[])", [ids(from)])
      const edges = batch.relations.edges
      for (const slice of slices(edges, VECTORS_PER_STATEMENT)) {
        yield* run(
          "INSERT INTO cairn_relations (repository, from_note, to_note, verb) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING",
          [ids(slice.map((edge) => edge.from)), ids(slice.map((edge) => edge.to)), ids(slice.map((edge) => edge.verb))]
        )
      }
    }
    return { chunksWritten: chunks.length, chunksDeleted: deleted }
  })

  const vectorLiteral = (vector: ReadonlyArray<number> | Float32Array): string => {
    const text = numberArray(vector)
    return pg.vectors === "pgvector" ? `[${text.slice(1, -1)}]` : text
  }

  /**
   * Stores each entry's vector on its chunk, replacing any it had; the chunks must be stored
   * (`unknown_chunk` names the first that is not). `fresh`: the chunks were placed by this very
   * write, so none has a vector to replace.
   */
  const insertVectors = Effect.fn("PgWrite.insertVectors")(function*(entries: ReadonlyArray<VectorEntry>, fresh = false): Effect.fn.Return<number, SqlError | IndexWriteError> {
    const sorted = [...entries].sort((a, b) => compareIds(a.chunkId, b.chunkId))
    for (const slice of slices(sorted, VECTORS_PER_STATEMENT)) {
      const wanted = slice.map((entry) => entry.chunkId as string)
      const held = yield* run<{ id: string }>("SELECT id FROM cairn_chunks WHERE repository = $1 AND id = ANY($2::text[])", [ids(wanted)])
      if (held.length < wanted.length) {
        const present = new Set(held.map((row) => row.id))
        return yield* refuse("unknown_chunk", wanted.find((id) => !present.has(id))!)
      }
      if (!fresh) yield* run("DELETE FROM cairn_vectors WHERE repository = $1 AND chunk_id = ANY($2::text[])", [ids(wanted)])
      yield* run(
        `INSERT INTO cairn_vectors (repository, chunk_id, embedding) SELECT $1, id, v::${pg.vectors === "pgvector" ? "vector" : "real[]"} FROM unnest($2::text[], $3::text[]) AS t(id, v)`,
        [ids(wanted), textArray(slice.map((entry) => vectorLiteral(entry.vector)))]
      )
    }
    return sorted.length
  })

  const writeManifest = Effect.fn("PgWrite.writeManifest")(function*(
    manifest: IndexWrite["manifest"],
    done: Pick<WriteSummary, "chunksWritten" | "chunksDeleted" | "vectorsWritten">
  ): Effect.fn.Return<WriteSummary, SqlError | IndexWriteError> {
    const [previous] = yield* run<{ generation: number }>("SELECT generation FROM cairn_manifest WHERE repository = $1")
    const [totals] = yield* run<{ chunks: number; tokens: string | null }>(
      "SELECT count(*)::int AS chunks, sum(token_count)::text AS tokens FROM cairn_chunks WHERE repository = $1"
    )
    const summary: WriteSummary = {
      generation: (previous === undefined ? 0 : Number(previous.generation)) + 1,
      chunkCount: Number(totals?.chunks ?? 0),
      embeddedCount: yield* count("SELECT count(*)::int AS n FROM cairn_vectors WHERE repository = $1"),
      noteCount: yield* count("SELECT count(*)::int AS n FROM cairn_notes WHERE repository = $1"),
      relationCount: yield* count("SELECT count(*)::int AS n FROM cairn_relations WHERE repository = $1"),
      ...done
    }
    yield* run(
      "INSERT INTO cairn_manifest (repository, generation, snapshot_hash, built_at, chunking, chunk_count, embedded_count, note_count, relation_count, token_total) " +
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bigint) ON CONFLICT (repository) DO UPDATE SET generation = EXCLUDED.generation, " +
        "snapshot_hash = EXCLUDED.snapshot_hash, built_at = EXCLUDED.built_at, chunking = EXCLUDED.chunking, chunk_count = EXCLUDED.chunk_count, " +
        "embedded_count = EXCLUDED.embedded_count, note_count = EXCLUDED.note_count, relation_count = EXCLUDED.relation_count, token_total = EXCLUDED.token_total",
      [
        summary.generation, manifest.snapshotHash, manifest.builtAt, manifest.chunking ?? null, summary.chunkCount, summary.embeddedCount,
        summary.noteCount, summary.relationCount, totals?.tokens ?? "0"
      ]
    )
    if (pg.vectors === "pgvector") {
      const [space] = yield* run<{ dimension: number }>("SELECT dimension FROM cairn_spaces WHERE repository = $1")
      yield* PgHnsw.settle(sql, repository, {
        count: summary.embeddedCount,
        dimension: space === undefined ? undefined : Number(space.dimension),
        minVectors: pg.hnswMinVectors
      })
    }
    return summary
  })

  return { lock, applyContent, insertVectors, settleSpace, createSpace, dropSpace, writeManifest }
}
