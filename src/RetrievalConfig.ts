/**
 * Every tunable of retrieval, with its shipped default, in one Schema. A tuning session is a diff of
 * this file. Bounds that protect CPU from a request (the unbroken-run guard, the echoed-query clamps)
 * are constants in the modules that enforce them, because a ceiling a request can raise is none.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { fromSchemaError, type InvalidInput } from "./domain/InvalidInput.ts"
import { STOPWORDS } from "./text/Stopwords.ts"

const NonNegative = Schema.Number.check(Schema.isGreaterThanOrEqualTo(0))
const Positive = Schema.Number.check(Schema.isGreaterThan(0))
const Unit = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

const PerNoteType = <S extends Schema.Top>(value: S) =>
  Schema.Struct({ decision: value, convention: value, state: value, reference: value, note: value, code: value })

const ConflictGate = Schema.Struct({
  /** Content terms the two statements' chunks must share. */
  minShared: Count,
  /** Of those, terms shared by the two statements themselves (not a shared heading path). */
  minSharedStatement: Count,
  /** Shared terms over the smaller statement's terms. */
  minOverlap: Unit,
  /** Dice coefficient of the two statements' term sets. */
  minDice: Unit,
  /** Content terms each statement must have at all. */
  minTerms: Count
})

export const RetrievalConfigSchema = Schema.Struct({
  // Fusion (stage 4)
  /** The k of reciprocal-rank fusion, `1 / (k + rank)`. 60 after Cormack et al.; see rrfAbsentRankOffset before lowering it. */
  rrfK: Positive,
  /** How far past the end of a list an absent chunk is assumed to rank: `max(list length, limit) + offset`. `Infinity` is classic RRF. */
  rrfAbsentRankOffset: NonNegative,
  /** BM25 candidates requested. Also the notional list length absence is measured against. */
  lexicalLimit: Count,
  /** Dense candidates requested; 0 measures BM25 alone. */
  denseLimit: Count,
  /** Notes the title/path channel may return; 0 switches it off. */
  titlePathLimit: Count,
  /** Smallest two-way name coverage at which the title/path channel speaks, in [0, 1]. */
  titlePathMinScore: Unit,
  /** Declarations the symbol leg may return (src/retrieval/symbolTable.ts); 0 switches it off. */
  symbolLimit: Count,
  /** Candidates kept after fusion. */
  fusedLimit: Count,
  /** BM25 column weights: how many body words one occurrence in the title or a tag counts as. A starting point, not yet tuned. */
  lexicalWeights: Schema.Struct({ text: NonNegative, title: NonNegative, tags: NonNegative }),

  // Graph expansion (stage 5)
  /** Multiplier per hop for a neighbour's inherited score. */
  graphHopPenalty: Unit,
  /** Hops walked from the matched notes. */
  graphHops: Count,
  /** Neighbours admitted in total. */
  graphExpandLimit: Count,
  /**
   * Confident seeds only: the walk starts from those of the best this many fused seeds that a leg
   * other than dense ranked (a word, title or symbol match, never a match by meaning alone); 0
   * walks from every seed.
   */
  graphSeedLimit: Count,
  /** Chunks loaded per neighbour note; bounds the work one over-linked note causes. */
  graphChunksPerNote: Count,
  /** Weight of each relation verb as a way in; `supersedes` is never followed whatever it says here. */
  graphRelationWeights: Schema.Record(Schema.String, Unit),
  /** Weight of a verb the table does not name. */
  graphDefaultRelationWeight: Unit,
  /**
   * For a language read with tree-sitter (docs/languages.md), the relation kinds of its files the
   * graph stages follow; a language not named follows those its spec adopted, which today are none.
   */
  graphLanguageRelations: Schema.Record(Schema.String, Schema.Array(Schema.String)),

  // Search's file ranking, second stage (pipelines/search.ts, src/retrieval/fileExpansion.ts)
  /** Files among the first pass's best that may seed the step along imports and calls; 0 switches the second stage off. */
  searchExpansionSeeds: Count,
  /** Neighbours the second stage adds to the file ranking at most. */
  searchExpansionLimit: Count,
  /** What the neighbours' list counts when it is fused with the first pass again: 1 counts it as a leg. */
  searchExpansionWeight: Unit,
  /** Weight of each relation kind as a way across; a kind not named is not followed. */
  searchExpansionRelationWeights: Schema.Record(Schema.String, Unit),

  // Search's co-change leg (pipelines/search.ts, src/retrieval/coChange.ts), beside the second stage
  /** Files among the first pass's best that may seed the co-change leg; 0 switches it off. */
  coChangeSeeds: Count,
  /** Files the co-change leg adds to the file ranking at most. */
  coChangeLimit: Count,
  /** What its list counts when fused with the first pass again: 1 counts it as a leg. */
  coChangeWeight: Unit,
  /** The newest commits read (at most 10,000). */
  coChangeWindow: Count,
  /** A commit touching more files than this is skipped. */
  coChangeMaxFiles: Count,
  /** Commits two files must share to count as changed together. */
  coChangeMinCount: Count,
  /** Each seed's most frequent co-changed files left out, as the hubs every change touches. */
  coChangeSkipTop: Count,

  // Reranking (stage 6)
  /** Corpus size (chunks) below which the reranker is skipped. `Infinity` switches stage 6 off. */
  rerankMinCorpus: NonNegative,
  /** Candidates the reranker scores, taken in score order; the rest keep their order below them. */
  rerankCandidateLimit: Count,
  /** Candidates kept after stage 7; the direct lever on used tokens. */
  rerankLimit: Count,

  // Score adjustment (stage 7)
  /** Share of stage 1's type weight applied: `1 + strength × (w - 1)`. */
  typeWeightStrength: Unit,
  /** Weight of a test, fixture or benchmark file's passage (testFiles.ts), unless the question asks about tests; 1 switches it off. */
  testFileWeight: Unit,
  /** How far the query's recency bias shortens half-lives; 1 halves them at full bias. */
  recencyBiasStrength: NonNegative,
  /** Freshness half-life per note type, in days. */
  halfLifeDays: PerNoteType(Positive),
  /** Freshness is `floor + (1 - floor) × exp(-age / halfLife)`, so staleness can overturn at most 1/floor. */
  freshnessFloor: Unit,
  /** Note support lives in [floor, 1]: how much of a note's own chunks reached the list. */
  supportFloor: Unit,
  /** Term coverage lives in [floor, 1]: how much of the question a passage names. */
  coverageFloor: Unit,
  /** Note coverage lives in [floor, 1]: how much of the question the passage's note names. */
  noteCoverageFloor: Unit,
  /** Link consensus lives in [floor, 1]: how many other listed notes link to this one. */
  linkConsensusFloor: Unit,
  /** In-list citation count at which link consensus reaches 1; it never rewards more. */
  linkConsensusCap: Positive,
  /** Weight of each trust rung. */
  verificationWeights: Schema.Struct({
    verified: Unit,
    accepted: Unit,
    unverified: Unit,
    stale: Unit,
    superseded: Unit
  }),
  /** Weight of each author kind. */
  authorKindWeights: Schema.Struct({ human: Unit, agent: Unit }),
  /** Canonicality lives in [floor, 1]: how central the note is to the corpus's links (the optional NoteSignals port). 1 switches it off. */
  canonicalityFloor: Unit,

  // Diversity and dedup (stage 8)
  /** Chunks of one note admitted before every other note in the list is represented; a reordering, never a drop. */
  diversityCapPerNote: Positive,
  /** The same cap over the packed claims, for the order they are published in; it moves no claim in or out. */
  publishCapPerNote: Positive,
  /** Cosine at or above which two chunks are one claim (complete link). */
  dedupCosine: Unit,
  /** Word-shingle width of the lexical fallback when chunks carry no comparable embeddings. */
  dedupShingleSize: Schema.Int.check(Schema.isGreaterThan(0)),

  // Conflicts
  /** Conflicts reported per pack. */
  maxConflicts: Count,
  /** Gates per clash kind; a pair must clear all five. */
  conflictGates: Schema.Struct({
    choice: ConflictGate,
    measure: ConflictGate,
    count: ConflictGate,
    polarity: ConflictGate,
    base: ConflictGate
  }),

  // Gaps
  /** Shortest query word that can be reported absent. */
  gapMinTermLength: Count,
  /** Query terms considered. */
  gapMaxTerms: Count,
  /** Most per-term "no claims found about X" gaps per pack. */
  gapMaxTermGaps: Count,
  /** Fraction of terms, rarest first, pinned ahead of the rest. */
  gapRarePinFraction: Unit,
  /** Two-way overlap at which a retrieved open question is this question. */
  gapOpenQuestionOverlap: Unit,
  /** Freshness below which the freshest note of the demanded type is called stale. */
  gapStaleFreshness: Unit,
  /** Stage 1 type weight above which the query is taken to demand that type. */
  gapImpliedTypeWeight: Positive,
  /** Embedding coverage below which `index_incomplete` fires. */
  gapCoverageFloor: Unit,
  /** Index lag (seconds) above which `index_incomplete` fires. */
  gapLagSecondsFloor: NonNegative,
  /** Longest query, or query term, quoted back in a gap. */
  gapMaxQueryChars: Schema.Int.check(Schema.isGreaterThan(0)),
  /** Words never reported absent. */
  gapStopwords: Schema.Array(Schema.String),
  /** Answerability (the best passage's share of the question's term weight) below which `low_confidence` fires; fitted by `eval/calibrate.ts`. */
  gapAnswerabilityFloor: Unit,
  /** Passages, from the top, whose coverage answerability reads. */
  gapAnswerabilityDepth: Count,

  // Filtering
  /** Trust states never returned unless the query asks to include superseded content. */
  excludedStates: Schema.Array(Schema.Literals(["verified", "accepted", "unverified", "stale", "superseded"])),

  // Packing (stage 9)
  /** Most gaps reported, the packer's own budget notice included. */
  maxGaps: Count,
  /** Code claims as written (`full`) or as outlines, bodies elided to marked line ranges (`outline`; src/retrieval/pack/outline.ts). */
  codeEvidence: Schema.Literals(["full", "outline"]),
  /** Budget at or above which the whole serialised pack, report included, is kept inside it. */
  reportReserveTokens: Count,
  /** Gap text when nothing else explains an empty pack; the packer and the pipeline share it. */
  fallbackGapText: Schema.String.check(Schema.isMinLength(1)),

  // Time and chance
  /** Soft deadline for each leg, the graph walk and the reranker, in milliseconds. */
  softTimeoutMs: Positive,
  /** Seed for every random choice (SVD range finding, Louvain, sampling). */
  seed: Schema.Int
})
export type RetrievalConfigShape = typeof RetrievalConfigSchema.Type

