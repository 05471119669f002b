/**
 * VectorIndex over `cairn_vectors`. Where the column is pgvector's `vector`, the server ranks
 * candidates by its cosine distance with the retrieval filter in its query (exactly, or through
 * the repository's HNSW index once it is large enough: PgHnsw.ts), and each is
 * rescored here as the SQLite layer rescores (float64 cosine of the stored float32 components),
 * filtered again and ordered by score then id; a cut is accepted only when no row it left out
 * could beat the k-th exact score, otherwise every row within reach of it is read. Over `real[]`
 * the vectors are scanned in memory (ResidentVectorsPg), or, above what memory should hold, by
 * the server's `cairn_cosine`, slowly.
 */
import { Context, Deferred, Effect, Layer } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { byScoreThenId } from "../../src/domain/Ranking.ts"
import type { RetrievalFilter } from "../../src/ports/RetrievalFilter.ts"
import { compile } from "../../src/ports/RetrievalFilter.ts"
import { VectorIndex, VectorIndexError, type VectorHit } from "../../src/ports/VectorIndex.ts"
import { chunkClause, numberArray, Params, textArray } from "./PgFilter.ts"
import * as PgHnsw from "./PgHnsw.ts"
import { PgIndex } from "./PgIndex.ts"
import { toChunk } from "./PgRows.ts"
import * as ResidentVectors from "./ResidentVectorsPg.ts"
import { TopK } from "../../src/domain/TopK.ts"
import { abandonable } from "./Reconnecting.ts"

/** Rows fetched beyond `limit`, so rounding at the cut rarely needs a second query. */
const MARGIN = 16

const unavailable = (error: unknown) =>
  error instanceof VectorIndexError ? error : new VectorIndexError({ reason: "unavailable", detail: error instanceof Error ? error.message : String(error) })

/** A stored vector as the server prints it (`{…}` or `[…]`), as its float32 components. */
export const parseVector = (text: string): Float32Array => {
  const inner = text.slice(1, -1)
  if (inner === "") return new Float32Array(0)
  const parts = inner.split(",")
  const out = new Float32Array(parts.length)
  for (let i = 0; i < parts.length; i++) out[i] = Number(parts[i])
  return out
}

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

/** Cosine in float64 with the SQLite layer's order of operations, clamped to [-1, 1]. */
const cosine = (query: ReadonlyArray<number>, norm: number, stored: Float32Array): number => {
  let dot = 0
  let sum = 0
  for (let j = 0; j < stored.length; j++) {
    const x = stored[j]!
    dot += query[j]! * x
    sum += x * x
  }
  return Math.min(1, Math.max(-1, dot / (norm * Math.sqrt(sum))))
}

