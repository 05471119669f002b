/**
 * The PostgreSQL backend of `IndexStore` (src/ports/IndexStore.ts): one batch, one transaction, one
 * writer per repository at a time (a transaction-scoped advisory lock; a second writer is refused
 * at once rather than queued behind a build). Readers are never blocked: they read the last commit
 * until the next one lands whole. A failure anywhere, a lost connection included, rolls the
 * transaction back and leaves the previous index as it was. The checks are `IndexWriteChecks`,
 * the SQL `PgWrite.ts`.
 */
import { Effect, Layer, Option, Stream } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import { rebuildChecks, refuse, validate } from "../../src/index/IndexWriteChecks.ts"
import { checkedVectorStore } from "../../src/index/RebuildVectors.ts"
import { type ChunkText, IndexStore, type IndexWrite, IndexWriteError, type VectorStore, type WriteSummary } from "../../src/ports/IndexStore.ts"
import { textArray } from "./PgFilter.ts"
import { PgIndex } from "./PgIndex.ts"
import { toChunk } from "./PgRows.ts"
import { message } from "./PgIndex.ts"
import { writer } from "./PgWrite.ts"

/** A database failure as the writer reports it; a refusal passes as it is. */
export const failed = (error: unknown): IndexWriteError =>
  error instanceof IndexWriteError ? error : refuse("write_failed", message(error))

