/**
 * What the knowledge base could not answer, with a reason code that travels on the wire so no
 * consumer has to match prose.
 */
import { Schema } from "effect"

export const GapReason = Schema.Literals([
  "no_results",
  "low_confidence",
  "filtered_out",
  "budget_truncated",
  "index_incomplete",
  "implied_type",
  "leg_failed",
  "query_reduced"
])
export type GapReason = typeof GapReason.Type

export const Gap = Schema.Struct({ reason: GapReason, text: Schema.String })
export type Gap = typeof Gap.Type

/**
 * How specific each reason is, most specific first. When the gap cap is reached the packer's own
 * `budget_truncated` notice displaces the least specific detected gap.
 */
export const SPECIFICITY: ReadonlyArray<GapReason> = [
  "leg_failed",
  "index_incomplete",
  "query_reduced",
  "filtered_out",
  "implied_type",
  "low_confidence",
  "no_results",
  "budget_truncated"
]

export const specificityRank = (reason: GapReason): number => SPECIFICITY.indexOf(reason)