export const defaults: RetrievalConfigShape = {
  rrfK: 60,
  rrfAbsentRankOffset: 1,
  lexicalLimit: 50,
  denseLimit: 50,
  titlePathLimit: 20,
  titlePathMinScore: 0.5,
  symbolLimit: 0,
  fusedLimit: 60,
  lexicalWeights: { text: 1, title: 2, tags: 2 },

  graphHopPenalty: 0.6,
  graphHops: 1,
  graphExpandLimit: 20,
  graphSeedLimit: 0,
  graphChunksPerNote: 3,
  graphRelationWeights: { depends_on: 1, implements: 0.9, part_of: 0.9, blocks: 0.7, relates_to: 0.6 },
  graphDefaultRelationWeight: 0.6,
  graphLanguageRelations: {},

  searchExpansionSeeds: 0,
  searchExpansionLimit: 20,
  searchExpansionWeight: 1,
  searchExpansionRelationWeights: { imports: 0.6, "imports-type": 0.6, "imports-dynamic": 0.6, requires: 0.6, "re-exports": 0.6, calls: 1 },

  coChangeSeeds: 0,
  coChangeLimit: 20,
  coChangeWeight: 1,
  coChangeWindow: 2_000,
  coChangeMaxFiles: 20,
  coChangeMinCount: 3,
  coChangeSkipTop: 2,

  rerankMinCorpus: 200,
  rerankCandidateLimit: 30,
  rerankLimit: 12,

  typeWeightStrength: 0.35,
  testFileWeight: 0.5,
  recencyBiasStrength: 1,
  halfLifeDays: { convention: 365, decision: 180, reference: 180, state: 14, note: 90, code: 365 },
  freshnessFloor: 0.9,
  supportFloor: 0.5,
  coverageFloor: 0.35,
  noteCoverageFloor: 0.6,
  linkConsensusFloor: 0.8,
  linkConsensusCap: 6,
  verificationWeights: { verified: 1, accepted: 0.95, unverified: 0.85, stale: 0.5, superseded: 0.2 },
  authorKindWeights: { human: 1, agent: 0.9 },
  canonicalityFloor: 1,

  diversityCapPerNote: 2,
  publishCapPerNote: 1,
  dedupCosine: 0.92,
  dedupShingleSize: 3,

  maxConflicts: 3,
  conflictGates: {
    choice: { minShared: 3, minSharedStatement: 2, minOverlap: 0.45, minDice: 0.4, minTerms: 3 },
    measure: { minShared: 2, minSharedStatement: 2, minOverlap: 0.4, minDice: 0.32, minTerms: 3 },
    count: { minShared: 3, minSharedStatement: 3, minOverlap: 0.45, minDice: 0.4, minTerms: 3 },
    polarity: { minShared: 3, minSharedStatement: 3, minOverlap: 0.5, minDice: 0.4, minTerms: 4 },
    base: { minShared: 2, minSharedStatement: 2, minOverlap: 0.4, minDice: 0.32, minTerms: 3 }
  },

  gapMinTermLength: 4,
  gapMaxTerms: 24,
  gapMaxTermGaps: 2,
  gapRarePinFraction: 0.2,
  gapOpenQuestionOverlap: 0.75,
  gapStaleFreshness: 0.25,
  gapImpliedTypeWeight: 1.25,
  gapCoverageFloor: 1,
  gapLagSecondsFloor: 60,
  gapMaxQueryChars: 120,
  gapStopwords: STOPWORDS,
  gapAnswerabilityFloor: 0.41,
  gapAnswerabilityDepth: 5,

  excludedStates: ["superseded"],

  maxGaps: 3,
  codeEvidence: "full",
  reportReserveTokens: 512,
  fallbackGapText: "No claims found for this query.",

  softTimeoutMs: 1_500,
  seed: 42
}

