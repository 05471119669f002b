/**
 * Bad input from a caller (a query, a config override): one typed error that names the field and
 * what it accepts, so a person or an agent can fix the call without reading a stack trace.
 */
import { Schema, SchemaIssue } from "effect"

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  /** What was being decoded: `query` or `config`. */
  subject: Schema.String,
  /** Dotted path of the offending field (`budgetTokens`, `filters.types.0`), or `(root)`. */
  field: Schema.String,
  /** What the field accepts, as the schema states it (`Expected a value between 0 and 32000`). */
  detail: Schema.String
}) {
  override get message(): string {
    return `invalid ${this.subject}: ${this.field}: ${this.detail}`
  }
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a decode failure, as an `InvalidInput` naming its field. */
export const fromSchemaError = (subject: string, error: Schema.SchemaError): InvalidInput => {
  const first = formatter(error.issue).issues[0]
  const path = (first?.path ?? []).map((segment) =>
    typeof segment === "object" && segment !== null && "key" in segment ? String(segment.key) : String(segment)
  )
  return new InvalidInput({
    subject,
    field: path.length === 0 ? "(root)" : path.join("."),
    detail: first?.message ?? error.message
  })
}
