/**
 * Stage 7, score adjustment: the factors that say how much a relevant passage is worth to this
 * question, each bounded, each recorded as a component so `score = base × every component` still
 * holds, then a re-sort and the cut to `rerankLimit`.
 *
 * - typeWeight: stage 1's weight for the note type, damped: `1 + typeWeightStrength × (w - 1)`, times
 *   `testFileWeight` for a test, fixture or benchmark file when the question is not about tests.
 * - noteSupport: `supportFloor + (1 - floor) × (this note's candidates / its chunk count)`; the whole
 *   list falls back to the count form (over the best-supported note) when any count is missing.
 * - termCoverage / noteCoverage: the query's named terms (terms.ts) found in this passage, and in
 *   any candidate of its note, each mapped onto `[floor, 1]`.
 * - linkConsensus: other notes in the list that link here, capped: it discounts isolation and never
 *   rewards popularity.
 * - freshness: `floor + (1 - floor) × exp(-age / halfLife)`, the half-life per note type and
 *   shortened by the query's recency bias; age is the age of the words (`provenance.createdAt`),
 *   unknown ages decay nothing.
 * - verification and authorKind: lookup tables.
 * - canonicality: `canonicalityFloor + (1 - floor) × canonicality(note)` from the optional NoteSignals
 *   port (a note it does not know counts 0); 1 when no signals were read, and the floor's default of
 *   1 keeps it off.
 * A graph-admitted neighbour borrows its seed's relevance, so each of its factors is capped at its
 * seed's: borrowing can never buy more than the seed had, and a neighbour never outranks its seed.
 */
import { Context, Layer } from "effect"
import * as Candidate from "../domain/Candidate.ts"
import type { NoteType } from "../domain/Chunk.ts"
import { instantMillis } from "../domain/Instant.ts"
import { byScoreThen, sortCandidates } from "../domain/Ranking.ts"
import { FACTORS, type ScoreComponents } from "../domain/ScoreComponents.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import type { Intent } from "./intent.ts"
import { NEVER_FOLLOWED } from "./expand.ts"
import { testFileWeigher } from "./adjust/testFiles.ts"
import { coveredTerms, namedTerms, passageStems, type Term } from "./terms.ts"

const DAY_MS = 86_400_000
/** The smallest positive freshness, so a decayed claim stays in (0, 1] (exp underflows past ~10^4 days). */
const MIN_DECAY = 2.2e-308

/** What stage 7 may read besides the candidates; all of it already fetched by earlier stages. */
export interface AdjustContext {
  readonly query: string
  readonly intent: Intent
  /** The pipeline's one clock read, epoch milliseconds. */
  readonly now: number
  /** Edges stage 5 fetched. */
  readonly edges: ReadonlyArray<NoteEdge>
  /** Chunk count of each candidate's note. */
  readonly chunkCounts: ReadonlyMap<string, number>
  /** Canonicality of the candidates' notes in [0, 1], when NoteSignals was provided and answered. */
  readonly canonicality?: ReadonlyMap<string, number> | undefined
  readonly config: RetrievalConfigShape
}

/** Age of the words in days at `now`, or undefined when unknown (or in the future). */
export const ageInDays = (createdAt: string | null, now: number): number | undefined => {
  if (createdAt === null) return undefined
  const at = instantMillis(createdAt)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, (now - at) / DAY_MS)
}

/** The half-life after the query's recency bias, in days; never zero or negative. */
export const effectiveHalfLife = (type: NoteType, recencyBias: number, config: RetrievalConfigShape): number =>
  config.halfLifeDays[type] / Math.max(0.05, 1 + recencyBias * config.recencyBiasStrength)

/** The unfloored decay `exp(-age / halfLife)` in (0, 1]; 1 when the age is unknown. */
export const decay = (ageDays: number | undefined, type: NoteType, recencyBias: number, config: RetrievalConfigShape): number =>
  ageDays === undefined ? 1 : Math.max(MIN_DECAY, Math.exp(-ageDays / effectiveHalfLife(type, recencyBias, config)))

const floored = (floor: number, share: number): number => floor + (1 - floor) * Math.min(1, Math.max(0, share))

/** The factors stage 7 owns: every factor but the graph's, which stage 5 set. */
const STAGE_SEVEN_FACTORS = FACTORS.filter((factor) => factor !== "relationWeight" && factor !== "hopPenalty")

