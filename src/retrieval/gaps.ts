/**
 * The gap detector: what the knowledge base could not answer, each with a reason code. Every rule
 * reads what was retrieved, never a relevance floor (a reciprocal-rank score has no absolute scale,
 * so a floor on it can never fire). Term identity is terms.ts's, shared with stage 7's coverage, so a
 * claim ranked for covering a word is never reported as missing it.
 *
 * - `no_results`: nothing came back; or, per named query term that carries the question (its rarer
 *   half in the whole index, or a word the index never saw) and that no claim contains, at most
 *   `gapMaxTermGaps`, the rarest first (rarity: fewest candidates before the cut contain it).
 * - `low_confidence`: the answerability score (answerability.ts) is below `gapAnswerabilityFloor`;
 *   both halves of a joined question are present and no claim joins them; the
 *   freshest note of the demanded type is heavily decayed; a retrieved open-question line is this
 *   question (overlap at least `gapOpenQuestionOverlap` both ways); a `how long` question whose
 *   subject no claim quantifies.
 * - `filtered_out`: the caller's own filters removed the matches.
 * - `index_incomplete`: embedding coverage below the floor; files changed on disk since the build;
 *   else index lag above the floor (a reading nobody checked against the files).
 * - `implied_type`: the question demands a note type the claims have none of.
 */
import { Context, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { NoteType } from "../domain/Chunk.ts"
import type { Gap } from "../domain/Gap.ts"
import { words } from "../text/Words.ts"
import type { IndexHealthReading } from "../ports/IndexHealth.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import { ageInDays, decay } from "./adjust.ts"
import type { Intent } from "./intent.ts"
import { NOTE_TYPES } from "./intent.ts"
import type { Answerability } from "./answerability.ts"
import { carryingTerms } from "./carrying.ts"
import { coveredTerms, namedTerms, type PassageStems, passageStems, type Term } from "./terms.ts"

export interface GapInput {
  readonly query: string
  readonly intent: Intent
  /** The candidates going to the packer, in rank order. */
  readonly candidates: ReadonlyArray<Candidate>
  /** The wider list before stage 7's cut: how rare each term is among what was found. */
  readonly found: ReadonlyArray<Candidate>
  /** Matching passages the caller's own filters removed (0 when unknown or none). */
  readonly filteredOut: number
  /** A description of the filters, for the gap sentence. */
  readonly filterSummary: string
  readonly indexHealth: IndexHealthReading
  readonly now: number
  readonly config: RetrievalConfigShape
  /**
   * How many chunks of the whole index hold each of the question's named words (folded, as the
   * query wrote them), capped; absent when the index could not count, and then every absent term
   * may be reported.
   */
  readonly wordFrequencies?: ReadonlyMap<string, number> | undefined
  /** How well the passages read answer the question; absent when not computed, and then no gap follows from it. */
  readonly answerability?: Answerability | undefined
}

const TYPE_NAMES: Readonly<Record<NoteType, string>> = {
  decision: "decision",
  convention: "convention",
  state: "status note",
  reference: "reference",
  note: "note",
  code: "code"
}

const quote = (text: string, maxChars: number): string => {
  const flat = text.replace(/\s+/gu, " ").trim()
  return flat.length <= maxChars ? flat : `${flat.slice(0, Math.max(0, maxChars - 1))}…`
}

/** Words that join two halves of a question. */
const JOINERS = new Set(["and", "with", "between", "vs", "versus", "against"])

/** A number with a unit of time: what `how long` asks for. */
const DURATION = /\b(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety)[\s-]*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|months?|yrs?|years?)\b/iu
const DURATION_FRAMES: ReadonlyArray<ReadonlyArray<string>> = [["how", "long"], ["how", "much", "time"], ["how", "many", "days"], ["how", "many", "hours"], ["how", "many", "minutes"], ["how", "many", "weeks"], ["how", "many", "months"]]
/** A line that records an open question, after any list bullet. */
const OPEN_QUESTION = /^(?:\[question\]|open question[:.-]|question:|q:)\s*/iu

const hasFrame = (tokens: ReadonlyArray<string>, frame: ReadonlyArray<string>): boolean => {
  for (let i = 0; i + frame.length <= tokens.length; i++) {
    if (frame.every((word, j) => tokens[i + j] === word)) return true
  }
  return false
}