export const make = Effect.gen(function*() {
  const pg = yield* PgIndex
  const { sql, repository } = pg
  const write = writer(pg)
  const run = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    sql.unsafe<A>(text, [repository, ...params]).pipe(Effect.mapError(failed))
  const hashes = (rows: ReadonlyArray<{ id: string; content_hash: string | null }>) =>
    new Map([...rows].sort((a, b) => compareIds(a.id, b.id)).map((row) => [row.id, row.content_hash] as const))
  const header = run<{ model_id: string; version: string; dimension: number }>(
    "SELECT model_id, version, dimension FROM cairn_spaces WHERE repository = $1"
  ).pipe(Effect.map(([row]) => row === undefined ? undefined : { modelId: row.model_id, version: row.version, dimension: Number(row.dimension) }))

  const texts = (size: number): Stream.Stream<ReadonlyArray<ChunkText>, IndexWriteError> => {
    const page = Math.max(1, Math.floor(size))
    return Stream.paginate("", (last: string) =>
      run<{ id: string; body: string }>(
        "SELECT id, body FROM cairn_chunks WHERE repository = $1 AND id > $2 ORDER BY id LIMIT $3",
        [last, page]
      ).pipe(Effect.map((rows) => {
        const chunks: ReadonlyArray<ChunkText> = rows.map((row) => ({ id: row.id as ChunkId, text: toChunk(row.body).text }))
        const next = rows.length < page ? Option.none<string>() : Option.some(rows.at(-1)!.id)
        return [chunks.length === 0 ? [] : [chunks], next] as const
      })))
  }

  return IndexStore.of({
    write: (batch) =>
      Effect.suspend(() => {
        const refused = validate(batch)
        if (refused !== undefined) return Effect.fail(refused)
        return sql.withTransaction(Effect.gen(function*() {
          yield* write.lock
          const content = yield* write.applyContent(batch)
          const vectorsWritten = batch.vectors === undefined ? 0 : yield* write.insertVectors(batch.vectors.entries)
          return yield* write.writeManifest(batch.manifest, { ...content, vectorsWritten })
        })).pipe(Effect.mapError(failed))
      }),
    rebuild: (content, embed) =>
      Effect.suspend(() => {
        const checks = rebuildChecks(content)
        if (checks.content !== undefined) return Effect.fail(checks.content)
        const head: IndexWrite = { replaceAll: true, manifest: content.manifest, ...(content.relations === undefined ? {} : { relations: content.relations }) }
        let chunksWritten = 0
        const body = Effect.gen(function*() {
          yield* write.lock.pipe(Effect.mapError(failed))
          const cleared = yield* write.applyContent(head).pipe(Effect.mapError(failed))
          yield* Stream.runForEach(content.parts, (part) =>
            Effect.suspend(() => {
              const refused = checks.part(part)
              if (refused !== undefined) return Effect.fail(refused)
              return write.applyContent({ ...part, manifest: content.manifest }).pipe(
                Effect.map((done) => {
                  chunksWritten += done.chunksWritten
                }),
                Effect.mapError(failed)
              )
            }))
          const checked = checkedVectorStore({
            open: (model) => write.createSpace(model).pipe(Effect.mapError(failed)),
            add: (entries) => write.insertVectors(entries, true).pipe(Effect.mapError(failed))
          })
          const store: VectorStore = { ...checked.store, texts }
          yield* Effect.suspend(() => embed(store))
          const summary: WriteSummary = yield* write.writeManifest(content.manifest, {
            chunksWritten,
            chunksDeleted: cleared.chunksDeleted,
            vectorsWritten: checked.stored()
          }).pipe(Effect.mapError(failed))
          return summary
        })
        return sql.withTransaction(body).pipe(
          Effect.catchTag("SqlError", (error) => Effect.fail(failed(error)))
        )
      }),
    noteHashes: run<{ id: string; content_hash: string | null }>("SELECT id, content_hash FROM cairn_notes WHERE repository = $1").pipe(Effect.map(hashes)),
    noteCount: run<{ n: number }>("SELECT count(*)::int AS n FROM cairn_notes WHERE repository = $1").pipe(Effect.map(([row]) => Number(row?.n ?? 0))),
    noteHashesOf: (notes) =>
      run<{ id: string; content_hash: string | null }>(
        "SELECT id, content_hash FROM cairn_notes WHERE repository = $1 AND id = ANY($2::text[])",
        [textArray(notes)]
      ).pipe(Effect.map(hashes)),
    storedChunks: (notes) =>
      run<{ id: string; content_sha: string; embedded: boolean }>(
        "SELECT c.id, c.content_sha, EXISTS (SELECT 1 FROM cairn_vectors v WHERE v.repository = c.repository AND v.chunk_id = c.id) AS embedded " +
          "FROM cairn_chunks c WHERE c.repository = $1 AND c.note_id = ANY($2::text[])",
        [textArray(notes)]
      ).pipe(Effect.map((rows) =>
        new Map([...rows].sort((a, b) => compareIds(a.id, b.id)).map((row) => [row.id as ChunkId, { contentSha: row.content_sha, embedded: row.embedded }] as const))
      )),
    unembedded: (excluded) =>
      run<{ id: string; body: string }>(
        "SELECT c.id, c.body FROM cairn_chunks c WHERE c.repository = $1 AND NOT (c.note_id = ANY($2::text[])) " +
          "AND NOT EXISTS (SELECT 1 FROM cairn_vectors v WHERE v.repository = c.repository AND v.chunk_id = c.id)",
        [textArray(excluded)]
      ).pipe(Effect.map((rows) =>
        [...rows].sort((a, b) => compareIds(a.id, b.id)).map((row) => ({ id: row.id as ChunkId, text: toChunk(row.body).text }))
      )),
    vectorsUnavailable: undefined,
    vectorSpace: run<{ model_id: string; version: string; dimension: number; model: string | null }>(
      "SELECT model_id, version, dimension, model FROM cairn_spaces WHERE repository = $1"
    ).pipe(Effect.map(([row]) =>
      row === undefined ? undefined : { modelId: row.model_id, version: row.version, dimension: Number(row.dimension), model: row.model }
    )),
    vectorSpaceHeader: header,
    builtUnder: run<{ chunking: string | null }>("SELECT chunking FROM cairn_manifest WHERE repository = $1").pipe(
      Effect.map(([row]) => row === undefined ? undefined : row.chunking ?? ChunkingConfig.DEFAULT_FINGERPRINT)
    ),
    manifest: run<Record<string, number | string>>(
      "SELECT generation, snapshot_hash, chunk_count, embedded_count, note_count, relation_count FROM cairn_manifest WHERE repository = $1"
    ).pipe(Effect.map(([row]) =>
      row === undefined ? undefined : {
        generation: Number(row["generation"]),
        snapshotHash: String(row["snapshot_hash"]),
        chunkCount: Number(row["chunk_count"]),
        embeddedCount: Number(row["embedded_count"]),
        noteCount: Number(row["note_count"]),
        relationCount: Number(row["relation_count"])
      }
    ))
  })
})

export const layer: Layer.Layer<IndexStore, never, PgIndex> = Layer.effect(IndexStore, make)
