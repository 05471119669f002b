/**
 * What a caller may set of chunking: the token target and the patterns that mark agent authors.
 * Chunks made under other settings are other chunks, so the index records the settings it was
 * built under (`fingerprint`) and rebuilds when they change rather than mixing the two.
 */
import { Effect, Schema } from "effect"
import { fromSchemaError, type InvalidInput } from "../../domain/InvalidInput.ts"
import { SECRET_RULES_VERSION } from "../../discovery/SecretScan.ts"
import { CODE_CHUNK_RULES, DEFAULT_AGENT_PATTERNS, DEFAULT_TARGET_TOKENS } from "./ChunkOptions.ts"

/**
 * Smallest and largest token target accepted: below, a header line fills the chunk; above, one
 * chunk crowds out the rest of any pack (the default budget is 4,000 tokens, the largest 32,000).
 */
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

/**
 * The settings in force, defaults filled in, as one string: what the index records. Agent patterns
 * match ignoring case and order, so they are recorded lowercased, once each and sorted: writing
 * them otherwise does not rebuild the index. The secret rules and the files kept `unredacted`
 * (discovery's setting) decide a chunk's words too: an index built under others is rebuilt, so no
 * chunk keeps a secret later rules redact. So do the rules that cut code (`CODE_CHUNK_RULES`).
 */
export const fingerprint = (config: ChunkingConfig, unredacted: ReadonlyArray<string> = []): string =>
  JSON.stringify({
    targetTokens: config.targetTokens ?? DEFAULT_TARGET_TOKENS,
    agentPatterns: [...new Set((config.agentPatterns ?? DEFAULT_AGENT_PATTERNS).map((pattern) => pattern.toLowerCase()))].sort(),
    redaction: [SECRET_RULES_VERSION, ...[...new Set(unredacted)].sort()],
    rules: CODE_CHUNK_RULES
  })

/** The settings of today's defaults. */
export const DEFAULT_FINGERPRINT = fingerprint({})

/**
 * What every build before the index recorded its settings was made under: the defaults of that
 * time, spelt out so that a later change of defaults still rebuilds those indexes. The schema
 * migration that adds the record writes it into them.
 */
export const BEFORE_RECORDED_FINGERPRINT = '{"targetTokens":350,"agentPatterns":["-bot","[bot]","bot@"]}'
