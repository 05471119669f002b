/**
 * The recall pipeline: a question in, a ContextPack out. The clock is read once, at the boundary
 * (`now`). The legs (BM25, dense, title/path) run concurrently under the soft deadline; then fusion,
 * graph expansion and rerank (each also under the deadline), materialisation (never under it: an id
 * is not a claim), score adjustment and the packer. A leg that fails or runs out of time degrades
 * the pack with a `leg_failed` gap naming it and never loses what the other legs found; so does an
 * index whose health says it cannot serve the dense leg on this platform.
 */
import { Clock, Duration, Effect, Option } from "effect"
import * as Candidate from "../src/domain/Candidate.ts"
import type { ChunkId } from "../src/domain/Chunk.ts"
import type { ContextPack, Diagnostics, LegStatus } from "../src/domain/ContextPack.ts"
import type { Gap } from "../src/domain/Gap.ts"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import { decodeQuery, type Query } from "../src/domain/Query.ts"
import { CandidateStore, type CandidateStoreError } from "../src/ports/CandidateStore.ts"
import { consistently } from "../src/ports/ConsistentRead.ts"
import { IndexHealth, type IndexHealthReading } from "../src/ports/IndexHealth.ts"
import { LexicalIndex } from "../src/ports/LexicalIndex.ts"
import { compile, type RetrievalFilter } from "../src/ports/RetrievalFilter.ts"
import { VectorIndex } from "../src/ports/VectorIndex.ts"
import { RetrievalConfig } from "../src/RetrievalConfig.ts"
import { ScoreAdjustment } from "../src/retrieval/adjust.ts"
import { type Answerability, answerability } from "../src/retrieval/answerability.ts"
import { canonicalityOf } from "../src/retrieval/canonicality.ts"
import { FUNCTION_WORDS, termFrequency } from "../src/retrieval/carrying.ts"
import { GraphExpansion } from "../src/retrieval/expand.ts"
import { Fusion } from "../src/retrieval/fuse.ts"
import { IntentClassifier } from "../src/retrieval/intent.ts"
import { Packer } from "../src/retrieval/pack.ts"
import { ConflictDetector } from "../src/retrieval/conflicts.ts"
import { Dedup } from "../src/retrieval/dedup.ts"
import { Diversity } from "../src/retrieval/diversity.ts"
import { GapDetector } from "../src/retrieval/gaps.ts"
import { FREQUENCY_CAP } from "../src/retrieval/reduce.ts"
import { RerankStage } from "../src/retrieval/rerank.ts"
import { namedTerms } from "../src/retrieval/terms.ts"
import { type TitlePathChannel } from "../src/retrieval/titlePath.ts"
import { analysedStopwords } from "../src/text/Stopwords.ts"
import { neverSilent } from "./boundary.ts"
import { detailOf, underDeadline, valueOr } from "./deadline.ts"
import { firstPass, legGap } from "./legs.ts"
import { reduceQuestion } from "./question.ts"
import { checkedReading } from "./staleness.ts"

/** Everything recall needs; the optional ports (Embedder, VectorIndex, Reranker, NoteSignals) are read if present. */
export type RecallServices =
  | LexicalIndex
  | CandidateStore
  | IndexHealth
  | IntentClassifier
  | Fusion
  | TitlePathChannel
  | GraphExpansion
  | RerankStage
  | ScoreAdjustment
  | Dedup
  | Diversity
  | ConflictDetector
  | GapDetector
  | Packer

export type RecallError = InvalidInput | CandidateStoreError

const describeFilters = (query: Query): string =>
  [
    query.filters.types === undefined ? undefined : `types: ${query.filters.types.join(", ")}`,
    query.filters.since === undefined ? undefined : `since: ${query.filters.since}`,
    query.filters.paths === undefined ? undefined : `paths: ${query.filters.paths.join(", ")}`
  ].filter((part) => part !== undefined).join("; ")