/** Compute every stage-7 factor; pure, exported for tests and for the gap detector's shared view. */
export const adjust = (candidates: ReadonlyArray<Candidate.Candidate>, context: AdjustContext): Array<Candidate.Candidate> => {
  const { canonicality, config, intent, now } = context
  const terms = namedTerms(context.query, config)

  // Per-note facts of the list.
  const listedNotes = new Set(candidates.map((c) => c.chunk.noteId))
  const perNote = new Map<string, number>()
  for (const c of candidates) perNote.set(c.chunk.noteId, (perNote.get(c.chunk.noteId) ?? 0) + 1)
  const countsComplete = candidates.every((c) => context.chunkCounts.has(c.chunk.noteId))
  const bestSupported = Math.max(1, ...perNote.values())

  const covered = candidates.map((c) => coveredTerms(passageStems(c.chunk), terms))
  const noteCovered = new Map<string, Set<number>>()
  candidates.forEach((c, i) => {
    let set = noteCovered.get(c.chunk.noteId)
    if (set === undefined) noteCovered.set(c.chunk.noteId, (set = new Set()))
    for (const t of covered[i]!) set.add(t)
  })

  const citedBy = new Map<string, Set<string>>()
  for (const edge of context.edges) {
    if (edge.from === edge.to || edge.verb === NEVER_FOLLOWED) continue
    if (!listedNotes.has(edge.from) || !listedNotes.has(edge.to)) continue
    let set = citedBy.get(edge.to)
    if (set === undefined) citedBy.set(edge.to, (set = new Set()))
    set.add(edge.from)
  }
  const consensusCap = Number.isFinite(config.linkConsensusCap) && config.linkConsensusCap >= 1 ? config.linkConsensusCap : undefined

  const testWeight = testFileWeigher(context.query, config.testFileWeight)
  const own = candidates.map((c, i): ScoreComponents => {
    const chunk = c.chunk
    const notes = perNote.get(chunk.noteId) ?? 1
    const support = countsComplete
      ? notes / Math.max(1, context.chunkCounts.get(chunk.noteId) ?? 1)
      : notes / bestSupported
    const coverage = terms.length === 0 ? 1 : covered[i]!.size / terms.length
    const noteCoverage = terms.length === 0 ? 1 : noteCovered.get(chunk.noteId)!.size / terms.length
    const citations = citedBy.get(chunk.noteId)?.size ?? 0
    const age = ageInDays(chunk.provenance.createdAt, now)
    return {
      ...c.components,
      typeWeight: (1 + config.typeWeightStrength * (intent.typeWeights[chunk.noteType] - 1)) * testWeight(chunk.path),
      noteSupport: floored(config.supportFloor, support),
      termCoverage: floored(config.coverageFloor, coverage),
      noteCoverage: floored(config.noteCoverageFloor, noteCoverage),
      linkConsensus: consensusCap === undefined ? 1 : floored(config.linkConsensusFloor, Math.min(citations, consensusCap) / consensusCap),
      freshness: floored(config.freshnessFloor, decay(age, chunk.noteType, intent.recencyBias, config)),
      verification: config.verificationWeights[chunk.provenance.state],
      authorKind: config.authorKindWeights[chunk.provenance.authorKind],
      canonicality: canonicality === undefined ? 1 : floored(config.canonicalityFloor, canonicality.get(chunk.noteId) ?? 0)
    }
  })

  // A neighbour's factors are capped at its seed's: the best direct hit of the note it came from.
  const seedOf = new Map<string, number>()
  candidates.forEach((c, i) => {
    if (c.graph !== null) return
    const best = seedOf.get(c.chunk.noteId)
    if (best === undefined || compareSeeds(candidates[i]!, candidates[best]!) < 0) seedOf.set(c.chunk.noteId, i)
  })
  const adjusted = candidates.map((c, i) => {
    let components = own[i]!
    const seedIndex = c.graph === null ? undefined : seedOf.get(c.graph.from)
    if (seedIndex !== undefined) {
      const seed = own[seedIndex]!
      const capped = { ...components }
      for (const factor of STAGE_SEVEN_FACTORS) capped[factor] = Math.min(components[factor], seed[factor])
      components = capped
    }
    return Candidate.withComponents(c, components)
  })
  return sortCandidates(adjusted).slice(0, Math.max(0, config.rerankLimit))
}

const compareSeeds = byScoreThen((c: Candidate.Candidate) => c.chunk.id)

export class ScoreAdjustment extends Context.Service<ScoreAdjustment, {
  /** The adjusted candidates in rank order, at most `rerankLimit`; every score still its components' product. */
  readonly adjust: (candidates: ReadonlyArray<Candidate.Candidate>, context: AdjustContext) => ReadonlyArray<Candidate.Candidate>
}>()("cairn/retrieval/ScoreAdjustment") {}

/** The shipped stage 7. */
export const layer: Layer.Layer<ScoreAdjustment> = Layer.succeed(ScoreAdjustment, { adjust })

/** Relevance only: rank by the base (times the graph factor) and cut. The control for ablations. */
export const relevanceOnly = (candidates: ReadonlyArray<Candidate.Candidate>, context: AdjustContext): Array<Candidate.Candidate> =>
  sortCandidates(candidates).slice(0, Math.max(0, context.config.rerankLimit))

export const layerRelevanceOnly: Layer.Layer<ScoreAdjustment> = Layer.succeed(ScoreAdjustment, { adjust: relevanceOnly })
