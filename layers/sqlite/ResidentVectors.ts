/**
 * The vector table held in memory, for a reader that asks more than once. vec0 answers a KNN by
 * reading every stored vector from the file, about 35 ms at 76,000 chunks of 129 dimensions; the
 * same vectors held as one Float32Array are scanned in a fraction of that. They are read from
 * vec0's own storage (its chunk tables: a validity bitmap, the row ids and the vectors of up to
 * 1,024 rows each), checked against its row count, and kept for one index generation.
 *
 * Scores are the exact cosine the rescoring in VectorIndexSqlite computes (float64 over the stored
 * float32 components, in the same order of operations), so a scan over memory and a vec0 query
 * followed by rescoring give the same doubles.
 */
import type { DatabaseSync } from "node:sqlite"

export interface Resident {
  readonly dimension: number
  /** SQLite row ids, one per stored vector. */
  readonly rows: Float64Array
  /** The vectors, row after row. */
  readonly vectors: Float32Array
  /** Each vector's Euclidean norm, as the exact cosine takes it. */
  readonly norms: Float64Array
}

/** Above this many stored floats (256 MiB) the vectors stay on disk and vec0 scans them. */
export const MAX_FLOATS = 64 * 1024 * 1024

interface StoredChunk {
  readonly size: number
  readonly validity: Uint8Array
  readonly rowids: Uint8Array
  readonly vectors: Uint8Array
}

/**
 * The vectors of `table` (a vec0 table of one `float[dimension]` column), or undefined when its
 * storage is not laid out as expected, or holds more than {@link MAX_FLOATS}: the caller keeps
 * asking vec0 then.
 */
export const read = (db: DatabaseSync, table: string, dimension: number): Resident | undefined => {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?)")
    .all(`${table}_chunks`, `${table}_vector_chunks00`, `${table}_rowids`) as Array<{ name: string }>
  if (tables.length !== 3) return undefined
  const count = Number((db.prepare(`SELECT count(*) AS n FROM ${table}_rowids`).get() as { n: number }).n)
  if (count * dimension > MAX_FLOATS) return undefined
  const chunks = db.prepare(
    `SELECT c.size AS size, c.validity AS validity, c.rowids AS rowids, v.vectors AS vectors FROM ${table}_chunks c ` +
      `JOIN ${table}_vector_chunks00 v ON v.rowid = c.chunk_id ORDER BY c.chunk_id`
  ).all() as unknown as Array<StoredChunk>
  const rows = new Float64Array(count)
  const vectors = new Float32Array(count * dimension)
  const norms = new Float64Array(count)
  let held = 0
  for (const chunk of chunks) {
    const size = Number(chunk.size)
    if (chunk.validity.length * 8 < size || chunk.rowids.length !== size * 8 || chunk.vectors.length !== size * dimension * 4) return undefined
    const ids = new DataView(chunk.rowids.buffer, chunk.rowids.byteOffset, chunk.rowids.byteLength)
    // vec0 stores little-endian float32, as this platform reads them (VectorTable.toBlob).
    const stored = new Float32Array(chunk.vectors.buffer.slice(chunk.vectors.byteOffset, chunk.vectors.byteOffset + chunk.vectors.byteLength))
    for (let slot = 0; slot < size; slot++) {
      if (((chunk.validity[slot >> 3]! >> (slot & 7)) & 1) === 0) continue
      if (held === count) return undefined
      rows[held] = Number(ids.getBigInt64(slot * 8, true))
      const at = held * dimension
      const from = slot * dimension
      let sum = 0
      for (let j = 0; j < dimension; j++) {
        const x = stored[from + j]!
        vectors[at + j] = x
        sum += x * x
      }
      norms[held] = Math.sqrt(sum)
      held++
    }
  }
  return held === count ? { dimension, rows, vectors, norms } : undefined
}

/** Every stored vector's exact cosine with `query` (of norm `norm`), in storage order, into `scores`. */
export const scoreAll = (resident: Resident, query: Float64Array, norm: number, scores: Float64Array): void => {
  const { dimension, vectors, norms } = resident
  for (let i = 0, at = 0; i < norms.length; i++, at += dimension) {
    let dot = 0
    for (let j = 0; j < dimension; j++) dot += query[j]! * vectors[at + j]!
    scores[i] = Math.min(1, Math.max(-1, dot / (norm * norms[i]!)))
  }
}

/**
 * The positions of the `m` best scores and of every score tied with the last of them, in no
 * particular order: the caller orders by score then id, so a tie at the cut is never decided here.
 */
export const best = (scores: Float64Array, m: number): Array<number> => {
  const n = scores.length
  if (m >= n) return Array.from({ length: n }, (_, i) => i)
  // A min-heap of the best m seen, by score.
  const heap = new Int32Array(m)
  let size = 0
  const less = (a: number, b: number) => scores[heap[a]!]! < scores[heap[b]!]!
  const swap = (a: number, b: number) => {
    const t = heap[a]!
    heap[a] = heap[b]!
    heap[b] = t
  }
  const down = (from: number) => {
    for (let i = from; ;) {
      const l = 2 * i + 1
      const r = l + 1
      let least = i
      if (l < size && less(l, least)) least = l
      if (r < size && less(r, least)) least = r
      if (least === i) return
      swap(i, least)
      i = least
    }
  }
  for (let i = 0; i < n; i++) {
    if (size < m) {
      heap[size] = i
      for (let c = size++; c > 0;) {
        const p = (c - 1) >> 1
        if (!less(c, p)) break
        swap(c, p)
        c = p
      }
    } else if (scores[i]! > scores[heap[0]!]!) {
      heap[0] = i
      down(0)
    }
  }
  const floor = scores[heap[0]!]!
  const chosen = new Set(heap)
  const out = Array.from(heap)
  for (let i = 0; i < n; i++) if (scores[i] === floor && !chosen.has(i)) out.push(i)
  return out
}
