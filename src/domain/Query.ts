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

export const QueryFilters = Schema.Struct({
  /** Keep only these note types. */
  types: Schema.optionalKey(Schema.Array(NoteType)),
  /** ISO date: keep only words written on or after it (unknown ages are kept). */
  since: Schema.optionalKey(IsoInstant),
  /** Keep only files under these repository-relative path prefixes. */
  paths: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Also return content marked superseded (excluded by default). */
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
