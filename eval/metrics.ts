/**
 * The eval's metrics, each a pure function of what one run observed. Ranking metrics score positive
 * questions only; a negative question is scored by the negative-set rates, never as a zero in a
 * ranking average, because refusing correctly must not drag the aggregate down.
 *
 * Two definitions every report restates: `median` averages the two middle values, `p50` is
 * nearest-rank and returns an observed value; they differ on an even count.
 */
import type { GapReason } from "../src/domain/Gap.ts"
import { kindOf, type Question } from "./Question.ts"

export interface ObservedClaim {
  readonly note: string
  readonly ref: string
  readonly text: string
  readonly heading: string | null
}

/** What one question's run produced. */
export interface Observation {
  readonly question: Question
  readonly claims: ReadonlyArray<ObservedClaim>
  readonly gaps: ReadonlyArray<{ readonly reason: GapReason; readonly text: string }>
  readonly conflicts: ReadonlyArray<{ readonly topic: string; readonly refs: ReadonlyArray<string> }>
  readonly usedTokens: number
  readonly budgetTokens: number
  /** Notes of every candidate the packer was handed, in rank order: the oracle's material. */
  readonly candidateNotes: ReadonlyArray<string>
  readonly latencyMs: number
  readonly stageMs: Readonly<Record<string, number>>
  /** Set when the run threw instead of answering. */
  readonly error?: string
}

/** Gap reasons that say something about the knowledge, as opposed to notices about the response. */
export const KNOWLEDGE_GAPS: ReadonlySet<GapReason> = new Set(["no_results", "low_confidence", "implied_type"])

export const statesKnowledgeGap = (o: Observation): boolean => o.gaps.some((gap) => KNOWLEDGE_GAPS.has(gap.reason))

const mean = (values: ReadonlyArray<number>): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length)

/** Backticks stripped, whitespace flattened, case folded: how needles and claims are compared. */
export const normaliseForMatching = (text: string): string => text.replace(/`/gu, "").replace(/\s+/gu, " ").trim().toLowerCase()

const relevantSet = (q: Question) => new Set(q.relevant)

export const hitAt = (o: Observation, k: number): number => {
  const relevant = relevantSet(o.question)
  return o.claims.slice(0, k).some((c) => relevant.has(c.note)) ? 1 : 0
}

/** Claim reading: of the first k slots, the share holding a claim from a relevant note. */
export const precisionAt = (o: Observation, k: number): number => {
  const relevant = relevantSet(o.question)
  return o.claims.slice(0, k).filter((c) => relevant.has(c.note)).length / k
}

/** Note-distinct reading: of the first k distinct notes in claim order, the share that are relevant. */
export const distinctPrecisionAt = (o: Observation, k: number): number => {
  const relevant = relevantSet(o.question)
  return distinctNotes(o.claims).slice(0, k).filter((n) => relevant.has(n)).length / k
}

/** A heading compared as text: no leading hashes, no inline-code or emphasis marks, folded. */
const headingOf = (block: string): string => block.replace(/^#+\s*/u, "").replace(/[`*_]/gu, "").replace(/\s+/gu, " ").trim().toLowerCase()

/**
 * Block reading: of the first k slots, the share holding the very section the question names
 * (`primaryBlock` of `primary`). Undefined for questions that name no block.
 */
export const blockPrecisionAt = (o: Observation, k: number): number | undefined => {
  const { primary, primaryBlock } = o.question
  if (primary === undefined || primary === null || primaryBlock === undefined) return undefined
  const heading = headingOf(primaryBlock)
  return o.claims.slice(0, k).filter((c) =>
    c.note === primary && headingOf(c.heading ?? "") === heading
  ).length / k
}

const distinctNotes = (claims: ReadonlyArray<ObservedClaim>): Array<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const c of claims) if (!seen.has(c.note)) (seen.add(c.note), out.push(c.note))
  return out
}

