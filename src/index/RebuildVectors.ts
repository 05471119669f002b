/**
 * The `VectorStore` a rebuild hands its caller, with the checks every backend makes: one space per
 * rebuild, opened on a valid model before any vector, vectors of that model's length, finite and
 * non-zero, none twice. A backend gives only how to make the space and how to store vectors.
 */
import { Effect } from "effect"
import type { IndexWriteError, VectorEntry, VectorModel, VectorStore } from "../ports/IndexStore.ts"
import { refuse, validateVectors } from "./IndexWriteChecks.ts"

export interface VectorBackend {
  /** Makes the space of `model`, dropping any other. */
  readonly open: (model: VectorModel) => Effect.Effect<void, IndexWriteError>
  /** Stores checked vectors of held chunks; says how many. */
  readonly add: (entries: ReadonlyArray<VectorEntry>) => Effect.Effect<number, IndexWriteError>
}

/** A checked store over `backend`, and how many vectors it has stored so far. */
export const checkedVectorStore = (backend: VectorBackend): { readonly store: Omit<VectorStore, "texts">; readonly stored: () => number } => {
  let model: VectorModel | undefined
  let stored = 0
  const seen = new Set<string>()
  const store: Omit<VectorStore, "texts"> = {
    open: (next) =>
      Effect.suspend(() => {
        if (model !== undefined) return Effect.fail(refuse("conflicting_batch", `a second vector space (${next.id}) opened in one rebuild`))
        const invalid = validateVectors({ model: next, entries: [] })
        if (invalid !== undefined) return Effect.fail(invalid)
        return Effect.map(backend.open(next), () => {
          model = next
        })
      }),
    add: (entries) =>
      Effect.suspend(() => {
        if (model === undefined) return Effect.fail(refuse("conflicting_batch", "vectors added before their space was opened"))
        const invalid = validateVectors({ model, entries })
        if (invalid !== undefined) return Effect.fail(invalid)
        const repeated = entries.find((entry) => seen.has(entry.chunkId))
        if (repeated !== undefined) return Effect.fail(refuse("duplicate_chunk", repeated.chunkId))
        for (const entry of entries) seen.add(entry.chunkId)
        return Effect.map(backend.add(entries), (count) => {
          stored += count
        })
      })
  }
  return { store, stored: () => stored }
}
