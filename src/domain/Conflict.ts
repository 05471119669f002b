/** Two or more passages that disagree about one subject with no recorded resolution. */
import { Schema } from "effect"

export const Conflict = Schema.Struct({
  topic: Schema.String,
  /** Refs of every side, never narrowed to what survived packing: a one-sided warning misleads. */
  refs: Schema.Array(Schema.String),
  /** Reads like `24h (Mar) vs 1h (Jun). Neither superseded.` */
  note: Schema.String
})
export type Conflict = typeof Conflict.Type
