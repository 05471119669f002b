/**
 * A cold build whose vectors are still being computed: one IMMEDIATE transaction takes every chunk,
 * note and relation first, then the caller's `embed` opens the model's space and adds vectors as
 * they come (the model may still be training on another thread), and the whole commits once. On
 * any failure, of the write or of `embed`, or an interruption, it rolls back.
 */
import { Effect } from "effect"
import type { DatabaseSync } from "node:sqlite"
import { refuse } from "../../src/index/IndexWriteChecks.ts"
import { checkedVectorStore } from "../../src/index/RebuildVectors.ts"
import type { IndexWrite, IndexWriteError, VectorStore, WriteSummary } from "../../src/ports/IndexStore.ts"
import { applyContent, clearSpace, failed, insertVectors, settleSpace, writeManifest } from "./WriteSql.ts"

export interface RebuildOptions {
  /** Why this connection has no sqlite-vec, when it has none: the space can be neither made nor filled. */
  readonly vectorsUnavailable: string | undefined
  /** What the store refuses of a batch before touching the file. */
  readonly refusal: (batch: IndexWrite) => IndexWriteError | undefined
}

export const rebuild = (db: DatabaseSync, { refusal, vectorsUnavailable }: RebuildOptions) => {
  const withoutVectors = vectorsUnavailable !== undefined
  return <E>(
    content: Omit<IndexWrite, "vectors" | "replaceAll">,
    embed: (store: VectorStore) => Effect.Effect<void, E | IndexWriteError>
  ): Effect.Effect<WriteSummary, IndexWriteError | E> =>
    Effect.suspend(() => {
      const batch: IndexWrite = { ...content, replaceAll: true }
      const refused = refusal(batch)
      if (refused !== undefined) return Effect.fail(refused)
      return Effect.acquireUseRelease(
        // Every stored vector goes with the old chunks; the new space is made when its model is known.
        Effect.try({
          try: () => {
            db.exec("BEGIN IMMEDIATE")
            try {
              return applyContent(db, batch, () => clearSpace(db, withoutVectors), withoutVectors)
            } catch (error) {
              if (db.isTransaction) db.exec("ROLLBACK")
              throw error
            }
          },
          catch: failed
        }),
        (written) => {
          const checked = checkedVectorStore({
            open: (model) =>
              Effect.try({
                try: () => settleSpace(db, { ...batch, vectors: { model, entries: [], replace: true } }, withoutVectors),
                catch: failed
              }),
            add: (entries) => Effect.try({ try: () => insertVectors(db, entries, written.placed), catch: failed })
          })
          const store: VectorStore = withoutVectors
            ? { ...checked.store, open: () => Effect.fail(refuse("vectors_unavailable", vectorsUnavailable)) }
            : checked.store
          return Effect.flatMap(embed(store), () =>
            Effect.try({
              try: () => {
                const summary = writeManifest(db, batch, { chunksWritten: written.chunksWritten, chunksDeleted: written.chunksDeleted, vectorsWritten: checked.stored() }, withoutVectors)
                db.exec("COMMIT")
                return summary
              },
              catch: failed
            }))
        },
        // Anything short of the commit leaves the previous index as it was.
        () => Effect.sync(() => {
          if (db.isTransaction) db.exec("ROLLBACK")
        })
      )
    })
}
