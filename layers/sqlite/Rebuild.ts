/**
 * A cold build made a part at a time, whose vectors are still being computed: one IMMEDIATE
 * transaction empties the index and takes the relations, then each part's chunks and notes as the
 * caller's stream yields them, then the caller's `embed` opens the model's space, reads the chunks
 * back a page at a time and adds vectors as they come (the model may still be training on another
 * thread), and the whole commits once. On any failure, of the parts, the write or `embed`, or an
 * interruption, it rolls back.
 */
import { Effect, Option, Stream } from "effect"
import type { DatabaseSync } from "node:sqlite"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { rebuildChecks, refuse } from "../../src/index/IndexWriteChecks.ts"
import { checkedVectorStore } from "../../src/index/RebuildVectors.ts"
import type { ChunkText, IndexWrite, IndexWriteError, RebuildContent, VectorStore, WriteSummary } from "../../src/ports/IndexStore.ts"
import { applyContent, clearSpace, failed, insertVectors, settleSpace, type VectorMeta, writeManifest } from "./WriteSql.ts"

export interface RebuildOptions {
  /** Why this connection has no sqlite-vec, when it has none: the space can be neither made nor filled. */
  readonly vectorsUnavailable: string | undefined
  /** What the store refuses of a batch before touching the file (a read-only open, say). */
  readonly refusal: (batch: IndexWrite) => IndexWriteError | undefined
}

/** The chunks a build wrote, by id, `size` at a time: one page in memory, whatever the build's size. */
const texts = (db: DatabaseSync, size: number): Stream.Stream<ReadonlyArray<ChunkText>, IndexWriteError> => {
  const page = Math.max(1, Math.floor(size))
  const after = db.prepare("SELECT id, text FROM chunks WHERE id > ? ORDER BY id LIMIT ?")
  return Stream.paginate("", (last: string) =>
    Effect.try({
      try: () => {
        const rows = after.all(last, page) as Array<{ id: string; text: string }>
        const chunks: ReadonlyArray<ChunkText> = rows.map((row) => ({ id: row.id as ChunkId, text: row.text }))
        const next = rows.length < page ? Option.none<string>() : Option.some(rows.at(-1)!.id)
        return [chunks.length === 0 ? [] : [chunks], next] as const
      },
      catch: failed
    }))
}

export const rebuild = (db: DatabaseSync, { refusal, vectorsUnavailable }: RebuildOptions) => {
  const withoutVectors = vectorsUnavailable !== undefined
  return <E, E2, R = never>(
    content: RebuildContent<E, R>,
    embed: (store: VectorStore) => Effect.Effect<void, E2 | IndexWriteError, R>
  ): Effect.Effect<WriteSummary, IndexWriteError | E | E2, R> =>
    Effect.suspend(() => {
      const checks = rebuildChecks(content)
      const header: IndexWrite = { replaceAll: true, manifest: content.manifest, ...(content.relations === undefined ? {} : { relations: content.relations }) }
      // The store's refusal of the header already includes the batch checks.
      const refused = refusal(header)
      if (refused !== undefined) return Effect.fail(refused)
      // Every chunk of the build, as placed: its vector needs no lookup of the row.
      const placed = new Map<string, VectorMeta>()
      let chunksWritten = 0
      return Effect.acquireUseRelease(
        // Every stored vector goes with the old chunks; the new space is made when its model is known.
        Effect.try({
          try: () => {
            db.exec("BEGIN IMMEDIATE")
            try {
              return applyContent(db, header, () => clearSpace(db, withoutVectors), withoutVectors, placed)
            } catch (error) {
              if (db.isTransaction) db.exec("ROLLBACK")
              throw error
            }
          },
          catch: failed
        }),
        (cleared) => {
          const writeParts = Stream.runForEach(content.parts, (part) =>
            Effect.suspend(() => {
              const refused = checks.part(part)
              if (refused !== undefined) return Effect.fail(refused)
              return Effect.try({
                try: () => {
                  chunksWritten += applyContent(db, { ...part, manifest: content.manifest }, () => {}, withoutVectors, placed).chunksWritten
                },
                catch: failed
              })
            }))
          const checked = checkedVectorStore({
            open: (model) =>
              Effect.try({
                try: () => settleSpace(db, { ...header, vectors: { model, entries: [], replace: true } }, withoutVectors),
                catch: failed
              }),
            add: (entries) => Effect.try({ try: () => insertVectors(db, entries, placed), catch: failed })
          })
          const store: VectorStore = {
            ...checked.store,
            ...(withoutVectors ? { open: () => Effect.fail(refuse("vectors_unavailable", vectorsUnavailable)) } : {}),
            texts: (size) => texts(db, size)
          }
          return writeParts.pipe(
            Effect.andThen(Effect.suspend(() => embed(store))),
            Effect.andThen(Effect.try({
              try: () => {
                const summary = writeManifest(db, header, { chunksWritten, chunksDeleted: cleared.chunksDeleted, vectorsWritten: checked.stored() }, withoutVectors)
                db.exec("COMMIT")
                return summary
              },
              catch: failed
            }))
          )
        },
        // Anything short of the commit leaves the previous index as it was.
        () => Effect.sync(() => {
          if (db.isTransaction) db.exec("ROLLBACK")
        })
      )
    })
}
