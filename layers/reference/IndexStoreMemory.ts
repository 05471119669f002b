/**
 * The reference `IndexStore`: the write contract over plain maps. A write builds the next state
 * from a copy of the current one and swaps it in only when the whole batch went through, so a
 * refused or failing batch leaves nothing behind, as the SQLite backend's transaction does. What it
 * holds can be read back as a reference corpus (`contents`), so the index pipeline runs end to end
 * on the reference layers.
 */
import { Effect, Layer, Stream } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import { rebuildChecks, refuse, validate } from "../../src/index/IndexWriteChecks.ts"
import { checkedVectorStore } from "../../src/index/RebuildVectors.ts"
import type { NoteEdge } from "../../src/ports/GraphStore.ts"
import {
  type ChunkText,
  IndexStore,
  type IndexWrite,
  IndexWriteError,
  type RebuildContent,
  type StoredChunk,
  type StoredManifest,
  type VectorEntry,
  type VectorSpace,
  type VectorStore,
  type WriteSummary
} from "../../src/ports/IndexStore.ts"

interface Manifest extends StoredManifest {
  readonly chunking: string | undefined
}

interface State {
  readonly chunks: Map<ChunkId, Chunk>
  /** Note id → the content hash recorded for it (null when none was). */
  readonly notes: Map<string, string | null>
  /** `from\0to\0verb` → the edge, so an edge is held once. */
  readonly relations: Map<string, NoteEdge>
  space: VectorSpace | undefined
  readonly vectors: Map<ChunkId, Float32Array>
  manifest: Manifest | undefined
}

const empty = (): State => ({ chunks: new Map(), notes: new Map(), relations: new Map(), space: undefined, vectors: new Map(), manifest: undefined })

const copy = (state: State): State => ({
  chunks: new Map(state.chunks),
  notes: new Map(state.notes),
  relations: new Map(state.relations),
  space: state.space,
  vectors: new Map(state.vectors),
  manifest: state.manifest
})

const edgeKey = (edge: NoteEdge) => `${edge.from}\0${edge.to}\0${edge.verb}`

/** What the store holds, as the reference read layers take it (`Reference.layer`). */
export interface Contents {
  /** By id. */
  readonly chunks: ReadonlyArray<Chunk>
  /** By from, to, verb. */
  readonly edges: ReadonlyArray<NoteEdge>
  readonly vectors: ReadonlyMap<ChunkId, Float32Array>
  readonly space: VectorSpace | undefined
}

const sameSpace = (a: Omit<VectorSpace, "model">, b: Omit<VectorSpace, "model">) =>
  a.modelId === b.modelId && a.version === b.version && a.dimension === b.dimension

/** Makes the next state's space the batch's, or refuses a silent mix (throws, so the copy is dropped). */
const settleSpace = (next: State, batch: IndexWrite): void => {
  const vectors = batch.vectors
  if (vectors === undefined) {
    if (batch.replaceAll === true) {
      next.space = undefined
      next.vectors.clear()
    }
    return
  }
  const space: VectorSpace = { modelId: vectors.model.id, version: vectors.model.version, dimension: vectors.model.dimension, model: vectors.model.model ?? null }
  const stored = next.space
  if (stored === undefined || batch.replaceAll === true || vectors.replace === true) {
    next.space = space
    next.vectors.clear()
    return
  }
  if (!sameSpace(stored, space)) {
    throw refuse("embedder_changed", `stored vectors are ${stored.modelId}@${stored.version} (${stored.dimension}), the batch's ${space.modelId}@${space.version} (${space.dimension})`)
  }
  if (space.model !== null) next.space = { ...stored, version: space.version, model: space.model }
}

