/**
 * The `models` section of `cairn.config.json`: an embedding model and a reranker behind HTTP
 * endpoints a user runs or rents. Only the name of the environment variable holding a key is
 * configured, never the key, so the file can be committed and the key never reaches the index.
 *
 * ```json
 * "models": {
 *   "embedder": { "kind": "openai", "url": "http://localhost:8000/v1", "model": "nomic-embed-text", "dimensions": 768, "keyEnv": "EMBED_KEY" },
 *   "reranker": { "kind": "tei", "url": "http://localhost:8081", "model": "bge-reranker-base" }
 * }
 * ```
 */
import { Effect, Schema } from "effect"
import { fromSchemaError, type InvalidInput } from "../../src/domain/InvalidInput.ts"

/** An `http:` or `https:` URL that parses; credentials belong in `keyEnv`, not in the URL. */
const EndpointUrl = Schema.String.check(Schema.makeFilter((url: string) => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "give an http:// or https:// URL"
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "give an http:// or https:// URL"
  if (parsed.username !== "" || parsed.password !== "") return "put no credentials in the URL; name the environment variable that holds the key in keyEnv"
  return true
}))

/** The name of an environment variable, as a shell would accept it. */
const EnvName = Schema.String.check(Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/))

const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

/** What every HTTP model accepts: how long a request may take and how often a failing one is retried. */
const requestFields = {
  url: EndpointUrl,
  model: Schema.String.check(Schema.isMinLength(1)),
  keyEnv: Schema.optionalKey(EnvName),
  /** Milliseconds one request may take before it is abandoned (and retried). */
  timeoutMs: Schema.optionalKey(between(100, 600_000)),
  /** Retries of a request answered 429 or 5xx, or not answered at all. */
  retries: Schema.optionalKey(between(0, 20))
}

export const EmbedderModel = Schema.Struct({
  /** `openai`: the OpenAI-compatible `/v1/embeddings`; `ollama`: Ollama's `/api/embed`. */
  kind: Schema.Literals(["openai", "ollama"]),
  ...requestFields,
  /** The length of the model's vectors; a response of another length is refused. */
  dimensions: between(1, 65_536),
  /** Ask the endpoint for vectors of `dimensions` (OpenAI's `dimensions` parameter), for models that shorten theirs. */
  sendDimensions: Schema.optionalKey(Schema.Boolean),
  /** Texts per request. */
  batchSize: Schema.optionalKey(between(1, 2_048)),
  /** Requests in flight at once. */
  concurrency: Schema.optionalKey(between(1, 64))
})
export type EmbedderModel = typeof EmbedderModel.Type

export const RerankerModel = Schema.Struct({
  /** `tei`: Hugging Face text-embeddings-inference's `/rerank`; `cohere`: Cohere's (and Jina's) `/rerank`. */
  kind: Schema.Literals(["tei", "cohere"]),
  ...requestFields,
  /** Passages per request; text-embeddings-inference refuses more than its client batch size, 32 by default. */
  batchSize: Schema.optionalKey(between(1, 1_000))
})
export type RerankerModel = typeof RerankerModel.Type

export const ModelsConfig = Schema.Struct({
  embedder: Schema.optionalKey(EmbedderModel),
  reranker: Schema.optionalKey(RerankerModel)
})
export type ModelsConfig = typeof ModelsConfig.Type

/** Defaults where the configuration is silent. */
export const DEFAULTS = {
  timeoutMs: 30_000,
  retries: 4,
  batchSize: { openai: 64, ollama: 16, tei: 32, cohere: 100 },
  concurrency: 4
} as const

/** The file a `models` section is read from, named in its errors. */
export const CONFIG_FILE_NAME = "cairn.config.json"

const decodeStrict = Schema.decodeUnknownEffect(ModelsConfig)

/** Checks a `models` section; an unknown key or a bad value fails naming the field (`models.embedder.url`). */
export const decode = (input: unknown): Effect.Effect<ModelsConfig, InvalidInput> =>
  decodeStrict(input ?? {}, { onExcessProperty: "error" }).pipe(Effect.mapError((error) => fromSchemaError("models", error)))