/** Verification as an organisation's choice: `off` weighs every unexpired trust rung and author kind 1. */
export const retrievalConfigFor = (mode: "on" | "off"): RetrievalConfigShape =>
  mode === "on"
    ? defaults
    : {
      ...defaults,
      verificationWeights: { ...defaults.verificationWeights, verified: 1, accepted: 1, unverified: 1 },
      authorKindWeights: { human: 1, agent: 1 }
    }

export const RetrievalConfig = Context.Reference<RetrievalConfigShape>("cairn/RetrievalConfig", {
  defaultValue: () => defaults
})

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Nested tables merge key by key, so overriding one half-life keeps the others. */
const mergeOverrides = (base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> => {
  const merged: Record<string, unknown> = { ...base }
  for (const key of Object.keys(overrides)) {
    const value = overrides[key]
    const current = base[key]
    merged[key] = isPlainObject(value) && isPlainObject(current) ? mergeOverrides(current, value) : value
  }
  return merged
}

const decodeStrict = Schema.decodeUnknownEffect(RetrievalConfigSchema)

/**
 * Validate overrides against the defaults (or another base). Unknown keys and out-of-range values
 * fail with an `InvalidInput` naming the field.
 */
export const resolve = (
  overrides: unknown,
  base: RetrievalConfigShape = defaults
): Effect.Effect<RetrievalConfigShape, InvalidInput> =>
  isPlainObject(overrides)
    ? decodeStrict(mergeOverrides(base, overrides), { onExcessProperty: "error" }).pipe(
      Effect.mapError((error) => fromSchemaError("config", error))
    )
    : decodeStrict(overrides).pipe(Effect.mapError((error) => fromSchemaError("config", error)))

/** Override some tunables; the rest keep their defaults. Provide it *to* the stages, not beside them. */
export const layer = (overrides: unknown): Layer.Layer<never, InvalidInput> =>
  Layer.effect(RetrievalConfig, resolve(overrides))