/** Of the relevant notes, the share that arrived among the first k claims. */
export const recallAt = (o: Observation, k: number): number => {
  const relevant = relevantSet(o.question)
  if (relevant.size === 0) return 0
  return new Set(o.claims.slice(0, k).map((c) => c.note).filter((n) => relevant.has(n))).size / relevant.size
}

/** The best recall@k any ordering could reach: `min(k, R) / R`. */
export const recallCeilingAt = (o: Observation, k: number): number => {
  const r = o.question.relevant.length
  return r === 0 ? 0 : Math.min(k, r) / r
}

export const reciprocalRank = (o: Observation): number => {
  const relevant = relevantSet(o.question)
  const index = o.claims.findIndex((c) => relevant.has(c.note))
  return index === -1 ? 0 : 1 / (index + 1)
}

/** nDCG@k over distinct notes in claim order: a relevant note gains 2, a `nearest` note 1. */
export const ndcgAt = (o: Observation, k: number): number => {
  const relevant = relevantSet(o.question)
  const nearest = new Set(o.question.nearest ?? [])
  const grade = (note: string) => (relevant.has(note) ? 2 : nearest.has(note) ? 1 : 0)
  const dcg = (grades: ReadonlyArray<number>) => grades.slice(0, k).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0)
  const ideal = [...[...relevant].map(() => 2), ...[...nearest].filter((n) => !relevant.has(n)).map(() => 1)]
  const best = dcg(ideal)
  return best === 0 ? 0 : dcg(distinctNotes(o.claims).map(grade)) / best
}

/** Answer coverage: all of the `mustContain` strings came back (`all`), or at least one (`any`). */
export const answerCoverage = (o: Observation): { readonly all: boolean; readonly any: boolean } | undefined => {
  const needles = o.question.mustContain ?? []
  if (needles.length === 0) return undefined
  const haystack = normaliseForMatching(o.claims.map((c) => c.text).join("\n"))
  const found = needles.map((n) => haystack.includes(normaliseForMatching(n)))
  return { all: found.every(Boolean), any: found.some(Boolean) }
}

export type Verdict = "correct-cited" | "honest-gap" | "uncited" | "unsupported" | "wrong"

/**
 * The retrieval half of CCH: was the answer handed over under a note that says it, or the absence
 * stated honestly? A perfect reader scores exactly this; any real one at or below it. Undefined for
 * a question that declares neither an answer text nor an absence.
 */
export const verdict = (o: Observation): Verdict | undefined => {
  const q = o.question
  const kind = kindOf(q)
  if (kind === "adversarial") return undefined
  if (kind === "negative") {
    const traps = (q.mustNotContain ?? []).map(normaliseForMatching)
    const pack = normaliseForMatching(o.claims.map((c) => c.text).join("\n"))
    if (statesKnowledgeGap(o) && !traps.some((t) => t.length > 0 && pack.includes(t))) return "honest-gap"
    return "wrong"
  }
  const needles = (q.mustContain ?? []).map(normaliseForMatching)
  if (needles.length === 0) return undefined
  const relevant = relevantSet(q)
  const cited = normaliseForMatching(o.claims.filter((c) => relevant.has(c.note)).map((c) => c.text).join("\n"))
  const anywhere = normaliseForMatching(o.claims.map((c) => c.text).join("\n"))
  if (needles.every((n) => cited.includes(n))) {
    // Handing the answer over while saying nothing was found is a false statement.
    return o.gaps.some((g) => g.reason === "no_results" && g.text.startsWith("No claims found for")) ? "wrong" : "correct-cited"
  }
  if (needles.every((n) => anywhere.includes(n))) return "uncited"
  return "unsupported"
}

export interface VerdictSummary {
  readonly cch: number
  readonly judged: number
  readonly unjudged: number
  readonly counts: Readonly<Record<Verdict, number>>
}

export const summariseVerdicts = (observations: ReadonlyArray<Observation>): VerdictSummary => {
  const counts: Record<Verdict, number> = { "correct-cited": 0, "honest-gap": 0, uncited: 0, unsupported: 0, wrong: 0 }
  let unjudged = 0
  for (const o of observations) {
    const v = verdict(o)
    if (v === undefined) unjudged++
    else counts[v]++
  }
  const judged = observations.length - unjudged
  return { cch: judged === 0 ? 0 : (counts["correct-cited"] + counts["honest-gap"]) / judged, judged, unjudged, counts }
}

