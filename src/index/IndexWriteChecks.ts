/**
 * What an index write is refused for before any backend reads its storage: a malformed manifest, a
 * chunk twice, a batch that keeps and deletes one thing, vectors that are not finite, non-zero and
 * of the model's length. Every `IndexStore` backend runs these first, so all refuse alike.
 */
import { instantMillis } from "../domain/Instant.ts"
import { type IndexWrite, IndexWriteError } from "../ports/IndexStore.ts"

export const refuse = (reason: IndexWriteError["reason"], detail: string) => new IndexWriteError({ reason, detail })

const firstRepeat = (values: Iterable<string>): string | undefined => {
  const seen = new Set<string>()
  for (const value of values) {
    if (seen.has(value)) return value
    seen.add(value)
  }
  return undefined
}

/** Everything that can be refused without reading the file. */
export const validate = (batch: IndexWrite): IndexWriteError | undefined => {
  if (Number.isNaN(instantMillis(batch.manifest.builtAt))) return refuse("invalid_manifest", `builtAt ${JSON.stringify(batch.manifest.builtAt)} is not an instant`)
  const chunks = batch.chunks ?? []
  const repeated = firstRepeat(chunks.map((chunk) => chunk.id))
  if (repeated !== undefined) return refuse("duplicate_chunk", repeated)
  const upserted = new Set<string>(chunks.map((chunk) => chunk.id))
  const both = (batch.deleteChunks ?? []).find((id) => upserted.has(id))
  if (both !== undefined) return refuse("conflicting_batch", `chunk ${both} is both written and deleted`)
  const deletedNotes = new Set(batch.deleteNotes ?? [])
  const orphan = chunks.find((chunk) => deletedNotes.has(chunk.noteId))
  if (orphan !== undefined) return refuse("conflicting_batch", `chunk ${orphan.id} is written into deleted note ${orphan.noteId}`)
  const noteIds = (batch.notes ?? []).map((note) => note.id)
  const repeatedNote = firstRepeat(noteIds)
  if (repeatedNote !== undefined) return refuse("conflicting_batch", `note ${repeatedNote} is recorded twice`)
  const keptAndDeleted = noteIds.find((id) => deletedNotes.has(id))
  if (keptAndDeleted !== undefined) return refuse("conflicting_batch", `note ${keptAndDeleted} is both recorded and deleted`)
  if (batch.relations !== undefined) {
    const from = new Set(batch.relations.from)
    const stray = batch.relations.edges.find((edge) => !from.has(edge.from))
    if (stray !== undefined) return refuse("conflicting_batch", `edge from ${stray.from} whose note is not in relations.from`)
  }
  return batch.vectors === undefined ? undefined : validateVectors(batch.vectors)
}

/** The vectors' own checks: a positive dimension, one vector per chunk, finite, non-zero, the model's length. */
export const validateVectors = (vectors: NonNullable<IndexWrite["vectors"]>): IndexWriteError | undefined => {
  const { model, entries } = vectors
  if (!Number.isInteger(model.dimension) || model.dimension <= 0) return refuse("dimension_mismatch", `model dimension ${model.dimension} is not a positive integer`)
  const repeatedVector = firstRepeat(entries.map((entry) => entry.chunkId))
  if (repeatedVector !== undefined) return refuse("duplicate_chunk", repeatedVector)
  for (const { chunkId, vector } of entries) {
    if (vector.length !== model.dimension) return refuse("dimension_mismatch", `vector of ${chunkId} has length ${vector.length}, model ${model.id} has ${model.dimension}`)
    let sum = 0
    // Indexed, not `for…of`: 76,000 vectors of a rebuild iterated allocated 200 MB of iterator results.
    for (let i = 0; i < vector.length; i++) {
      const x = vector[i]!
      if (!Number.isFinite(x)) return refuse("invalid_vector", `vector of ${chunkId} has component ${x}`)
      sum += x * x
    }
    if (sum === 0) return refuse("invalid_vector", `vector of ${chunkId} is all zeros`)
  }
  return undefined
}

/**
 * The checks of a cold build made a part at a time (`IndexStore.rebuild`): `content` is what a
 * replacing write of the header alone refuses; `part` refuses what the part refuses as a write,
 * and a chunk, or a note, that an earlier part already held. A note's chunks are all in the part
 * that records it, so a later part may not add to it.
 */
export const rebuildChecks = (content: { readonly relations?: IndexWrite["relations"] | undefined; readonly manifest: IndexWrite["manifest"] }) => {
  const chunks = new Set<string>()
  const notes = new Set<string>()
  return {
    content: validate({ replaceAll: true, manifest: content.manifest, ...(content.relations === undefined ? {} : { relations: content.relations }) }),
    part: (part: Pick<IndexWrite, "chunks" | "notes">): IndexWriteError | undefined => {
      const refused = validate({ ...part, manifest: content.manifest })
      if (refused !== undefined) return refused
      for (const chunk of part.chunks ?? []) {
        if (chunks.has(chunk.id)) return refuse("duplicate_chunk", chunk.id)
        if (notes.has(chunk.noteId)) return refuse("conflicting_batch", `chunk ${chunk.id} is written into note ${chunk.noteId}, recorded by an earlier part`)
      }
      for (const note of part.notes ?? []) if (notes.has(note.id)) return refuse("conflicting_batch", `note ${note.id} is recorded twice`)
      for (const chunk of part.chunks ?? []) chunks.add(chunk.id)
      for (const note of part.notes ?? []) notes.add(note.id)
      return undefined
    }
  }
}