export const make = Effect.gen(function*() {
  const { sql, repository, vectors } = yield* PgIndex
  const guard = abandonable(sql)
  const readSpace = sql.unsafe<{ model_id: string; version: string; dimension: number }>(
    "SELECT model_id, version, dimension FROM cairn_spaces WHERE repository = $1", [repository]
  ).pipe(Effect.map((rows) => rows[0]), Effect.mapError(unavailable))
  const space = yield* readSpace
  if (space === undefined) return yield* new VectorIndexError({ reason: "unavailable", detail: "the index holds no vectors" })
  const dimension = Number(space.dimension)
  // Another writer may re-embed the repository with another model under a live layer (a shared
  // server's readers live long); a query then fails rather than compare vectors of two models.
  const sameSpace = Effect.flatMap(readSpace, (current) =>
    current !== undefined && current.model_id === space.model_id && current.version === space.version && Number(current.dimension) === dimension
      ? Effect.void
      : Effect.fail(new VectorIndexError({ reason: "unavailable", detail: `the vector model changed from ${space.model_id}@${space.version} since this layer was built` })))
  // How far the server's ranking may stray from the exact cosine: pgvector ranks in float32.
  const tolerance = vectors === "pgvector" ? 4 * dimension * 2 ** -24 + 1e-7 : 1e-12

  const candidates = (vector: ReadonlyArray<number>, filter: RetrievalFilter, limit: number | undefined, floor: number | undefined) => {
    const params = new Params()
    params.add(repository)
    const from = "FROM cairn_vectors v JOIN cairn_chunks c ON c.repository = v.repository AND c.id = v.chunk_id"
    if (vectors === "pgvector") {
      // In the form of the repository's HNSW index (PgHnsw.ts), if it has one, so that a cut is
      // read through it; the repository and the cut as literals, which a generic plan can match.
      const distance = PgHnsw.distance("v.embedding", params.add(`[${numberArray(vector).slice(1, -1)}]`), dimension)
      const where = chunkClause(filter, "c", params)
      const above = floor === undefined ? "" : ` AND 1 - ${distance} >= ${params.add(floor)}::float8`
      const cut = limit === undefined ? "" : ` ORDER BY ${distance} LIMIT ${Math.floor(limit)}`
      const query = sql.unsafe<{ id: string; embedding: string; similarity: number; body: string }>(
        `SELECT v.chunk_id AS id, v.embedding::text AS embedding, 1 - ${distance} AS similarity, c.body ${from} ` +
          `WHERE v.repository = $1 AND ${PgHnsw.predicate("v.", repository, dimension)} AND ${where}${above}${cut}`,
        params.values
      )
      if (limit === undefined) return query
      // The index's settings need a transaction of their own; a repository without one needs neither.
      return Effect.flatMap(PgHnsw.present(sql, repository), (index) =>
        index === undefined ? query : sql.withTransaction(Effect.andThen(PgHnsw.searchSettings(sql), query)))
    }
    const similarity = `cairn_cosine(v.embedding, ${params.add(numberArray(vector))}::float8[])`
    const where = chunkClause(filter, "c", params)
    const above = floor === undefined ? "" : ` WHERE s.similarity >= ${params.add(floor)}::float8`
    const cut = limit === undefined ? "" : ` LIMIT ${params.add(limit)}`
    return sql.unsafe<{ id: string; embedding: string; similarity: number; body: string }>(
      `SELECT * FROM (SELECT v.chunk_id AS id, v.embedding::text AS embedding, ${similarity} AS similarity, c.body ` +
        `${from} WHERE v.repository = $1 AND ${where}) s${above} ORDER BY s.similarity DESC, s.id${cut}`,
      params.values
    )
  }

  // Without pgvector the vectors are scanned in memory (ResidentVectorsPg), read once per
  // generation. The read can outlast a question's deadline (a second or two at 100,000 chunks), so
  // it runs on a connection of its own, beyond the question that started it; a question whose
  // generation it does not hold yet waits for it, or, past its deadline, leaves it to the next.
  let held: ResidentVectors.Resident | undefined
  let loading: { readonly generation: number; readonly done: Deferred.Deferred<ResidentVectors.Resident | undefined, unknown> } | undefined
  const loadLatest = Effect.gen(function*() {
    const [counted] = yield* sql.unsafe<{ generation: number; n: number }>(
      "SELECT generation, embedded_count AS n FROM cairn_manifest WHERE repository = $1", [repository]
    )
    if (Number(counted?.n ?? 0) * dimension > ResidentVectors.MAX_FLOATS) return undefined
    return yield* ResidentVectors.load(sql, repository, Number(counted?.generation ?? 0), dimension)
  }).pipe(
    // One snapshot for the generation and the rows.
    (read) => sql.withTransaction(Effect.andThen(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`, read)),
    (read) => Effect.updateContext(read, (context: Context.Context<never>) => Context.omit(sql.transactionService)(context) as Context.Context<never>)
  )
  const resident = Effect.gen(function*() {
    const [row] = yield* sql.unsafe<{ generation: number }>("SELECT generation FROM cairn_manifest WHERE repository = $1", [repository])
    const generation = Number(row?.generation ?? 0)
    if (held !== undefined && held.generation === generation) return held
    if (loading === undefined || loading.generation < generation) {
      const done = yield* Deferred.make<ResidentVectors.Resident | undefined, unknown>()
      loading = { generation, done }
      yield* Effect.forkDetach(loadLatest.pipe(
        Effect.tap((loaded) => Effect.sync(() => {
          if (loaded !== undefined && (held === undefined || loaded.generation >= held.generation)) held = loaded
        })),
        Effect.exit,
        Effect.flatMap((exit) => {
          // A read that failed is tried again by the next question.
          if (exit._tag === "Failure" && loading?.done === done) loading = undefined
          return Deferred.done(done, exit)
        })
      ))
    }
    // A read that failed, or died with its connection (a ROLLBACK on a closed socket), holds nothing.
    const loaded = yield* Deferred.await(loading.done).pipe(Effect.catchCause(() => Effect.succeed(undefined)))
    // A commit between the question's snapshot and the read's: the question scans on the server.
    return loaded !== undefined && loaded.generation === generation ? loaded : undefined
  })
  const scan = (vector: ReadonlyArray<number>, norm: number, limit: number, filter: RetrievalFilter) =>
    Effect.map(resident, (vectors) => {
      if (vectors === undefined) return undefined
      const passes = ResidentVectors.admits(vectors, filter)
      const count = vectors.ids.length
      const best = new TopK(Math.min(Math.floor(limit), count))
      const stored = vectors.vectors
      for (let row = 0; row < count; row++) {
        if (!passes(row)) continue
        // The rescoring's cosine, inline over the row's slice.
        let dot = 0
        let sum = 0
        const offset = row * dimension
        for (let j = 0; j < dimension; j++) {
          const x = stored[offset + j]!
          dot += vector[j]! * x
          sum += x * x
        }
        const score = Math.min(1, Math.max(-1, dot / (norm * Math.sqrt(sum))))
        if (best.admits(score, row)) best.push(score, row)
      }
      return best.drain().map(({ row, score }): VectorHit => ({ id: vectors.ids[row] as ChunkId, score })).sort(byScoreThenId)
    })

  const nearest = Effect.fn("VectorIndexPg.nearest")(function*(vector: ReadonlyArray<number>, limit: number, filter: RetrievalFilter) {
    yield* sameSpace
    const norm = queryNorm(vector, dimension)
    if (norm instanceof VectorIndexError) return yield* norm
    if (!(limit > 0)) return [] as ReadonlyArray<VectorHit>
    if (vectors === "real[]") {
      const scanned = yield* scan(vector, norm, limit, filter)
      if (scanned !== undefined) return scanned
    }
    const passes = compile(filter)
    const rescore = (rows: ReadonlyArray<{ id: string; embedding: string; body: string }>) =>
      rows.filter((row) => passes(toChunk(row.body)))
        .map((row): VectorHit => ({ id: row.id as ChunkId, score: cosine(vector, norm, parseVector(row.embedding)) }))
        .sort(byScoreThenId)
    const k = Math.floor(limit)
    const wanted = Number.isFinite(k) ? k + MARGIN : undefined
    const rows = yield* candidates(vector, filter, wanted, undefined)
    let hits = rescore(rows)
    if (wanted !== undefined && rows.length === wanted && hits.length >= k) {
      // A row left out ranked at or below the last one fetched; it can beat the k-th only within rounding.
      const kth = hits[k - 1]!.score
      // The least similar row fetched: through an HNSW index the rows need not come in order.
      const last = rows.reduce((least, row) => Math.min(least, Number(row.similarity)), Infinity)
      if (last >= kth - 2 * tolerance) hits = rescore(yield* candidates(vector, filter, undefined, kth - 2 * tolerance))
    }
    return Number.isFinite(k) ? hits.slice(0, k) : hits
  }, Effect.mapError(unavailable), guard)

  return VectorIndex.of({
    dimension,
    nearest,
    vectorsOf: (ids) =>
      Effect.andThen(sameSpace, sql.unsafe<{ id: string; embedding: string }>(
        "SELECT chunk_id AS id, embedding::text AS embedding FROM cairn_vectors WHERE repository = $1 AND chunk_id = ANY($2::text[])",
        [repository, textArray(ids)]
      ).pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.id as ChunkId, Array.from(parseVector(row.embedding))] as const))),
        Effect.mapError(unavailable)
      ))
  })
})

export const layer: Layer.Layer<VectorIndex, VectorIndexError, PgIndex> = Layer.effect(VectorIndex, make)