/** Measure a stage when `explain` asks for timings; otherwise run it untouched. */
const timedStage = <A, E, R>(
  timings: Record<string, number> | undefined,
  name: string,
  stage: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  (timings === undefined ? stage : Effect.timed(stage).pipe(
    Effect.map(([duration, value]) => {
      timings[name] = Math.round(Duration.toMillis(duration) * 1000) / 1000
      return value
    })
  )).pipe(Effect.withSpan(`recall.${name}`))

/** A pack with what produced it, for the bench runner: the list the packer was handed and stage timings. */
export interface RecallTrace {
  readonly pack: ContextPack
  /** The candidates handed to the packer, in rank order. */
  readonly candidates: ReadonlyArray<Candidate.Candidate>
  /** Per-stage milliseconds, measured whenever `measure` is set (independently of `explain`). */
  readonly timingsMs: Readonly<Record<string, number>>
  /** How well the retrieved passages answer the question (answerability.ts), recorded by the bench. */
  readonly answerability: Answerability
}

export const recall = Effect.fn("recall")(function*(input: unknown): Effect.fn.Return<ContextPack, RecallError, RecallServices> {
  return (yield* recallTrace(input, { measure: false })).pack
})

export const recallTrace = Effect.fn("recallTrace")(function*(
  input: unknown,
  options: { readonly measure: boolean }
): Effect.fn.Return<RecallTrace, RecallError, RecallServices> {
  const query = yield* decodeQuery(input)
  // The one clock read: every age below is measured against it.
  const now = yield* Clock.currentTimeMillis
  const config = yield* RetrievalConfig
  const timings: Record<string, number> | undefined = query.explain || options.measure ? {} : undefined
  // The caller's filters are the legs' filter: one type, nothing copied or renamed.
  const filter: RetrievalFilter = query.filters

  const intentClassifier = yield* IntentClassifier
  const fusion = yield* Fusion
  const expansion = yield* GraphExpansion
  const rerankStage = yield* RerankStage
  const adjustment = yield* ScoreAdjustment
  const gapDetector = yield* GapDetector
  const dedupStage = yield* Dedup
  const diversity = yield* Diversity
  const conflictDetector = yield* ConflictDetector
  const packer = yield* Packer
  const lexical = yield* LexicalIndex
  const store = yield* CandidateStore
  const health = yield* IndexHealth
  const vectors = yield* Effect.serviceOption(VectorIndex)

  const reading = yield* checkedReading(health, now).pipe(
    Effect.map((r) => ({ reading: r, failed: false })),
    Effect.catch(() => Effect.succeed<{ readonly reading: IndexHealthReading; readonly failed: boolean }>({ reading: { embeddingCoverage: 0, lagSeconds: 0 }, failed: true }))
  )

  // A long question is reduced to its rarest terms before anything analyses it; `text` is what
  // every stage reads, and the pack still echoes the question (clamped) as asked.
  const stopwords = analysedStopwords(config.gapStopwords)
  const question = yield* reduceQuestion(query.text, stopwords)
  const text = question.reduction.text
  const intent = yield* timedStage(timings, "intent", Effect.sync(() => intentClassifier.classify(text)))

  const legs = yield* timedStage(timings, "legs", firstPass(text, filter, { ...config, stopwords }, reading.reading))

  const fused = yield* timedStage(timings, "fuse", Effect.sync(() => fusion.fuse(
    legs.flatMap((leg) => (leg.list === undefined ? [] : [leg.list])),
    config
  )))

  // Materialisation is not under the deadline, and the filter is applied again in memory so no leg
  // that filters loosely can leak a chunk the caller excluded.
  const passes = compile(filter)
  const chunks = yield* timedStage(timings, "materialise", store.get(fused.map((entry) => entry.id)))
  const seeds = chunks.flatMap((chunk, i) =>
    passes(chunk) ? [Candidate.make(chunk, fused[i]!.rrf, fused[i]!.ranks)] : []
  )

  const graphResult = yield* timedStage(timings, "graph", underDeadline(expansion.expand(seeds, filter, config), config.softTimeoutMs))
  const graphStatus: LegStatus = graphResult.status === "done" ? "ok" : graphResult.status
  const expanded = valueOr(graphResult, { candidates: seeds, edges: [] })

  const corpusSize = yield* store.size
  const rerankResult = yield* timedStage(timings, "rerank", underDeadline(rerankStage.rerank(text, expanded.candidates, {
    rerankMinCorpus: config.rerankMinCorpus,
    rerankCandidateLimit: config.rerankCandidateLimit,
    corpusSize
  }), config.softTimeoutMs))
  // An abstaining reranker is reported exactly as a skipped one: the pack must not tell them apart.
  const rerankStatus: LegStatus = rerankResult.status !== "done" ? rerankResult.status : rerankResult.value.outcome === "scored" ? "ok" : "skipped"
  const reranked = rerankResult.status === "done" ? rerankResult.value.candidates : expanded.candidates

  const chunkCounts = yield* store.chunkCounts([...new Set(reranked.map((c) => c.chunk.noteId))])
  // Optional and off by default: a map lookup when asked for, and absent signals (or a failure) are
  // no opinion, never an error.
  const canonicality = config.canonicalityFloor < 1 ? yield* canonicalityOf(reranked.map((c) => c.chunk.noteId)) : undefined
  const adjusted = yield* timedStage(timings, "adjust", Effect.sync(() =>
    adjustment.adjust(reranked, { query: text, intent, now, edges: expanded.edges, chunkCounts, canonicality, config })
  ))

  // Stage 8: near-duplicates collapse (by stored vectors where both have them, else by words); the
  // members stay visible to the conflict detector, so a clash one of them hides is still reported.
  const vectorMap = Option.isSome(vectors)
    ? yield* vectors.value.vectorsOf(adjusted.map((c) => c.chunk.id)).pipe(Effect.catch(() => Effect.succeed(new Map())))
    : new Map()
  const deduped = yield* timedStage(timings, "dedup", Effect.sync(() => dedupStage.dedup(adjusted, vectorMap, config)))
  const conflicts = yield* timedStage(timings, "conflicts", Effect.sync(() => conflictDetector.detect({
    candidates: [...deduped.survivors, ...deduped.collapsed.flatMap((cluster) => cluster.members)],
    edges: expanded.edges,
    config
  })))

  // When the caller's filters left nothing, ask once without them: were there matches to remove?
  const hasFilters = query.filters.types !== undefined || query.filters.since !== undefined || query.filters.paths !== undefined
  const filteredOut = hasFilters && adjusted.length === 0
    ? valueOr(yield* underDeadline(Effect.map(lexical.search(text, config.lexicalLimit, {}), (hits) => hits.length), config.softTimeoutMs), 0)
    : 0

  const stages = [
    ...legs.map((leg) => ({ name: leg.name, status: leg.status, hits: leg.list?.ids.length ?? 0, detail: leg.detail })),
    { name: "graph", status: graphStatus, hits: expanded.candidates.length - seeds.length, detail: detailOf(graphResult) },
    { name: "rerank", status: rerankStatus, hits: rerankStatus === "ok" ? reranked.length : 0, detail: detailOf(rerankResult) }
  ]
  const gaps: Array<Gap> = stages.filter((s) => s.status === "failed" || s.status === "timed_out").map(legGap)
  if (question.gap !== undefined) gaps.push(question.gap)
  if (reading.failed) gaps.push({ reason: "index_incomplete", text: "The index could not report its health; its coverage and freshness are unknown." })
  // How common each named word is in the whole index, so a gap is reported only for a word that
  // carries the question; an index that cannot count leaves every word eligible.
  const named = namedTerms(text, config)
  const namedWords = [...new Set(named.flatMap((term) => term.display.split(" ")))]
  const counted = namedWords.length === 0
    ? []
    : valueOr(yield* underDeadline(lexical.documentFrequencies(namedWords, FREQUENCY_CAP), config.softTimeoutMs), undefined)
  const wordFrequencies = counted === undefined ? undefined : new Map(namedWords.map((word, i) => [word, counted[i] ?? 0]))
  const weighed = named.filter((term) => !FUNCTION_WORDS.has(term.display))
  const answerable = answerability({
    terms: weighed,
    termFrequencies: weighed.map((term) => termFrequency(term, wordFrequencies)),
    corpusSize,
    candidates: deduped.survivors,
    depth: config.gapAnswerabilityDepth
  })
  gaps.push(...(yield* timedStage(timings, "gaps", Effect.sync(() => gapDetector.detect({
    query: text,
    intent,
    candidates: deduped.survivors,
    found: reranked,
    filteredOut,
    filterSummary: describeFilters(query),
    indexHealth: reading.reading,
    now,
    config,
    wordFrequencies,
    answerability: answerable
  })))))

  const diagnostics: Diagnostics = {
    legs: stages.map(({ name, status, hits }) => ({ name, status, hits })),
    ...(adjusted.length > 0 && adjusted.every((c) => c.chunk.provenance.createdAt === null) ? { agesUnknown: true } : {}),
    // A copy: the pack measures its own bytes, so nothing may change inside it afterwards.
    ...(timings === undefined || !query.explain ? {} : { timingsMs: { ...timings } })
  }
  const packed = yield* timedStage(timings, "pack", packer.pack({
    query,
    candidates: deduped.survivors,
    order: (ranked) => diversity.diversify(ranked, config),
    publishOrder: (packed) => diversity.diversify(packed, { diversityCapPerNote: config.publishCapPerNote }),
    conflicts,
    gaps,
    indexHealth: reading.reading,
    diagnostics
  }))
  // A leg that failed makes the pack partial even when every claim fitted.
  const pack = gaps.some((gap) => gap.reason === "leg_failed") ? { ...packed, partial: true } : packed
  return { pack: yield* neverSilent(Effect.succeed(pack)), candidates: deduped.survivors, timingsMs: { ...timings }, answerability: answerable }
  // Every read of the question from one commit: a rebuild landing meanwhile is not seen half way.
}, consistently)
