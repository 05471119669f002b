/**
 * What a caller may set of chunking: the token target and the patterns that mark agent authors.
 * Chunks made under other settings are other chunks, so the index records the settings it was
 * built under (`fingerprint`) and rebuilds when they change rather than mixing the two.
 */
import { Effect, Schema } from "effect"
import { fromSchemaError, type InvalidInput } from "../../domain/InvalidInput.ts"
import { DEFAULT_AGENT_PATTERNS, DEFAULT_TARGET_TOKENS } from "./ChunkOptions.ts"

/** Smallest and largest token target accepted: below, a header line fills the chunk; above, a chunk outgrows a pack. */
export const MIN_TARGET_TOKENS = 64
export const MAX_TARGET_TOKENS = 8_000

export const ChunkingConfig = Schema.Struct({
  targetTokens: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: MIN_TARGET_TOKENS, maximum: MAX_TARGET_TOKENS }))),
  agentPatterns: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isMinLength(1))))
})
export type ChunkingConfig = typeof ChunkingConfig.Type

const decodeStrict = Schema.decodeUnknownEffect(ChunkingConfig)

/** Checks a caller's settings; an unknown key or a value out of range fails naming the field. */
export const decode = (input: unknown): Effect.Effect<ChunkingConfig, InvalidInput> =>
  decodeStrict(input ?? {}, { onExcessProperty: "error" }).pipe(Effect.mapError((error) => fromSchemaError("chunking", error)))

/** The settings in force, defaults filled in, as one string: what the index records. */
export const fingerprint = (config: ChunkingConfig): string =>
  JSON.stringify({
    targetTokens: config.targetTokens ?? DEFAULT_TARGET_TOKENS,
    agentPatterns: config.agentPatterns ?? DEFAULT_AGENT_PATTERNS
  })

/** What an index built before the index recorded its settings was built under. */
export const DEFAULT_FINGERPRINT = fingerprint({})
