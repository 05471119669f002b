/**
 * The one error family of discovery. A file that cannot be analysed is coverage, not an error; these
 * are the failures that stop a scan: the root cannot be read, or a caller's input is unusable.
 */
import { Schema } from "effect"

/** The root, or a directory under it, could not be listed or read. */
export class SourceUnreadable extends Schema.TaggedError<SourceUnreadable>()("SourceUnreadable", {
  path: Schema.String,
  detail: Schema.String
}) {}

/** A configuration value failed validation. */
export class ConfigInvalid extends Schema.TaggedError<ConfigInvalid>()("ConfigInvalid", {
  field: Schema.String,
  detail: Schema.String
}) {}

/** The snapshot offered as `previous` could not be read or decoded. */
export class PreviousInvalid extends Schema.TaggedError<PreviousInvalid>()("PreviousInvalid", {
  path: Schema.String,
  detail: Schema.String
}) {}

/** The snapshot could not be written. */
export class SnapshotUnwritable extends Schema.TaggedError<SnapshotUnwritable>()("SnapshotUnwritable", {
  path: Schema.String,
  detail: Schema.String
}) {}

export class DiscoveryError extends Schema.TaggedError<DiscoveryError>()("DiscoveryError", {
  reason: Schema.Union([SourceUnreadable, ConfigInvalid, PreviousInvalid, SnapshotUnwritable])
}) {
  /** Logs and CLI output read this; one line naming the input and the fix. */
  override get message(): string {
    const reason = this.reason
    switch (reason._tag) {
      case "SourceUnreadable":
        return `cannot read ${reason.path}: ${reason.detail} (check --root points at a readable directory)`
      case "ConfigInvalid":
        return `config.${reason.field}: ${reason.detail}`
      case "PreviousInvalid":
        return `--previous ${reason.path}: ${reason.detail} (pass a snapshot written by cairn snapshot, or omit it)`
      case "SnapshotUnwritable":
        return `cannot write ${reason.path}: ${reason.detail} (choose a writable --out path)`
    }
  }
}