/** Everything of a batch but its vectors, applied to `next`; throws to refuse. */
const applyContent = (next: State, batch: IndexWrite, settle: () => void): Pick<WriteSummary, "chunksWritten" | "chunksDeleted"> => {
  if (batch.replaceAll === true) {
    next.chunks.clear()
    next.notes.clear()
    next.relations.clear()
  }
  settle()
  const touched = new Set<string>()
  let deleted = 0
  // Each note's chunk ids, made once per write rather than by a scan of every chunk per note.
  const byNote = new Map<string, Set<ChunkId>>()
  const file = (chunk: Chunk) => {
    const ids = byNote.get(chunk.noteId)
    if (ids === undefined) byNote.set(chunk.noteId, new Set([chunk.id]))
    else ids.add(chunk.id)
  }
  for (const chunk of next.chunks.values()) file(chunk)
  const remove = (id: ChunkId) => {
    const chunk = next.chunks.get(id)
    if (chunk !== undefined) byNote.get(chunk.noteId)?.delete(id)
    next.chunks.delete(id)
    next.vectors.delete(id)
    deleted++
  }
  const chunksOf = (note: string): ReadonlyArray<ChunkId> => [...(byNote.get(note) ?? [])]
  for (const note of batch.deleteNotes ?? []) {
    for (const id of chunksOf(note)) remove(id)
    next.notes.delete(note)
    for (const [key, edge] of next.relations) if (edge.from === note) next.relations.delete(key)
  }
  for (const id of batch.deleteChunks ?? []) {
    const existing = next.chunks.get(id)
    if (existing === undefined) continue
    remove(id)
    touched.add(existing.noteId)
  }
  const chunks = [...(batch.chunks ?? [])].sort((a, b) => compareIds(a.id, b.id))
  const incoming = new Set<string>(chunks.map((chunk) => chunk.id))
  for (const note of batch.notes ?? []) {
    touched.add(note.id)
    for (const id of chunksOf(note.id)) if (!incoming.has(id)) remove(id)
  }
  for (const chunk of chunks) {
    const existing = next.chunks.get(chunk.id)
    if (existing !== undefined) {
      touched.add(existing.noteId)
      byNote.get(existing.noteId)?.delete(chunk.id)
      // Same words, same vector; other words have none until one is written.
      if (existing.contentSha !== chunk.contentSha) next.vectors.delete(chunk.id)
    }
    next.chunks.set(chunk.id, chunk)
    file(chunk)
    touched.add(chunk.noteId)
  }
  const recorded = new Map((batch.notes ?? []).map((note) => [note.id, note.contentHash]))
  for (const note of touched) {
    const hash = recorded.get(note) ?? next.notes.get(note) ?? null
    if (hash === null && chunksOf(note).length === 0) next.notes.delete(note)
    else next.notes.set(note, hash)
  }
  if (batch.relations !== undefined) {
    const from = new Set(batch.relations.from)
    for (const [key, edge] of next.relations) if (from.has(edge.from)) next.relations.delete(key)
    for (const edge of batch.relations.edges) next.relations.set(edgeKey(edge), { from: edge.from, to: edge.to, verb: edge.verb })
  }
  return { chunksWritten: chunks.length, chunksDeleted: deleted }
}

/** Stores each entry's vector, rounded to float32 as the SQLite backend stores it; the chunks must be held. */
const addVectors = (next: State, entries: ReadonlyArray<VectorEntry>): number => {
  for (const entry of entries) {
    if (!next.chunks.has(entry.chunkId)) throw refuse("unknown_chunk", entry.chunkId)
    next.vectors.set(entry.chunkId, Float32Array.from(entry.vector))
  }
  return entries.length
}

const commitManifest = (next: State, batch: IndexWrite, done: Pick<WriteSummary, "chunksWritten" | "chunksDeleted" | "vectorsWritten">): WriteSummary => {
  const summary: WriteSummary = {
    generation: (next.manifest?.generation ?? 0) + 1,
    chunkCount: next.chunks.size,
    embeddedCount: next.space === undefined ? 0 : next.vectors.size,
    noteCount: next.notes.size,
    relationCount: next.relations.size,
    ...done
  }
  next.manifest = {
    generation: summary.generation,
    snapshotHash: batch.manifest.snapshotHash,
    chunkCount: summary.chunkCount,
    embeddedCount: summary.embeddedCount,
    noteCount: summary.noteCount,
    relationCount: summary.relationCount,
    chunking: batch.manifest.chunking
  }
  return summary
}

/** Runs `body` on a copy of the state and keeps the copy only when it returns. */
const attempt = <A>(body: () => A): Effect.Effect<A, IndexWriteError> =>
  Effect.try({ try: body, catch: (error) => error instanceof IndexWriteError ? error : refuse("write_failed", String(error)) })

const byId = <V>(entries: Iterable<readonly [string, V]>) => new Map([...entries].sort(([a], [b]) => compareIds(a, b)))

