/**
 * The answer to a query. camelCase in code, snake_case on the wire, and `ContextPackWire` is the one
 * transformation between them: `encodeWire` produces exactly the JSON an agent receives.
 *
 * Two contracts hold for every input: `usedTokens <= budgetTokens`, and empty `claims` implies
 * non-empty `gaps`. When the budget is at least the report reserve the whole serialised pack fits.
 */
import { Schema } from "effect"
import { AuthorKind, NoteStatus, NoteType, TrustState } from "./Chunk.ts"
import { Conflict } from "./Conflict.ts"
import { Gap } from "./Gap.ts"
import { ScoreComponents } from "./ScoreComponents.ts"

const ProvenanceWire = Schema.Struct({
  authorKind: AuthorKind,
  author: Schema.NullOr(Schema.String),
  createdAt: Schema.NullOr(Schema.String),
  state: TrustState
}).pipe(Schema.encodeKeys({ authorKind: "author_kind", createdAt: "created_at" }))

const ComponentsWire = ScoreComponents.pipe(Schema.encodeKeys({
  typeWeight: "type_weight",
  relationWeight: "relation_weight",
  hopPenalty: "hop_penalty",
  noteSupport: "note_support",
  termCoverage: "term_coverage",
  noteCoverage: "note_coverage",
  linkConsensus: "link_consensus",
  authorKind: "author_kind"
}))

export const Claim = Schema.Struct({
  /** Openable address: `path:lineStart-lineEnd#blockId`. */
  ref: Schema.String,
  kind: NoteType,
  text: Schema.String,
  provenance: ProvenanceWire,
  /** In (0, 1], three significant digits. */
  freshness: Schema.Finite,
  /** Three significant digits, so a heavily decayed score survives as itself rather than 0. */
  score: Schema.Finite,
  related: Schema.Array(Schema.String),
  /** The note this claim comes from (its repository path). */
  note: Schema.String,
  /** Innermost heading, null above the first one; the full path already opens `text`. */
  heading: Schema.NullOr(Schema.String),
  /** First 12 hex characters of the content SHA-256: enough to notice a cited note moved. */
  version: Schema.String,
  status: NoteStatus,
  updated: Schema.NullOr(Schema.String),
  /** Present and true only when the packer cut the text to fit. */
  truncated: Schema.optionalKey(Schema.Boolean),
  /** Present only with `explain`: the factors that multiply out to `score` before rounding. */
  components: Schema.optionalKey(ComponentsWire)
})
export type Claim = typeof Claim.Type

export const IndexHealth = Schema.Struct({
  /** Share of chunks with an embedding, three significant digits. */
  embeddingCoverage: Schema.Finite,
  /** How far the index is behind the files: seconds since its last build when files changed since, else 0. */
  lagSeconds: Schema.Finite,
  /** Files changed, added or deleted on disk since the last build, when the caller checked. */
  filesChanged: Schema.optionalKey(Schema.Int)
}).pipe(Schema.encodeKeys({ embeddingCoverage: "embedding_coverage", lagSeconds: "lag_seconds", filesChanged: "files_changed" }))
export type IndexHealth = typeof IndexHealth.Type

export const Budget = Schema.Struct({
  requested: Schema.Int,
  /** Tokens charged for claims; equals `usedTokens`. */
  used: Schema.Int,
  /** Tokens of the conflicts, gaps and shell: reported, never charged. */
  report: Schema.Int,
  /** Claims left out (or cut) to fit; the count behind `partial`. */
  dropped: Schema.Int
})
export type Budget = typeof Budget.Type

export const LegStatus = Schema.Literals(["ok", "empty", "failed", "timed_out", "skipped"])
export type LegStatus = typeof LegStatus.Type

export const Diagnostics = Schema.Struct({
  legs: Schema.Array(Schema.Struct({ name: Schema.String, status: LegStatus, hits: Schema.Int })),
  /** Per-stage wall time in milliseconds; only with `explain`. */
  timingsMs: Schema.optionalKey(Schema.Record(Schema.String, Schema.Finite)),
  /** True when no claim's age could be determined (freshness then stays 1). */
  agesUnknown: Schema.optionalKey(Schema.Boolean)
}).pipe(Schema.encodeKeys({ timingsMs: "timings_ms", agesUnknown: "ages_unknown" }))
export type Diagnostics = typeof Diagnostics.Type

export const ContextPack = Schema.Struct({
  query: Schema.String,
  budgetTokens: Schema.Int,
  usedTokens: Schema.Int,
  claims: Schema.Array(Claim),
  conflicts: Schema.Array(Conflict),
  gaps: Schema.Array(Gap),
  indexHealth: IndexHealth,
  budget: Budget,
  partial: Schema.Boolean,
  diagnostics: Schema.optionalKey(Diagnostics)
}).pipe(Schema.encodeKeys({
  budgetTokens: "budget_tokens",
  usedTokens: "used_tokens",
  indexHealth: "index_health"
}))
export type ContextPack = typeof ContextPack.Type
export type ContextPackWire = typeof ContextPack.Encoded

const encodeClaimSync = Schema.encodeSync(Claim)
const encodePackSync = Schema.encodeSync(ContextPack)
const encodeGapSync = Schema.encodeSync(Gap)
const encodeConflictSync = Schema.encodeSync(Conflict)

/** The wire form of a claim: what `usedTokens` charges for. */
export const claimToWire = (claim: Claim): unknown => encodeClaimSync(claim)
export const gapToWire = (gap: Gap): unknown => encodeGapSync(gap)
export const conflictToWire = (conflict: Conflict): unknown => encodeConflictSync(conflict)
export const toWire = (pack: ContextPack): ContextPackWire => encodePackSync(pack)

/** The exact bytes an agent receives. */
export const serialise = (pack: ContextPack): string => JSON.stringify(toWire(pack))

export const decodeWire = Schema.decodeUnknownEffect(ContextPack)
export const decodeWireSync = Schema.decodeUnknownSync(ContextPack)
