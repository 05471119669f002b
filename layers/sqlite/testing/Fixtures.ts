/**
 * Test support for the SQLite backends: indexes seeded with one batch (in memory or in a temporary
 * directory), and a batch builder that records every note of its chunks.
 */
import { Effect, Layer, Stream } from "effect"
import type { Scope } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { Chunk } from "../../../src/domain/Chunk.ts"
import * as Database from "../Database.ts"
import type { DatabaseError } from "../DatabaseError.ts"
import type { IndexWrite, IndexWriteError, RebuildContent, RebuildPart } from "../../../src/ports/IndexStore.ts"
import { compareIds } from "../../../src/domain/Ranking.ts"
import * as IndexStoreSqlite from "../IndexStoreSqlite.ts"

export const BUILT_AT = "2025-03-01T12:00:00Z"

export const MANIFEST: IndexWrite["manifest"] = { snapshotHash: "snapshot-1", builtAt: BUILT_AT }

/** A cold-build batch of `chunks`, every note recorded with a hash derived from its id. */
export const coldBuild = (chunks: ReadonlyArray<Chunk>, extra: Partial<IndexWrite> = {}): IndexWrite => ({
  replaceAll: true,
  chunks,
  notes: [...new Set(chunks.map((chunk) => chunk.noteId))].map((id) => ({ id, contentHash: `hash:${id}` })),
  manifest: MANIFEST,
  ...extra
})

/**
 * A replacing batch as a rebuild takes it: its notes, in the order of their first chunk's id, `per`
 * to a part, each with all its chunks; and its relations and manifest.
 */
export const inParts = (batch: IndexWrite, per: number): RebuildContent => {
  const chunks = [...(batch.chunks ?? [])].sort((a, b) => compareIds(a.id, b.id))
  const notes = new Map((batch.notes ?? []).map((note) => [note.id, note] as const))
  const order = [...new Set([...chunks.map((chunk) => chunk.noteId), ...notes.keys()])]
  const parts: Array<RebuildPart> = []
  for (let start = 0; start < order.length; start += per) {
    const group = new Set(order.slice(start, start + per))
    parts.push({
      notes: [...group].flatMap((id) => notes.has(id) ? [notes.get(id)!] : []),
      chunks: chunks.filter((chunk) => group.has(chunk.noteId))
    })
  }
  return { parts: Stream.fromIterable(parts), manifest: batch.manifest, ...(batch.relations === undefined ? {} : { relations: batch.relations }) }
}

/** Writes `batch` through a writer on `database`. */
export const write = (database: Database.DatabaseShape, batch: IndexWrite) =>
  Effect.flatMap(IndexStoreSqlite.make.pipe(Effect.provideService(Database.Database, database)), (writer) => writer.write(batch))

/** Opens a database at `path` (a private in-memory index by default) and writes `batch` into it. */
export const openSeeded = (batch: IndexWrite, path = ":memory:"): Effect.Effect<Database.DatabaseShape, DatabaseError | IndexWriteError, Scope.Scope> =>
  Effect.gen(function*() {
    const database = yield* Database.open({ path })
    yield* write(database, batch)
    return database
  })

/** A Database holding `batch`. */
export const seeded = (batch: IndexWrite, path = ":memory:"): Layer.Layer<Database.Database, DatabaseError | IndexWriteError> =>
  Layer.effect(Database.Database, openSeeded(batch, path))

/** A temporary directory that lives as long as the enclosing scope. */
export const tempDir: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-sqlite-"))),
  (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
)