/** Share of `a`'s terms found in `b`, by stemmed tokens. */
const overlap = (a: ReadonlyArray<Term>, b: ReadonlyArray<Term>): number => {
  if (a.length === 0) return 0
  const keys = new Set(b.map((t) => t.tokens.join(" ")))
  return a.filter((t) => keys.has(t.tokens.join(" "))).length / a.length
}

export const detectGaps = (input: GapInput): Array<Gap> => {
  const { config } = input
  const gaps: Array<Gap> = []
  const maxChars = config.gapMaxQueryChars
  const terms = namedTerms(input.query, config)
  const stems = input.candidates.map((c) => passageStems(c.chunk))
  const covered = stems.map((s) => coveredTerms(s, terms))

  // Index health first: it explains every other absence.
  if (input.indexHealth.embeddingCoverage < config.gapCoverageFloor) {
    gaps.push({ reason: "index_incomplete", text: `Only ${Math.floor(input.indexHealth.embeddingCoverage * 100)}% of the index is embedded, so dense search could not see all of it.` })
  }
  const changed = input.indexHealth.filesChanged ?? 0
  if (changed > 0) {
    gaps.push({ reason: "index_incomplete", text: `${changed} file${changed === 1 ? "" : "s"} changed on disk since the index was built; refresh it (cairn index) to see ${changed === 1 ? "that change" : "those changes"}.` })
  } else if (input.indexHealth.lagSeconds > config.gapLagSecondsFloor) {
    gaps.push({ reason: "index_incomplete", text: `The index is ${Math.round(input.indexHealth.lagSeconds)} seconds behind the files it was built from.` })
  }
  if (input.filteredOut > 0) {
    gaps.push({ reason: "filtered_out", text: `Your filters (${quote(input.filterSummary, maxChars)}) removed ${input.filteredOut} matching passage${input.filteredOut === 1 ? "" : "s"}.` })
  }

  if (input.candidates.length === 0) {
    if (input.filteredOut === 0) {
      gaps.push({
        reason: "no_results",
        text: input.query.trim() === "" ? "The question was empty, so nothing was searched for." : `No claims found for "${quote(input.query, maxChars)}".`
      })
    }
    return gaps
  }

  if (input.answerability !== undefined && input.answerability.score < config.gapAnswerabilityFloor) {
    gaps.push({ reason: "low_confidence", text: `The best passage holds ${Math.floor(input.answerability.score * 100)}% of what the question asks about; the knowledge base may not answer it.` })
  }

  // Demanded types: a rule that demands raised them, and stage 1 weighs them above the implied-type threshold.
  const demanded = NOTE_TYPES.filter((type) => input.intent.demanded.includes(type) && input.intent.typeWeights[type] > config.gapImpliedTypeWeight)
  for (const type of demanded) {
    const ofType = input.candidates.filter((c) => c.chunk.noteType === type)
    if (ofType.length === 0) {
      gaps.push({ reason: "implied_type", text: `No ${TYPE_NAMES[type]} was found for this question; the claims are of other kinds.` })
      continue
    }
    const freshest = Math.max(...ofType.map((c) => decay(ageInDays(c.chunk.provenance.createdAt, input.now), type, input.intent.recencyBias, config)))
    if (freshest < config.gapStaleFreshness) {
      const newest = Math.min(...ofType.map((c) => ageInDays(c.chunk.provenance.createdAt, input.now) ?? Infinity))
      gaps.push({ reason: "low_confidence", text: `The freshest ${TYPE_NAMES[type]} here is ${Math.round(newest)} days old; it may no longer hold.` })
    }
  }

  gaps.push(...openQuestionGaps(input, terms))
  gaps.push(...neverJoinedGaps(input, stems))
  gaps.push(...unmetDurationGaps(input, terms, covered))

  // Per absent term that carries the question, rarest first: the rarest `gapRarePinFraction` of
  // terms are pinned ahead.
  const carrying = carryingTerms(terms, input.wordFrequencies)
  const absent = terms.map((term, index) => ({ term, index })).filter(({ index }) => carrying.has(index) && !covered.some((c) => c.has(index)))
  if (absent.length > 0 && config.gapMaxTermGaps > 0) {
    const foundStems = input.found.map((c) => passageStems(c.chunk))
    const frequency = (index: number) => foundStems.filter((s) => coveredTerms(s, [terms[index]!]).size > 0).length
    const byRarity = [...absent].sort((a, b) =>
      frequency(a.index) - frequency(b.index) || b.term.display.length - a.term.display.length || a.index - b.index)
    const pinned = byRarity.slice(0, Math.ceil(config.gapRarePinFraction * terms.length))
    const rest = absent.filter((entry) => !pinned.includes(entry))
    for (const { term } of [...pinned, ...rest].slice(0, config.gapMaxTermGaps)) {
      gaps.push({ reason: "no_results", text: `No claims found about "${quote(term.display, maxChars)}".` })
    }
  }
  return gaps
}

