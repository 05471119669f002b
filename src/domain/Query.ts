/**
 * A question put to cairn, with its budget and filters. Decoding is strict: an unknown key, a
 * negative budget or one above the maximum fails with an `InvalidInput` naming the field.
 */
import { Effect, Schema } from "effect"
import { NoteType } from "./Chunk.ts"
import { fromSchemaError, InvalidInput } from "./InvalidInput.ts"
import { IsoInstant } from "./Instant.ts"

/** Largest budget a caller may ask for. A protection, not a tunable. */
export const MAX_BUDGET_TOKENS = 32_000
/** Budget applied when the caller names none. */
export const DEFAULT_BUDGET_TOKENS = 4_000

export const BudgetTokens = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_BUDGET_TOKENS }))

/**
 * Which chunks a query may see at all; every retrieval leg honours it, inside its index and again
 * over the materialised candidates (`ports/RetrievalFilter.ts` compiles it).
 */
export const QueryFilters = Schema.Struct({
  /** Only chunks of these note types; absent or empty means every type. */
  types: Schema.optionalKey(Schema.Array(NoteType)),
  /**
   * ISO date: only words at least this recent (`provenance.createdAt >= since`); a chunk whose age
   * is unknown or unreadable is kept, because absence of a date is not evidence of age.
   */
  since: Schema.optionalKey(IsoInstant),
  /**
   * Only files under these repository-relative paths, matched on whole path segments (`docs` admits
   * `docs/a.md` and `docs`, not `docs-old/a.md`); absent or empty means everywhere.
   */
  paths: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Admit superseded content (trust state or status `superseded`), excluded by default. */
  includeSuperseded: Schema.optionalKey(Schema.Boolean)
})
export type QueryFilters = typeof QueryFilters.Type

export const Query = Schema.Struct({
  text: Schema.String,
  budgetTokens: BudgetTokens.pipe(Schema.withDecodingDefaultKey(Effect.succeed(DEFAULT_BUDGET_TOKENS))),
  filters: QueryFilters.pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  /** Return each claim's score components and per-stage timings. */
  explain: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
})
export type Query = typeof Query.Type
export type QueryInput = typeof Query.Encoded

const decodeStrict = Schema.decodeUnknownEffect(Query)

/** Decode untrusted input into a `Query`; unknown keys are refused rather than ignored. */
export const decodeQuery = (input: unknown): Effect.Effect<Query, InvalidInput> =>
  decodeStrict(input, { onExcessProperty: "error" }).pipe(
    Effect.mapError((error) => fromSchemaError("query", error))
  )
