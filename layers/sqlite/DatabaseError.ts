/** The one error family of opening the index file: each reason's message names the fix. */
import { Schema } from "effect"

export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  reason: Schema.Literals(["schema_too_new", "not_an_index", "missing", "damaged", "open_failed"]),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    switch (this.reason) {
      case "schema_too_new":
        return `index ${this.path} was written by a newer cairn (${this.detail}); upgrade cairn, or delete the file and run \`cairn index\` to rebuild it`
      case "not_an_index":
        return `${this.path} is not a cairn index (${this.detail}); choose another index path or delete the file`
      case "missing":
        return `no index at ${this.path}; run \`cairn index\` first`
      case "damaged":
        return `index ${this.path} is damaged (${this.detail}); run \`cairn index\` to rebuild it from the repository`
      case "open_failed":
        return `cannot open index ${this.path}: ${this.detail}; check the path and its permissions`
    }
  }
}
