/**
 * Reference VectorIndex: exact cosine similarity by a full scan over one contiguous Float64Array,
 * with the retrieval filter applied during the scan. The oracle an approximate index is compared to.
 */
import { Effect, Layer } from "effect"
import type { Chunk, ChunkId } from "../../src/domain/Chunk.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import type { VectorHit } from "../../src/ports/VectorIndex.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { TopK } from "../../src/domain/TopK.ts"

export interface Entry {
  readonly chunk: Chunk
  readonly vector: ReadonlyArray<number>
}

const byId = (a: Entry, b: Entry): number => compareIds(a.chunk.id, b.chunk.id)

/** Euclidean norm, or an error message when the vector cannot take part in a cosine. */
const normOf = (vector: ReadonlyArray<number>, dimension: number, what: string): number | VectorIndexError => {
  if (vector.length !== dimension) {
    return new VectorIndexError({ reason: "dimension_mismatch", detail: `${what} has length ${vector.length}, index has ${dimension}` })
  }
  let sum = 0
  for (let j = 0; j < dimension; j++) {
    const x = vector[j]!
    if (!Number.isFinite(x)) return new VectorIndexError({ reason: "invalid_vector", detail: `${what} component ${j} is ${x}` })
    sum += x * x
  }
  if (sum === 0) return new VectorIndexError({ reason: "invalid_vector", detail: `${what} is all zeros` })
  return Math.sqrt(sum)
}

/** Builds the index (entries in any order; ids unique, vectors `dimension` long, finite, non-zero). */
export const make = Effect.fnUntraced(function*(dimension: number, entries: ReadonlyArray<Entry>) {
  if (!Number.isInteger(dimension) || dimension <= 0) {
    return yield* new VectorIndexError({ reason: "dimension_mismatch", detail: `dimension ${dimension} is not a positive integer` })
  }
  const sorted = [...entries].sort(byId)
  const matrix = new Float64Array(sorted.length * dimension)
  const norms = new Float64Array(sorted.length)
  for (let row = 0; row < sorted.length; row++) {
    const { chunk, vector } = sorted[row]!
    if (row > 0 && sorted[row - 1]!.chunk.id === chunk.id) {
      return yield* new VectorIndexError({ reason: "duplicate_chunk", detail: chunk.id })
    }
    const norm = normOf(vector, dimension, `vector of ${chunk.id}`)
    if (typeof norm !== "number") return yield* norm
    norms[row] = norm
    matrix.set(vector, row * dimension)
  }

  const nearest = (vector: ReadonlyArray<number>, limit: number, filter: RetrievalFilter): Effect.Effect<ReadonlyArray<VectorHit>, VectorIndexError> => {
    const queryNorm = normOf(vector, dimension, "query vector")
    if (typeof queryNorm !== "number") return Effect.fail(queryNorm)
    // No more rows than exist: the heap is sized by k, and a caller may pass Infinity.
    const k = Math.min(Math.floor(limit), sorted.length)
    if (!(k > 0)) return Effect.succeed([])
    return Effect.sync(() => {
      const query = Float64Array.from(vector)
      const passes = compile(filter)
      const best = new TopK(k)
      for (let row = 0; row < sorted.length; row++) {
        if (!passes(sorted[row]!.chunk)) continue
        const offset = row * dimension
        let dot = 0
        for (let j = 0; j < dimension; j++) dot += query[j]! * matrix[offset + j]!
        // Rounding can push a cosine a hair past ±1; the port promises [-1, 1].
        best.push(Math.min(1, Math.max(-1, dot / (queryNorm * norms[row]!))), row)
      }
      return best.drain().map(({ row, score }) => ({ id: sorted[row]!.chunk.id, score }))
    })
  }

  const rowOf = new Map(sorted.map((entry, row) => [entry.chunk.id, row]))
  const vectorsOf = (ids: ReadonlyArray<ChunkId>) =>
    Effect.sync(() => new Map(ids.flatMap((id) => {
      const row = rowOf.get(id)
      return row === undefined ? [] : [[id, Array.from(matrix.subarray(row * dimension, (row + 1) * dimension))] as const]
    })))

  return VectorIndex.of({ dimension, nearest, vectorsOf })
})

export const layer = (dimension: number, entries: ReadonlyArray<Entry>): Layer.Layer<VectorIndex, VectorIndexError> =>
  Layer.effect(VectorIndex, make(dimension, entries))
