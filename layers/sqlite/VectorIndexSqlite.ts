/**
 * VectorIndex over the index file's vec0 table. vec0 finds candidates with the retrieval filter
 * inside its scan (metadata columns for superseded, type and date; a row set for paths); each
 * candidate is then rescored exactly (float64 cosine of the stored float32 components), filtered
 * again in memory and ordered by score then id. vec0 ranks in float32, so a cut is accepted only
 * when no row it left out could beat the k-th exact score; otherwise it fetches more, up to
 * vec0's largest `k`. A tie wider than that at the cut (thousands of identical vectors, or a query
 * orthogonal to everything) is cut among the rows fetched rather than by reading every vector:
 * that scan took seconds and most of a gigabyte at 76,000 chunks. Only a `limit` above vec0's
 * largest `k` reads every vector.
 */
import { Effect, Layer } from "effect"
import type { DatabaseSync, SQLInputValue } from "node:sqlite"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { byScoreThenId } from "../../src/domain/Ranking.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import type { VectorHit } from "../../src/ports/VectorIndex.ts"
import { VectorIndex, VectorIndexError } from "../../src/ports/VectorIndex.ts"
import { Database } from "./Database.ts"
import { chunkClause, vectorClause } from "./FilterSql.ts"
import * as ResidentVectors from "./ResidentVectors.ts"
import { filterSubjectsAtRows } from "./Rows.ts"
import { VECTOR_TABLE } from "./Schema.ts"
import type { VectorSpace } from "../../src/ports/IndexStore.ts"
import { fromBlob, readSpaceHeader, sameSpace, toBlob } from "./VectorTable.ts"

// vec0 refuses a KNN `k` above this; beyond it the candidates come from a plain scan.
const VEC0_MAX_K = 4096

interface Candidate {
  readonly row: number
  readonly embedding: Uint8Array
}

/** Query norm, or the error the port promises for a vector that cannot take part in a cosine. */
const queryNorm = (vector: ReadonlyArray<number>, dimension: number): number | VectorIndexError => {
  if (vector.length !== dimension) {
    return new VectorIndexError({ reason: "dimension_mismatch", detail: `query vector has length ${vector.length}, index has ${dimension}` })
  }
  let sum = 0
  for (let j = 0; j < dimension; j++) {
    const x = vector[j]!
    if (!Number.isFinite(x)) return new VectorIndexError({ reason: "invalid_vector", detail: `query vector component ${j} is ${x}` })
    sum += x * x
  }
  if (sum === 0) return new VectorIndexError({ reason: "invalid_vector", detail: "query vector is all zeros" })
  return Math.sqrt(sum)
}

/** Cosine in float64, with the reference's order of operations, clamped to [-1, 1]. */
const cosine = (query: Float64Array, norm: number, stored: Float32Array): number => {
  let dot = 0
  let sum = 0
  for (let j = 0; j < stored.length; j++) {
    const x = stored[j]!
    dot += query[j]! * x
    sum += x * x
  }
  return Math.min(1, Math.max(-1, dot / (norm * Math.sqrt(sum))))
}

export interface Options {
  /**
   * Hold the vectors in memory from a reader's second question at one index generation (the
   * default, true), or leave every question to vec0: the baseline the first is tested against.
   */
  readonly holdInMemory?: boolean
}