/** Over negative questions: how often a knowledge gap was stated, and how often claims came with none. */
export const negativeRates = (observations: ReadonlyArray<Observation>) => {
  const negatives = observations.filter((o) => kindOf(o.question) === "negative")
  return {
    count: negatives.length,
    emptyRecall: mean(negatives.map((o) => (statesKnowledgeGap(o) ? 1 : 0))),
    falseConfidence: mean(negatives.map((o) => (o.claims.length > 0 && !statesKnowledgeGap(o) ? 1 : 0)))
  }
}

/**
 * Decoy traps over the fireable denominator: a positive question's `mustNotContain` string that
 * occurs somewhere in the corpus could come back; the rate is how often it did.
 */
export const decoyTraps = (observations: ReadonlyArray<Observation>, corpusText: (needle: string) => boolean) => {
  let fireable = 0
  let fired = 0
  const unfireable: Array<string> = []
  for (const o of observations) {
    if (kindOf(o.question) !== "positive") continue
    const pack = normaliseForMatching(o.claims.map((c) => c.text).join("\n"))
    for (const decoy of o.question.mustNotContain ?? []) {
      if (!corpusText(decoy)) {
        unfireable.push(`${o.question.id}: ${decoy}`)
        continue
      }
      fireable++
      if (pack.includes(normaliseForMatching(decoy))) fired++
    }
  }
  return { fireable, fired, rate: fireable === 0 ? 0 : fired / fireable, unfireable }
}

export interface PlantedConflict {
  readonly id: string
  readonly refs: ReadonlyArray<string>
  readonly resolved: boolean
}