/** A retrieved line that records this very question as open. */
const openQuestionGaps = (input: GapInput, terms: ReadonlyArray<Term>): Array<Gap> => {
  if (terms.length === 0) return []
  const config = input.config
  for (const candidate of input.candidates) {
    for (const rawLine of candidate.chunk.text.split("\n").slice(1)) {
      const line = rawLine.replace(/^\s*(?:[-*+]|\d+[.)])\s+/u, "")
      const recorded = OPEN_QUESTION.test(line) ||
        (line.trimEnd().endsWith("?") && candidate.chunk.headingPath.some((h) => /open questions?/iu.test(h)))
      if (!recorded) continue
      const lineTerms = namedTerms(line.replace(OPEN_QUESTION, ""), config)
      if (Math.min(overlap(terms, lineTerms), overlap(lineTerms, terms)) >= config.gapOpenQuestionOverlap) {
        return [{ reason: "low_confidence", text: `${candidate.chunk.noteId} records this as an open question.` }]
      }
    }
  }
  return []
}

/** Both halves of a joined question are present and no single claim connects them. */
const neverJoinedGaps = (input: GapInput, stems: ReadonlyArray<PassageStems>): Array<Gap> => {
  const tokens = words(input.query)
  const at = tokens.findIndex((token, i) => JOINERS.has(token) && i > 0 && i < tokens.length - 1)
  if (at === -1) return []
  const left = namedTerms(tokens.slice(0, at).join(" "), input.config)
  const right = namedTerms(tokens.slice(at + 1).join(" "), input.config)
  if (left.length === 0 || right.length === 0) return []
  const leftIn = stems.map((s) => coveredTerms(s, left).size > 0)
  const rightIn = stems.map((s) => coveredTerms(s, right).size > 0)
  if (!leftIn.some(Boolean) || !rightIn.some(Boolean)) return []
  if (leftIn.some((l, i) => l && rightIn[i])) return []
  const maxChars = input.config.gapMaxQueryChars
  return [{
    reason: "low_confidence",
    text: `Claims mention "${quote(left.map((t) => t.display).join(" "), maxChars)}" and "${quote(right.map((t) => t.display).join(" "), maxChars)}", but none connects them.`
  }]
}

/** A `how long` question whose subject (its rarest term) no retrieved claim quantifies. */
const unmetDurationGaps = (
  input: GapInput,
  terms: ReadonlyArray<Term>,
  covered: ReadonlyArray<ReadonlySet<number>>
): Array<Gap> => {
  const tokens = words(input.query)
  if (terms.length === 0 || !DURATION_FRAMES.some((frame) => hasFrame(tokens, frame))) return []
  const foundStems = input.found.map((c) => passageStems(c.chunk))
  const rarity = (index: number) => foundStems.filter((s) => coveredTerms(s, [terms[index]!]).size > 0).length
  const subject = terms
    .map((term, index) => ({ term, index }))
    .filter(({ index }) => covered.some((c) => c.has(index)))
    .sort((a, b) => rarity(a.index) - rarity(b.index) || b.term.display.length - a.term.display.length || a.index - b.index)[0]
  if (subject === undefined) return []
  const mentioning = input.candidates.filter((_, i) => covered[i]!.has(subject.index))
  if (mentioning.some((c) => DURATION.test(c.chunk.text.split("\n").slice(1).join("\n")))) return []
  return [{ reason: "low_confidence", text: `No claim about "${quote(subject.term.display, input.config.gapMaxQueryChars)}" says how long.` }]
}

export class GapDetector extends Context.Service<GapDetector, {
  readonly detect: (input: GapInput) => ReadonlyArray<Gap>
}>()("cairn/retrieval/GapDetector") {}

export const layer: Layer.Layer<GapDetector> = Layer.succeed(GapDetector, { detect: detectGaps })
