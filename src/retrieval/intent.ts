/**
 * Stage 1, intent: which kind of note a question wants, and whether it wants the latest word. A cue
 * table over the query's folded tokens (never a regex over raw text): no model, so it costs nothing
 * and cannot vary between runs. Type weights are normalised to mean 1 over the six note types, so
 * intent redistributes attention and never inflates it.
 */
import { Context, Layer } from "effect"
import type { NoteType } from "../domain/Chunk.ts"
import { words } from "../text/Words.ts"

export const NOTE_TYPES: ReadonlyArray<NoteType> = ["decision", "convention", "state", "reference", "note", "code"]

/** Tokens of a query the cue table reads; a CPU bound, not a tunable. */
export const MAX_INTENT_TOKENS = 512

export interface IntentRule {
  readonly name: string
  /** Each cue is a token sequence that must appear contiguously. */
  readonly cues: ReadonlyArray<ReadonlyArray<string>>
  readonly boosts: Partial<Record<NoteType, number>>
  readonly recency: number
  /**
   * Whether a type it raises is demanded: the question names that kind of note, so a pack with none
   * of it says so (the `implied_type` gap). A rule that only prefers a type raises its weight alone.
   */
  readonly demands: boolean
}

const rule = (
  name: string,
  cues: ReadonlyArray<string>,
  boosts: Partial<Record<NoteType, number>>,
  recency = 0,
  demands = true
): IntentRule => ({ name, cues: cues.map((cue) => cue.split(" ")), boosts, recency, demands })

/** The shipped cue table. Boosts are the weight a type gets when a rule fires, before normalising. */
export const INTENT_RULES: ReadonlyArray<IntentRule> = [
  rule("decision.why", ["why"], { decision: 2.4 }),
  // A choice already made. The bare verbs are left out: "how does the indexer decide" and "how does
  // the ranker choose" ask how a mechanism works, not for the record of a decision.
  rule("decision.decided", [
    "decided", "decision", "decisions", "chose", "chosen", "did we decide", "did we choose", "did they decide", "did they choose",
    "adr", "rationale", "tradeoff", "tradeoffs"
  ], { decision: 2.4 }),
  rule("decision.who-decided", ["who decided", "who chose", "who approved", "signed off"], { decision: 2 }),
  rule("convention.how-do-we", ["how do we", "how should we", "how should i", "what is our", "what's our"], { convention: 2.2 }),
  rule("convention.permission", ["can i", "can we", "am i allowed", "are we allowed", "allowed", "may i", "permitted", "forbidden"], { convention: 2.2 }),
  rule("convention.rule", ["rule", "rules", "convention", "conventions", "policy", "must", "naming", "style", "guideline", "guidelines", "standard"], { convention: 2 }),
  rule("state.where-are-we", ["where are we", "progress", "roadmap", "milestone", "planned"], { state: 2.6 }, 0.7),
  rule("state.status", ["status", "currently", "ongoing", "blocked", "eta", "in flight"], { state: 2.6 }, 0.7),
  rule("state.is-done", ["is it done", "finished", "shipped", "launched", "done yet", "completed", "migrated"], { state: 2.2 }, 0.6),
  rule("reference.what-is", ["what is", "what are", "what does", "meaning of", "definition"], { reference: 1.8 }),
  rule("reference.how-it-works", ["how does", "how it works", "works", "architecture", "explain", "overview", "design"], { reference: 2 }),
  rule("reference.where-is", ["where is", "where are", "where do i", "how to", "how do i", "steps", "runbook", "procedure"], { reference: 1.8 }),
  // Only words that name code; `type`, `code`, `signature` and `returns` mean other things too often.
  rule("code.symbol", ["function", "functions", "class", "method", "interface", "implementation", "implemented", "defined", "source code", "module", "exported"], { code: 2.2 }),
  // "How is the budget enforced?", "how are files cut into chunks?": how a mechanism does what it
  // does, which in a repository the code answers. A preference, not a demand: in a corpus of documents
  // alone no note is code, the normalised weights leave the documents' order as it was, and no gap
  // says code is missing.
  rule("code.mechanism", ["how is", "how are"], { code: 2.2 }, 0, false),
  rule("recency.current", ["current", "latest", "now", "today", "recent", "recently", "still", "anymore"], {}, 0.5),
  rule("recency.historical", ["originally", "historically", "used to", "previously", "history", "old", "first"], {}, -0.5)
]

export interface Intent {
  /** Per note type, mean exactly 1 over the six types (up to float rounding). */
  readonly typeWeights: Readonly<Record<NoteType, number>>
  /** In [-1, 1]: positive wants the latest word, negative the historical one. */
  readonly recencyBias: number
  /** Names of the rules that fired, in table order. */
  readonly fired: ReadonlyArray<string>
  /** Types a fired rule that demands raised above 1, in `NOTE_TYPES` order. */
  readonly demanded: ReadonlyArray<NoteType>
}

const matchesAt = (tokens: ReadonlyArray<string>, at: number, cue: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < cue.length; i++) if (tokens[at + i] !== cue[i]) return false
  return true
}

const hasCue = (tokens: ReadonlyArray<string>, cue: ReadonlyArray<string>): boolean => {
  for (let at = 0; at + cue.length <= tokens.length; at++) if (matchesAt(tokens, at, cue)) return true
  return false
}

/** Classify with a given rule table; the service below ships `INTENT_RULES`. */
export const classifyWith = (rules: ReadonlyArray<IntentRule>) => (text: string): Intent => {
  const tokens = words(text).slice(0, MAX_INTENT_TOKENS)
  const raw: Record<NoteType, number> = { decision: 1, convention: 1, state: 1, reference: 1, note: 1, code: 1 }
  const fired: Array<string> = []
  const demanded = new Set<NoteType>()
  let recency = 0
  for (const r of rules) {
    if (!r.cues.some((cue) => hasCue(tokens, cue))) continue
    fired.push(r.name)
    recency += r.recency
    for (const type of NOTE_TYPES) {
      const boost = r.boosts[type]
      // The strongest rule for a type wins; rules do not stack, or a wordy question would outweigh a terse one.
      if (boost !== undefined && boost > raw[type]) raw[type] = boost
      if (boost !== undefined && boost > 1 && r.demands) demanded.add(type)
    }
  }
  let sum = 0
  for (const type of NOTE_TYPES) sum += raw[type]
  const mean = sum / NOTE_TYPES.length
  const typeWeights = Object.fromEntries(NOTE_TYPES.map((type) => [type, raw[type] / mean])) as Record<NoteType, number>
  return { typeWeights, recencyBias: Math.max(-1, Math.min(1, recency)), fired, demanded: NOTE_TYPES.filter((type) => demanded.has(type)) }
}

export const classify = classifyWith(INTENT_RULES)

export class IntentClassifier extends Context.Service<IntentClassifier, {
  readonly classify: (text: string) => Intent
}>()("cairn/retrieval/IntentClassifier") {}

export const layer: Layer.Layer<IntentClassifier> = Layer.succeed(IntentClassifier, { classify })

/** Every type weighs 1 and there is no recency bias: stage 1 switched out, for ablations. */
export const layerNeutral: Layer.Layer<IntentClassifier> = Layer.succeed(IntentClassifier, {
  classify: classifyWith([])
})