const notesOfRefs = (refs: ReadonlyArray<string>): Set<string> => new Set(refs.map((ref) => ref.replace(/:\d+-\d+#.*$/u, "")))

/**
 * Conflict recall over questions that expect a planted conflict (both sides named in one reported
 * conflict), and precision over every reported conflict (it matches some unresolved planted pair).
 */
export const conflictScores = (observations: ReadonlyArray<Observation>, planted: ReadonlyArray<PlantedConflict>) => {
  const byId = new Map(planted.map((p) => [p.id, p]))
  const matches = (refs: ReadonlyArray<string>, p: PlantedConflict) => {
    const notes = notesOfRefs(refs)
    return p.refs.every((r) => notes.has(r))
  }
  const expecting = observations.filter((o) => o.question.expectConflict !== undefined)
  const recalled = expecting.filter((o) => {
    const p = byId.get(o.question.expectConflict!)
    return p !== undefined && o.conflicts.some((c) => matches(c.refs, p))
  }).length
  const reported = observations.flatMap((o) => o.conflicts)
  const correct = reported.filter((c) => planted.some((p) => !p.resolved && matches(c.refs, p))).length
  return {
    expected: expecting.length,
    recall: expecting.length === 0 ? 0 : recalled / expecting.length,
    reported: reported.length,
    precision: reported.length === 0 ? 0 : correct / reported.length
  }
}

/**
 * Staleness: of the claims returned to positive questions, the share that a newer note contradicts
 * (the older side of a planted conflict whose newer side exists) or that a superseding note retired.
 * What freshness decay is worth is this number, measured, not assumed.
 */
export const staleness = (observations: ReadonlyArray<Observation>, staleNotes: ReadonlySet<string>) => {
  const claims = observations.filter((o) => kindOf(o.question) === "positive").flatMap((o) => o.claims)
  const stale = claims.filter((c) => staleNotes.has(c.note)).length
  return { claims: claims.length, stale, rate: claims.length === 0 ? 0 : stale / claims.length }
}

export const medianOf = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Nearest-rank percentile: always an observed value. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export const tokenDistribution = (observations: ReadonlyArray<Observation>) => {
  const used = observations.map((o) => o.usedTokens)
  return {
    median: medianOf(used),
    p50: percentile(used, 50),
    p95: percentile(used, 95),
    max: used.length === 0 ? 0 : Math.max(...used),
    violations: observations.filter((o) => o.usedTokens > o.budgetTokens).length
  }
}

export const latency = (observations: ReadonlyArray<Observation>) => {
  const stages = new Map<string, Array<number>>()
  for (const o of observations) {
    for (const [stage, ms] of Object.entries(o.stageMs)) {
      let list = stages.get(stage)
      if (list === undefined) stages.set(stage, (list = []))
      list.push(ms)
    }
  }
  const total = observations.map((o) => o.latencyMs)
  return {
    total: { p50: percentile(total, 50), p95: percentile(total, 95), max: total.length === 0 ? 0 : Math.max(...total) },
    stages: Object.fromEntries([...stages].sort(([a], [b]) => (a < b ? -1 : 1)).map(([stage, ms]) => [stage, { p50: percentile(ms, 50), p95: percentile(ms, 95) }]))
  }
}

/** The ceiling: what a perfect ordering of the candidates the packer was handed would score. */
export const oracle = (o: Observation, k: number) => {
  const relevant = relevantSet(o.question)
  const present = o.candidateNotes.filter((n) => relevant.has(n))
  const distinct = new Set(present)
  return {
    hit: present.length > 0 ? 1 : 0,
    precision: Math.min(k, present.length) / k,
    recall: relevant.size === 0 ? 0 : Math.min(k, distinct.size) / relevant.size,
    mrr: present.length > 0 ? 1 : 0
  }
}

export interface RankingSummary {
  readonly count: number
  readonly hitAt5: number
  readonly hitAt10: number
  readonly precisionAt1: number
  readonly precisionAt5: number
  readonly distinctPrecisionAt5: number
  readonly blockPrecisionAt5: number | undefined
  readonly recallAt5: number
  readonly recallCeilingAt5: number
  readonly mrr: number
  readonly ndcgAt10: number
  readonly coverageAll: number
  readonly coverageAny: number
  readonly oracle: { readonly hitAt5: number; readonly precisionAt5: number; readonly recallAt5: number; readonly mrr: number }
}

/** Every ranking metric over the positive questions among `observations`. */
export const rankingSummary = (observations: ReadonlyArray<Observation>): RankingSummary => {
  const positives = observations.filter((o) => kindOf(o.question) === "positive")
  const blocks = positives.map((o) => blockPrecisionAt(o, 5)).filter((v): v is number => v !== undefined)
  const coverage = positives.map(answerCoverage).filter((c) => c !== undefined)
  const oracles = positives.map((o) => oracle(o, 5))
  return {
    count: positives.length,
    hitAt5: mean(positives.map((o) => hitAt(o, 5))),
    hitAt10: mean(positives.map((o) => hitAt(o, 10))),
    precisionAt1: mean(positives.map((o) => precisionAt(o, 1))),
    precisionAt5: mean(positives.map((o) => precisionAt(o, 5))),
    distinctPrecisionAt5: mean(positives.map((o) => distinctPrecisionAt(o, 5))),
    blockPrecisionAt5: blocks.length === 0 ? undefined : mean(blocks),
    recallAt5: mean(positives.map((o) => recallAt(o, 5))),
    recallCeilingAt5: mean(positives.map((o) => recallCeilingAt(o, 5))),
    mrr: mean(positives.map(reciprocalRank)),
    ndcgAt10: mean(positives.map((o) => ndcgAt(o, 10))),
    coverageAll: mean(coverage.map((c) => (c.all ? 1 : 0))),
    coverageAny: mean(coverage.map((c) => (c.any ? 1 : 0))),
    oracle: {
      hitAt5: mean(oracles.map((x) => x.hit)),
      precisionAt5: mean(oracles.map((x) => x.precision)),
      recallAt5: mean(oracles.map((x) => x.recall)),
      mrr: mean(oracles.map((x) => x.mrr))
    }
  }
}
