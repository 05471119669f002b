/**
 * Stage 9, packing: turns ranked candidates into the ContextPack an agent pays for, and enforces the
 * token budget by two contracts that hold for every input. (1) `usedTokens <= budgetTokens`, where a claim costs the
 * tokens of its wire JSON; conflicts, gaps and the shell are not charged but reported in
 * `budget.report`, and when the budget is at least `reportReserveTokens` the whole serialised pack
 * fits too. (2) Empty `claims` implies non-empty `gaps`.
 */
import { Context, Effect, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { Conflict } from "../domain/Conflict.ts"
import * as ContextPack from "../domain/ContextPack.ts"
import { type Gap, specificityRank } from "../domain/Gap.ts"
import type { Query } from "../domain/Query.ts"
import { byScoreDescThenId, compareIds } from "../domain/Ranking.ts"
import { RetrievalConfig, type RetrievalConfigShape } from "../RetrievalConfig.ts"
import { TokenCounter } from "../ports/TokenCounter.ts"
import { hasOverlongPiece } from "../text/TokenCount.ts"
import { outlineCode } from "./pack/outline.ts"
import { bestSentence, termsIn } from "./pack/bestSentence.ts"
import { truncateAround, truncateToFit } from "./pack/truncate.ts"
import { coveredTerms, namedTerms, passageStems, type Term } from "./terms.ts"

/** Longest query echoed back. A CPU protection: about 2,700 English words. */
export const MAX_ECHOED_QUERY_CHARS = 16_384
/** Longest query echoed when it holds a piece too long to count exactly: characters are not work. */
export const MAX_GUARDED_QUERY_CHARS = 1_024
/** Longest gap or conflict text the packer will carry, so the smallest report always fits the reserve. */
export const MAX_REPORT_TEXT_CHARS = 512
/** Precision `score`, `freshness` and `embeddingCoverage` are published at. */
export const WIRE_SIGNIFICANT_DIGITS = 3

export interface PackInput {
  readonly query: Query
  /** Candidates in any order; the packer ranks them by score, then chunk id. */
  readonly candidates: ReadonlyArray<Candidate>
  readonly conflicts: ReadonlyArray<Conflict>
  /** Detected gaps, most important first within a reason. */
  readonly gaps: ReadonlyArray<Gap>
  readonly indexHealth: ContextPack.IndexHealth
  readonly diagnostics?: ContextPack.Diagnostics | undefined
  /**
   * Fill order: a permutation of the ranked candidates (score, then id) that depends only on the
   * set, such as the diversity reordering. Claims are admitted to the budget in this order, and the
   * last admitted are the first dropped when the whole pack is re-measured.
   */
  readonly order?: ((ranked: ReadonlyArray<Candidate>) => ReadonlyArray<Candidate>) | undefined
  /**
   * Publish order: a permutation of the packed claims' candidates, given in fill order, that depends
   * only on the set. Absent, claims are published in fill order.
   */
  readonly publishOrder?: ((packed: ReadonlyArray<Candidate>) => ReadonlyArray<Candidate>) | undefined
}

export type PackerConfig = Pick<
  RetrievalConfigShape,
  "maxConflicts" | "maxGaps" | "codeEvidence" | "reportReserveTokens" | "fallbackGapText" | "gapStopwords" | "gapMinTermLength" | "gapMaxTerms"
>

/** The passage sentence holding most of the question's terms, as offsets into the claim's text. */
const answeringSentence = (claim: ContextPack.Claim, terms: ReadonlyArray<Term>): { start: number; end: number } | undefined => {
  const bodyStart = claim.text.indexOf("\n") + 1
  if (bodyStart === 0) return undefined
  const best = bestSentence(claim.text.slice(bodyStart), terms, [], { lines: claim.kind === "code" })
  return best === undefined ? undefined : { start: bodyStart + best.start, end: bodyStart + best.end }
}

/** Three significant digits, so 3.02e-13 stays itself instead of becoming a 0. */
export const toSignificant = (value: number): number =>
  value === 0 || !Number.isFinite(value) ? value : Number(value.toPrecision(WIRE_SIGNIFICANT_DIGITS))

/** Cut `text` to at most `maxChars` UTF-16 units without splitting a surrogate pair. */
export const clampChars = (text: string, maxChars: number): string => {
  if (text.length <= maxChars) return text
  const last = text.charCodeAt(maxChars - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars
  return text.slice(0, Math.max(0, end))
}

/** The query as echoed: bounded in characters, and harder when it holds an over-long piece. */
export const clampEchoedQuery = (text: string): string => {
  const clamped = clampChars(text, MAX_ECHOED_QUERY_CHARS)
  return hasOverlongPiece(clamped) ? clampChars(clamped, MAX_GUARDED_QUERY_CHARS) : clamped
}

export const claimRef = (candidate: Candidate): string => {
  const { path, lineStart, lineEnd, blockId } = candidate.chunk
  return `${path}:${lineStart}-${lineEnd}#${blockId}`
}

export const toClaim = (candidate: Candidate, explain: boolean, codeEvidence: "full" | "outline" = "full"): ContextPack.Claim => {
  const { chunk } = candidate
  const claim: ContextPack.Claim = {
    ref: claimRef(candidate),
    kind: chunk.noteType,
    text: codeEvidence === "outline" && chunk.noteType === "code" ? outlineCode(chunk.text, chunk.lineStart, chunk.path) : chunk.text,
    provenance: chunk.provenance,
    freshness: toSignificant(candidate.components.freshness),
    score: toSignificant(candidate.score),
    // Kept as stage 5 ordered it (most canonical first, then id): the order is the advice.
    related: [...candidate.related],
    note: chunk.noteId,
    heading: chunk.headingPath.at(-1) ?? null,
    version: chunk.contentSha.slice(0, 12),
    status: chunk.status,
    updated: chunk.updated
  }
  return explain ? { ...claim, components: candidate.components } : claim
}

/** Score descending, then id; identical (score, id) pairs fall back to content so no order leaks. */
const byRank = (a: Candidate, b: Candidate): number => byScoreDescThenId(a, b) || compareIds(JSON.stringify(a), JSON.stringify(b))

/** One candidate per chunk id: the first in rank order. */
const rankCandidates = (candidates: ReadonlyArray<Candidate>): Array<Candidate> => {
  const seen = new Set<string>()
  const ranked: Array<Candidate> = []
  for (const candidate of [...candidates].sort(byRank)) {
    if (candidate.chunk.isLinkList || seen.has(candidate.chunk.id)) continue
    seen.add(candidate.chunk.id)
    ranked.push(candidate)
  }
  return ranked
}

const boundedText = (text: string): string => clampChars(text, MAX_REPORT_TEXT_CHARS)

/** Detected gaps, most specific reason first (stable within a reason), at most `limit`. */
const selectGaps = (gaps: ReadonlyArray<Gap>, limit: number): Array<Gap> => {
  const seen = new Set<string>()
  const unique: Array<Gap> = []
  for (const gap of gaps) {
    const key = `${gap.reason}\u0000${gap.text}`
    if (seen.has(key)) continue
    seen.add(key)
    unique.push({ reason: gap.reason, text: boundedText(gap.text) })
  }
  return unique
    .map((gap, index) => ({ gap, index }))
    .sort((a, b) => specificityRank(a.gap.reason) - specificityRank(b.gap.reason) || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .map(({ gap }) => gap)
}

const selectConflicts = (conflicts: ReadonlyArray<Conflict>, limit: number): Array<Conflict> =>
  conflicts
    .map((conflict) => ({
      topic: boundedText(conflict.topic),
      refs: [...new Set(conflict.refs)].sort(compareIds),
      note: boundedText(conflict.note)
    }))
    .sort((a, b) => compareIds(a.topic, b.topic) || compareIds(a.refs.join("\n"), b.refs.join("\n")))
    .slice(0, Math.max(0, limit))

const budgetNotice = (dropped: number, budgetTokens: number): Gap => ({
  reason: "budget_truncated",
  text: `${dropped} ${dropped === 1 ? "claim was" : "claims were"} left out or cut to fit the ${budgetTokens}-token budget; ask with a larger budget to see ${dropped === 1 ? "it" : "them"}.`
})

/** The packer's own notice takes the last slot, displacing the least specific detected gap. */
const withBudgetNotice = (detected: ReadonlyArray<Gap>, notice: Gap, maxGaps: number): Array<Gap> =>
  maxGaps <= 0 ? [...detected] : [...detected.slice(0, maxGaps - 1), notice]

/**
 * Contract 2, applied identically by the packer and at the pipeline boundary: a pack with no claims
 * always says why.
 */
export const ensureNeverSilent = (pack: ContextPack.ContextPack, fallbackGapText: string): ContextPack.ContextPack =>
  pack.claims.length === 0 && pack.gaps.length === 0
    ? { ...pack, gaps: [{ reason: "no_results", text: fallbackGapText }] }
    : pack

/**
 * The pure packer over a counter and a config; `Packer`'s default layer wraps it. The budget is
 * enforced in three steps: the shell is measured at its worst case, claims are filled greedily in
 * rank order into what is left, and the real serialised bytes are measured last, dropping from the
 * end until they fit. Exposed so property tests and benchmarks can drive it without a runtime.
 */
export const makePack = (count: (text: string) => number, config: PackerConfig) => (input: PackInput): ContextPack.ContextPack => {
  const budgetTokens = input.query.budgetTokens
  const explain = input.query.explain
  const terms = namedTerms(input.query.text, config)
  const ranked = input.order === undefined ? rankCandidates(input.candidates) : input.order(rankCandidates(input.candidates))
  const claims = ranked.map((candidate) => toClaim(candidate, explain, config.codeEvidence))
  const costOf = (claim: ContextPack.Claim): number => count(JSON.stringify(ContextPack.claimToWire(claim)))
  const costs = claims.map(costOf)
  let detectedGaps = selectGaps(input.gaps, config.maxGaps)
  const indexHealth: ContextPack.IndexHealth = {
    embeddingCoverage: toSignificant(input.indexHealth.embeddingCoverage),
    lagSeconds: Math.round(input.indexHealth.lagSeconds),
    ...(input.indexHealth.filesChanged === undefined ? {} : { filesChanged: input.indexHealth.filesChanged })
  }
  const withWholePack = budgetTokens >= config.reportReserveTokens

  let query = clampEchoedQuery(input.query.text)
  let conflicts = selectConflicts(input.conflicts, config.maxConflicts)

  const assemble = (
    packed: ReadonlyArray<ContextPack.Claim>,
    gaps: ReadonlyArray<Gap>,
    usedTokens: number,
    dropped: number,
    report: number
  ): ContextPack.ContextPack => {
    const pack: ContextPack.ContextPack = {
      query,
      budgetTokens,
      usedTokens,
      claims: packed,
      conflicts,
      gaps,
      indexHealth,
      budget: { requested: budgetTokens, used: usedTokens, report, dropped },
      partial: dropped > 0,
      ...(input.diagnostics === undefined ? {} : { diagnostics: input.diagnostics })
    }
    return ensureNeverSilent(pack, boundedText(config.fallbackGapText))
  }

  /** Tokens of everything but the claims, the report figure included (a short fixed point). */
  const reportTokens = (gaps: ReadonlyArray<Gap>, usedTokens: number, dropped: number): number => {
    let report = 0
    for (let round = 0; round < 4; round++) {
      const next = count(ContextPack.serialise(assemble([], gaps, usedTokens, dropped, report)))
      if (next === report) break
      report = Math.max(report, next)
    }
    return report
  }

  // The shell is measured first, at its worst case (a budget notice among the gaps, or the fallback
  // gap, every figure at its widest), so the claims are filled into what is left of the budget.
  const fallbackGap: Gap = { reason: "no_results", text: boundedText(config.fallbackGapText) }
  const shellTokens = (): number => {
    const notice = withBudgetNotice(detectedGaps, budgetNotice(Math.max(1, claims.length), budgetTokens), config.maxGaps)
    const silent = detectedGaps.length > 0 ? detectedGaps : [fallbackGap]
    return Math.max(
      reportTokens(notice.length > 0 ? notice : [fallbackGap], budgetTokens, claims.length),
      reportTokens(silent, budgetTokens, claims.length)
    )
  }
  let capacity = budgetTokens
  if (withWholePack) {
    // Trim the echoed query first, then drop conflicts and gaps from the least important end:
    // the smallest report (an empty query and one bounded gap) always fits the reserve.
    let shell = shellTokens()
    while (shell > budgetTokens && query.length > 0) {
      const queryTokens = Math.max(1, count(JSON.stringify(query)))
      const keepShare = Math.max(0, 1 - (shell - budgetTokens) / queryTokens) * 0.9
      query = clampChars(query, Math.floor(query.length * keepShare))
      shell = shellTokens()
    }
    while (shell > budgetTokens && conflicts.length > 0) {
      conflicts = conflicts.slice(0, -1)
      shell = shellTokens()
    }
    while (shell > budgetTokens && detectedGaps.length > 0) {
      detectedGaps = detectedGaps.slice(0, -1)
      shell = shellTokens()
    }
    capacity = Math.max(0, budgetTokens - shell)
  }

  // Greedy fill in rank order, skipping what does not fit so one huge chunk starves nothing below it.
  const admitted: Array<number> = []
  const missed: Array<number> = []
  let used = 0
  for (let i = 0; i < claims.length; i++) {
    const cost = costs[i]!
    if (used + cost <= capacity) {
      admitted.push(i)
      used += cost
    } else missed.push(i)
  }

  // One attempt to cut the best claim that missed, at a sentence, line or word boundary.
  const packedClaims = new Map<number, { claim: ContextPack.Claim; cost: number }>()
  for (const i of admitted) packedClaims.set(i, { claim: claims[i]!, cost: costs[i]! })
  const best = missed[0]
  if (best !== undefined) {
    const original = claims[best]!
    const room = capacity - used
    const cut = (text: string): ContextPack.Claim => ({ ...original, text, truncated: true })
    const fits = (text: string) => costOf(cut(text)) <= room
    const sentence = room > 0 ? answeringSentence(original, terms) : undefined
    const text = room <= 0
      ? undefined
      : (sentence === undefined ? undefined : truncateAround(original.text, sentence, fits)) ?? truncateToFit(original.text, fits)
    if (text !== undefined) {
      const claim = cut(text)
      const cost = costOf(claim)
      packedClaims.set(best, { claim, cost })
      used += cost
    }
  }
  const dropped = claims.length - packedClaims.size + (packedClaims.get(best ?? -1)?.claim.truncated ? 1 : 0)

  // What a claim holds of the question: its whole passage, or for a cut claim the text it kept.
  const heldBy = (i: number, whole: boolean): Iterable<number> => {
    const claim = packedClaims.get(i)?.claim
    return !whole && claim?.truncated === true ? termsIn(claim.text, terms) : coveredTerms(passageStems(ranked[i]!.chunk), terms)
  }
  /**
   * Whether the budget cost the reader something: a claim left out, or the part of one cut away,
   * held a named term of the question that no packed claim holds. The tail of a list that repeats
   * what the pack already says is reported in `budget` and `partial`, not as a gap. With no named
   * term to judge by, or nothing packed, any loss counts.
   */
  const budgetCostSomething = (keep: ReadonlyArray<number>): boolean => {
    if (terms.length === 0 || keep.length === 0) return true
    const held = new Set<number>()
    for (const i of keep) for (const term of heldBy(i, false)) held.add(term)
    const kept = new Set(keep)
    for (let i = 0; i < claims.length; i++) {
      if (kept.has(i) && packedClaims.get(i)!.claim.truncated !== true) continue
      for (const term of heldBy(i, true)) if (!held.has(term)) return true
    }
    return false
  }

  let order = [...packedClaims.keys()].sort((a, b) => a - b)
  const position = new Map(ranked.map((candidate, i) => [candidate, i] as const))
  const published = (keep: ReadonlyArray<number>): ReadonlyArray<number> =>
    input.publishOrder === undefined ? keep : input.publishOrder(keep.map((i) => ranked[i]!)).map((candidate) => position.get(candidate)!)
  const build = (keep: ReadonlyArray<number>, droppedCount: number): ContextPack.ContextPack => {
    const packed = published(keep).map((i) => packedClaims.get(i)!.claim)
    const usedTokens = keep.reduce((sum, i) => sum + packedClaims.get(i)!.cost, 0)
    const gaps = droppedCount > 0 && budgetCostSomething(keep)
      ? withBudgetNotice(detectedGaps, budgetNotice(droppedCount, budgetTokens), config.maxGaps)
      : detectedGaps
    const withFallback = packed.length === 0 && gaps.length === 0 ? [fallbackGap] : gaps
    return assemble(packed, withFallback, usedTokens, droppedCount, reportTokens(withFallback, usedTokens, droppedCount))
  }

  let droppedCount = dropped
  let pack = build(order, droppedCount)
  // The final measure is of the real bytes; joins between parts can cost more than the parts did.
  while (withWholePack && order.length > 0 && count(ContextPack.serialise(pack)) > budgetTokens) {
    const last = order[order.length - 1]!
    order = order.slice(0, -1)
    if (!packedClaims.get(last)!.claim.truncated) droppedCount += 1
    pack = build(order, droppedCount)
  }
  return pack
}

/** Stage 9 as a service, so an ablation swaps the packer (or its counter) by Layer. */
export class Packer extends Context.Service<Packer, {
  /** A pack within `input.query.budgetTokens`; never empty of both claims and gaps. */
  readonly pack: (input: PackInput) => Effect.Effect<ContextPack.ContextPack>
}>()("cairn/retrieval/Packer") {}

/** The shipped packer: reads the counter and the config when the layer is built. */
export const layer: Layer.Layer<Packer, never, TokenCounter> = Layer.effect(
  Packer,
  Effect.gen(function*() {
    const counter = yield* TokenCounter
    const config = yield* RetrievalConfig
    const pack = makePack(counter.count, config)
    return Packer.of({ pack: (input) => Effect.sync(() => pack(input)) })
  })
)