const nearest = (db: DatabaseSync, space: Omit<VectorSpace, "model">, holdInMemory: boolean) => {
  const { dimension } = space
  // How far vec0's float32 cosine may stray from the exact one: about one float32 rounding per
  // accumulated product, generously.
  const tolerance = 4 * dimension * 2 ** -24 + 1e-7

  /** Up to `n` candidates nearest by vec0's own (float32) distance, nearest first. */
  const knn = (blob: Uint8Array, n: number, filter: RetrievalFilter): Array<Candidate & { distance: number }> => {
    const clause = vectorClause(filter)
    const params: Array<SQLInputValue> = [blob, BigInt(n), ...clause.params]
    return db.prepare(
      `SELECT rowid AS row, distance, embedding FROM ${VECTOR_TABLE} WHERE embedding MATCH ? AND k = ? AND ${clause.sql}`
    ).all(...params) as unknown as Array<Candidate & { distance: number }>
  }

  /** Every stored vector passing the filter, for a `limit` above what vec0 serves. */
  const scan = (filter: RetrievalFilter): Array<Candidate> => {
    const clause = chunkClause(filter, "c")
    return db.prepare(`SELECT v.rowid AS row, v.embedding AS embedding FROM ${VECTOR_TABLE} v JOIN chunks c ON c.row = v.rowid WHERE ${clause.sql}`)
      .all(...clause.params) as unknown as Array<Candidate>
  }

  // A reader asking a second time at one generation is a long-lived one: from then on it holds the
  // vectors in memory (ResidentVectors.ts) until the index changes. A one-shot question never pays
  // for reading them all.
  const generationOf = db.prepare("SELECT generation FROM manifest WHERE key = 1")
  let held: { readonly generation: number; readonly asked: number; readonly resident: ResidentVectors.Resident | undefined } | undefined
  let scores = new Float64Array(0)
  const residentNow = (): ResidentVectors.Resident | undefined => {
    const generation = Number((generationOf.get() as { generation: number } | undefined)?.generation ?? 0)
    if (held === undefined || held.generation !== generation) held = { generation, asked: 0, resident: undefined }
    if (held.resident === undefined && held.asked === 1) {
      const resident = ResidentVectors.read(db, VECTOR_TABLE, dimension)
      if (resident !== undefined && scores.length !== resident.norms.length) scores = new Float64Array(resident.norms.length)
      held = { generation, asked: 2, resident }
    } else if (held.asked < 2) {
      held = { ...held, asked: held.asked + 1 }
    }
    return held.resident
  }
  // Read in one transaction with the generation, so the vectors held are the generation's.
  const inRead = <A>(body: () => A): A => {
    if (db.isTransaction) return body()
    db.exec("BEGIN")
    try {
      return body()
    } finally {
      db.exec("COMMIT")
    }
  }

  return (vector: ReadonlyArray<number>, limit: number, filter: RetrievalFilter): Array<VectorHit> | VectorIndexError => {
    const norm = queryNorm(vector, dimension)
    if (typeof norm !== "number") return norm
    const k = Math.floor(limit)
    if (!(k > 0)) return []
    const query = Float64Array.from(vector)
    const blob = toBlob(vector)
    const passes = compile(filter)
    const rescore = (candidates: ReadonlyArray<Candidate>): Array<VectorHit> => {
      const subjects = filterSubjectsAtRows(db, candidates.map((candidate) => candidate.row))
      const hits: Array<VectorHit> = []
      for (const { row, embedding } of candidates) {
        const subject = subjects.get(row)
        if (subject !== undefined && passes(subject)) hits.push({ id: subject.id, score: cosine(query, norm, fromBlob(embedding)) })
      }
      return hits.sort(byScoreThenId)
    }
    if (k > VEC0_MAX_K) return rescore(scan(filter)).slice(0, k)
    const resident = holdInMemory ? inRead(residentNow) : undefined
    if (resident !== undefined) {
      ResidentVectors.scoreAll(resident, query, norm, scores)
      // The best few beyond k, then more while the filter leaves fewer than k of them.
      for (let m = k + Math.ceil(k / 4) + 8; ; m *= 4) {
        const positions = ResidentVectors.best(scores, m)
        const rows = positions.map((position) => resident.rows[position]!)
        const subjects = filterSubjectsAtRows(db, rows)
        const hits: Array<VectorHit> = []
        for (const position of positions) {
          const subject = subjects.get(resident.rows[position]!)
          if (subject !== undefined && passes(subject)) hits.push({ id: subject.id, score: scores[position]! })
        }
        if (hits.length >= k || positions.length >= scores.length) return hits.sort(byScoreThenId).slice(0, k)
      }
    }
    // A little over k, so a float32 near-tie at the cut rarely forces a second query.
    for (let n = Math.min(VEC0_MAX_K, k + Math.ceil(k / 4) + 8); ; n = Math.min(VEC0_MAX_K, n * 2)) {
      const rows = knn(blob, n, filter)
      const hits = rescore(rows)
      if (rows.length < n || n === VEC0_MAX_K) return hits.slice(0, k)
      // Every row vec0 left out is at least this far by its own measure.
      const bound = 1 - rows[rows.length - 1]!.distance + tolerance
      if (hits.length >= k && hits[k - 1]!.score > bound) return hits.slice(0, k)
    }
  }
}

const unavailable = (error: unknown) =>
  new VectorIndexError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

/**
 * Over the Database service; the index must hold a vector space (vectors written by some model),
 * and the connection must have sqlite-vec loaded.
 */
export const makeWith = Effect.fnUntraced(function*(options: Options) {
  const { connection: db, vectorsUnavailable } = yield* Database
  if (vectorsUnavailable !== undefined) return yield* new VectorIndexError({ reason: "extension_missing", detail: vectorsUnavailable })
  const space = yield* Effect.try({ try: () => readSpaceHeader(db), catch: unavailable })
  if (space === undefined) {
    return yield* new VectorIndexError({ reason: "unavailable", detail: "the index holds no vectors (it was built without an embedder)" })
  }
  const search = nearest(db, space, options.holdInMemory ?? true)
  // A writer on this connection may change the model under a live layer; a query then fails
  // rather than compare vectors of two models.
  const guard = <A>(body: () => A | VectorIndexError): Effect.Effect<A, VectorIndexError> =>
    Effect.try({
      try: () => {
        const current = readSpaceHeader(db)
        return current !== undefined && sameSpace(current, space)
          ? body()
          : unavailable(`the vector model changed from ${space.modelId}@${space.version} since this layer was built`)
      },
      catch: unavailable
    }).pipe(Effect.flatMap((result) => (result instanceof VectorIndexError ? Effect.fail(result) : Effect.succeed(result))))
  const vectorsOf = (ids: ReadonlyArray<ChunkId>) =>
    guard(() => {
      const rows = db.prepare(
        `SELECT c.id AS id, v.embedding AS embedding FROM chunks c JOIN ${VECTOR_TABLE} v ON v.rowid = c.row WHERE c.id IN (SELECT value FROM json_each(?))`
      ).all(JSON.stringify(ids)) as unknown as Array<{ id: ChunkId; embedding: Uint8Array }>
      const found = new Map(rows.map((row) => [row.id, Array.from(fromBlob(row.embedding))] as const))
      // In the order asked, as the reference answers.
      return new Map(ids.flatMap((id) => {
        const vector = found.get(id)
        return vector === undefined ? [] : [[id, vector] as const]
      }))
    })
  return VectorIndex.of({
    dimension: space.dimension,
    nearest: (vector, limit, filter) => guard(() => search(vector, limit, filter)),
    vectorsOf
  })
})

export const make = makeWith({})

export const layerWith = (options: Options): Layer.Layer<VectorIndex, VectorIndexError, Database> => Layer.effect(VectorIndex, makeWith(options))

export const layer: Layer.Layer<VectorIndex, VectorIndexError, Database> = layerWith({})
