/**
 * What a scan reads and how it groups what it finds. Every field that can change the snapshot is
 * part of the configuration hash; `concurrency` only changes how fast it is produced, so it is not.
 */
import { Effect, Schema } from "effect"
import { ConfigInvalid, DiscoveryError } from "../domain/DiscoveryError.ts"
import { SECRET_RULES_VERSION } from "./SecretScan.ts"

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))

export const DiscoveryConfigSchema = Schema.Struct({
  /**
   * Gitignore-style patterns; when non-empty only matching files are scanned. A file that looks
   * like it holds secrets is read only when an entry here is exactly its path. Default `[]`.
   */
  include: Schema.Array(Schema.String),
  /** Gitignore-style patterns never scanned, on top of every `.gitignore`. Default `[]`. */
  exclude: Schema.Array(Schema.String),
  /** Files larger than this are reported as `skipped-size` and not read. Default 1 MiB. */
  maxFileBytes: PositiveInt,
  /** Directories holding modules become areas down to this many path segments. Default 2. */
  areaDepth: PositiveInt,
  /**
   * Gitignore-style patterns of files whose text is kept as written: the secret scanner
   * (`SecretScan.ts`) neither redacts nor reports them. Default `[]`: every file is scanned.
   */
  unredacted: Schema.Array(Schema.String),
  /** Files read and analysed at once. Default 16. Does not change the snapshot. */
  concurrency: PositiveInt
})
export type DiscoveryConfig = typeof DiscoveryConfigSchema.Type

export const defaults: DiscoveryConfig = {
  include: [],
  exclude: [],
  maxFileBytes: 1_048_576,
  areaDepth: 2,
  unredacted: [],
  concurrency: 16
}

const decode = Schema.decodeUnknownEffect(DiscoveryConfigSchema)

/** Fills defaults and validates; a bad value fails with `ConfigInvalid` naming the field. */
export const make = (overrides: Partial<DiscoveryConfig> = {}): Effect.Effect<DiscoveryConfig, DiscoveryError> =>
  decode({ ...defaults, ...overrides }).pipe(
    Effect.mapError((error) =>
      new DiscoveryError({
        reason: new ConfigInvalid({ field: firstField(error.message), detail: error.message.split("\n")[0] ?? "" })
      })
    )
  )

// The default formatter ends a message with `at <path>`; the first path segment is the field.
const firstField = (message: string): string => /at \["?([A-Za-z]+)/.exec(message)?.[1] ?? "config"

/**
 * The fields that shape the snapshot, in a fixed order, for the configuration hash; with the secret
 * rules' version, since they decide what a summary may quote.
 */
export const hashedFields = (config: DiscoveryConfig): string =>
  JSON.stringify([config.include, config.exclude, config.maxFileBytes, config.areaDepth, config.unredacted, SECRET_RULES_VERSION])
