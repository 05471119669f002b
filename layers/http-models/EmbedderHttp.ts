/**
 * An Embedder over a model endpoint: the OpenAI-compatible `/v1/embeddings` (OpenAI, vLLM,
 * llama.cpp, LM Studio, text-embeddings-inference) or Ollama's `/api/embed`. Texts go in batches,
 * several in flight at once; every vector is L2-normalised and held to the configured dimension,
 * so a model that answers with another length is refused instead of stored beside the others.
 */
import { Effect, Layer, Schema } from "effect"
import type { InvalidInput } from "../../src/domain/InvalidInput.ts"
import { checked, Embedder, EmbedderError, type EmbedderShape, type Vector } from "../../src/ports/Embedder.ts"
import { DEFAULTS, type EmbedderModel } from "./ModelConfig.ts"
import { post } from "./ModelRequest.ts"
import { endpointWith, keyFrom } from "./ModelEndpoint.ts"

const OpenAiAnswer = Schema.Struct({
  data: Schema.Array(Schema.Struct({ index: Schema.Int, embedding: Schema.Array(Schema.Number) }))
})
const OllamaAnswer = Schema.Struct({ embeddings: Schema.Array(Schema.Array(Schema.Number)) })
const decodeOpenAi = Schema.decodeUnknownEffect(OpenAiAnswer)
const decodeOllama = Schema.decodeUnknownEffect(OllamaAnswer)

/** The id of a configured model: a different one is another vector space. */
export const idOf = (config: EmbedderModel): string => `${config.kind}:${config.model}`

/** Changes with anything that changes the vectors the same model id returns. */
export const versionOf = (config: EmbedderModel): string =>
  `http/1 ${config.kind} ${config.model} ${config.dimensions}${config.sendDimensions === true ? " requested" : ""}`

const unit = (vector: ReadonlyArray<number>): Array<number> | undefined => {
  let sum = 0
  for (const x of vector) sum += x * x
  const norm = Math.sqrt(sum)
  return norm > 0 && Number.isFinite(norm) ? vector.map((x) => x / norm) : undefined
}

/** The embedder `config` names; its key read from `env` now, so a missing key fails before any request. */
export const make = Effect.fnUntraced(function*(config: EmbedderModel, env: Readonly<Record<string, string | undefined>>): Effect.fn.Return<EmbedderShape, InvalidInput> {
  const key = yield* keyFrom(config.keyEnv, env, "models.embedder.keyEnv")
  const id = idOf(config)
  // A server's bare address takes the API's whole path; a base that names a version takes the rest.
  const url = endpointWith(config.url, config.kind === "ollama" ? "/api/embed" : new URL(config.url).pathname.replace(/\/+$/, "") === "" ? "/v1/embeddings" : "/embeddings")
  const batchSize = config.batchSize ?? DEFAULTS.batchSize[config.kind]
  const concurrency = config.concurrency ?? DEFAULTS.concurrency
  const fail = (reason: EmbedderError["reason"], index: number, detail: string) => new EmbedderError({ embedder: id, reason, index, detail })

  const batch = Effect.fn("EmbedderHttp.batch")(function*(texts: ReadonlyArray<string>, offset: number): Effect.fn.Return<ReadonlyArray<Vector>, EmbedderError> {
    const body = config.kind === "openai"
      ? { model: config.model, input: texts, encoding_format: "float", ...(config.sendDimensions === true ? { dimensions: config.dimensions } : {}) }
      : { model: config.model, input: texts }
    const answer = yield* post({ url, body, key, keyEnv: config.keyEnv, timeoutMs: config.timeoutMs ?? DEFAULTS.timeoutMs, retries: config.retries ?? DEFAULTS.retries }).pipe(
      Effect.mapError((error) => fail("unavailable", -1, error.message))
    )
    const raw = config.kind === "openai"
      ? yield* decodeOpenAi(answer).pipe(
        // The API lets `data` come back in any order; `index` says whose each vector is, and
        // each text must have exactly one, or vectors would be cached under the wrong texts.
        Effect.map((decoded) => {
          const sorted = [...decoded.data].sort((a, b) => a.index - b.index)
          return sorted.every((entry, i) => entry.index === i) ? sorted.map((entry) => entry.embedding) : undefined
        }),
        Effect.mapError((error) => fail("unavailable", -1, `the answer is not an embeddings list (${error.message.split("\n")[0]})`))
      )
      : yield* decodeOllama(answer).pipe(
        Effect.map((decoded) => decoded.embeddings),
        Effect.mapError((error) => fail("unavailable", -1, `the answer is not an embeddings list (${error.message.split("\n")[0]})`))
      )
    if (raw === undefined) return yield* fail("count", -1, "the vectors' indexes are not each text's once, 0 to n-1")
    if (raw.length !== texts.length) return yield* fail("count", -1, `got ${raw.length} vectors for ${texts.length} texts`)
    const vectors: Array<Vector> = []
    for (let i = 0; i < raw.length; i++) {
      const vector = raw[i]!
      if (vector.length !== config.dimensions) {
        return yield* fail("length", offset + i, `${config.model} returned ${vector.length} dimensions, the configuration says ${config.dimensions}; set models.embedder.dimensions to what the model returns`)
      }
      const normalised = unit(vector)
      if (normalised === undefined) return yield* fail("norm", offset + i, "the model returned a zero or non-finite vector")
      vectors.push(normalised)
    }
    return vectors
  })

  return checked({
    id,
    version: versionOf(config),
    dimension: config.dimensions,
    embed: (texts) => {
      if (texts.length === 0) return Effect.succeed([])
      const batches: Array<{ readonly texts: ReadonlyArray<string>; readonly offset: number }> = []
      for (let start = 0; start < texts.length; start += batchSize) batches.push({ texts: texts.slice(start, start + batchSize), offset: start })
      return Effect.map(
        Effect.forEach(batches, (b) => batch(b.texts, b.offset), { concurrency }),
        (results) => results.flat()
      )
    }
  })
})

export const layer = (config: EmbedderModel, env: Readonly<Record<string, string | undefined>>): Layer.Layer<Embedder, InvalidInput> =>
  Layer.effect(Embedder, Effect.map(make(config, env), Embedder.of))