/** A store and a view of what it holds. */
export const make = (): { readonly store: IndexStore["Service"]; readonly contents: Effect.Effect<Contents> } => {
  let state = empty()
  const store = IndexStore.of({
    write: (batch) =>
      Effect.suspend(() => {
        const refused = validate(batch)
        if (refused !== undefined) return Effect.fail(refused)
        return attempt(() => {
          const next = copy(state)
          const content = applyContent(next, batch, () => settleSpace(next, batch))
          const vectorsWritten = batch.vectors === undefined ? 0 : addVectors(next, batch.vectors.entries)
          const summary = commitManifest(next, batch, { ...content, vectorsWritten })
          state = next
          return summary
        })
      }),
    rebuild: <E, E2, R = never>(content: RebuildContent<E, R>, embed: (store: VectorStore) => Effect.Effect<void, E2 | IndexWriteError, R>) =>
      Effect.suspend(() => {
        const checks = rebuildChecks(content)
        if (checks.content !== undefined) return Effect.fail(checks.content)
        const header: IndexWrite = { replaceAll: true, manifest: content.manifest, ...(content.relations === undefined ? {} : { relations: content.relations }) }
        const next = copy(state)
        let chunksWritten = 0
        return Effect.flatMap(attempt(() => applyContent(next, header, () => settleSpace(next, header))), (cleared) => {
          const writeParts = Stream.runForEach(content.parts, (part) =>
            Effect.suspend(() => {
              const refused = checks.part(part)
              if (refused !== undefined) return Effect.fail(refused)
              return attempt(() => {
                chunksWritten += applyContent(next, { ...part, manifest: content.manifest }, () => {}).chunksWritten
              })
            }))
          const checked = checkedVectorStore({
            open: (model) =>
              Effect.sync(() => {
                next.space = { modelId: model.id, version: model.version, dimension: model.dimension, model: model.model ?? null }
                next.vectors.clear()
              }),
            add: (entries) => attempt(() => addVectors(next, entries))
          })
          const texts = (size: number): Stream.Stream<ReadonlyArray<ChunkText>, IndexWriteError> =>
            Stream.suspend(() => {
              const all = [...next.chunks.values()].sort((a, b) => compareIds(a.id, b.id)).map((chunk) => ({ id: chunk.id, text: chunk.text }))
              const page = Math.max(1, Math.floor(size))
              return Stream.fromIterable(Array.from({ length: Math.ceil(all.length / page) }, (_, i) => all.slice(i * page, (i + 1) * page)))
            })
          return writeParts.pipe(
            Effect.andThen(Effect.suspend(() => embed({ ...checked.store, texts }))),
            Effect.andThen(Effect.sync(() => {
              const summary = commitManifest(next, header, { chunksWritten, chunksDeleted: cleared.chunksDeleted, vectorsWritten: checked.stored() })
              state = next
              return summary
            }))
          )
        })
      }),
    noteHashes: Effect.sync(() => byId(state.notes)),
    noteCount: Effect.sync(() => state.notes.size),
    noteHashesOf: (notes) => Effect.sync(() => byId(notes.flatMap((note) => state.notes.has(note) ? [[note, state.notes.get(note)!] as const] : []))),
    storedChunks: (notes) =>
      Effect.sync(() => {
        const wanted = new Set(notes)
        return byId<StoredChunk>([...state.chunks.values()].filter((chunk) => wanted.has(chunk.noteId))
          .map((chunk) => [chunk.id, { contentSha: chunk.contentSha, embedded: state.vectors.has(chunk.id) }] as const)) as Map<ChunkId, StoredChunk>
      }),
    unembedded: (excluded) =>
      Effect.sync(() => {
        const skipped = new Set(excluded)
        return [...state.chunks.values()].filter((chunk) => !skipped.has(chunk.noteId) && !state.vectors.has(chunk.id))
          .sort((a, b) => compareIds(a.id, b.id)).map((chunk) => ({ id: chunk.id, text: chunk.text }))
      }),
    vectorsUnavailable: undefined,
    vectorSpace: Effect.sync(() => state.space),
    vectorSpaceHeader: Effect.sync(() => {
      if (state.space === undefined) return undefined
      const { model: _model, ...header } = state.space
      return header
    }),
    manifest: Effect.sync(() => {
      if (state.manifest === undefined) return undefined
      const { chunking: _chunking, ...manifest } = state.manifest
      return manifest
    }),
    builtUnder: Effect.sync(() => state.manifest === undefined ? undefined : state.manifest.chunking ?? ChunkingConfig.DEFAULT_FINGERPRINT)
  })
  const contents = Effect.sync((): Contents => ({
    chunks: [...state.chunks.values()].sort((a, b) => compareIds(a.id, b.id)),
    edges: [...state.relations.values()].sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)),
    vectors: byId(state.vectors) as Map<ChunkId, Float32Array>,
    space: state.space
  }))
  return { store, contents }
}

/** An empty store. */
export const layer = (): Layer.Layer<IndexStore> => Layer.sync(IndexStore, () => make().store)
