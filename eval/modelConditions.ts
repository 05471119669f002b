/**
 * Conditions over a model endpoint the person running the bench points at (docs/models.md): the
 * corpus-trained dense leg against an HTTP embedding model, and the shipped pipeline with an HTTP
 * reranker, on the same questions in one run. Each is configured by an environment variable that
 * holds the `models.embedder` or `models.reranker` JSON of `cairn.config.json`; without it the
 * condition is refused up front, so no run waits on an endpoint nobody started.
 */
import { Effect, Layer, Result, Schema } from "effect"
import * as EmbedderHttp from "../layers/http-models/EmbedderHttp.ts"
import * as ModelConfig from "../layers/http-models/ModelConfig.ts"
import * as RerankerHttp from "../layers/http-models/RerankerHttp.ts"
import { fromSchemaError } from "../src/domain/InvalidInput.ts"
import { Embedder } from "../src/ports/Embedder.ts"
import { Reranker } from "../src/ports/Reranker.ts"
import type { Condition } from "./conditions.ts"

export const EMBEDDER_VARIABLE = "CAIRN_EVAL_EMBEDDER"
export const RERANKER_VARIABLE = "CAIRN_EVAL_RERANKER"

type Environment = Readonly<Record<string, string | undefined>>

const parsed = (variable: string, env: Environment): { readonly json: unknown } | string => {
  const raw = env[variable]
  if (raw === undefined || raw.trim() === "") return `set ${variable} to the model's JSON, as cairn.config.json's models section takes it (docs/models.md)`
  try {
    return { json: JSON.parse(raw) }
  } catch {
    return `${variable} is not JSON`
  }
}

const decoded = <A>(schema: Schema.Decoder<A>, variable: string, json: unknown): A | string => {
  const result = Effect.runSync(Effect.result(Schema.decodeUnknownEffect(schema)(json, { onExcessProperty: "error" })))
  if (Result.isSuccess(result)) return result.success
  const invalid = fromSchemaError(variable, result.failure)
  return `${variable}: ${invalid.field}: ${invalid.detail}`
}

/** The model conditions' names, for a list of what is known. */
export const MODEL_CONDITIONS = ["http-embedder", "http-reranker"] as const

/**
 * The model condition `name`, from `env`; a string saying what is missing when it cannot be made,
 * and undefined when `name` is no model condition.
 */
export const modelCondition = (name: string, env: Environment = process.env): Condition | string | undefined => {
  if (name === "http-embedder") {
    const input = parsed(EMBEDDER_VARIABLE, env)
    if (typeof input === "string") return `condition ${name}: ${input}`
    const config = decoded(ModelConfig.EmbedderModel, EMBEDDER_VARIABLE, input.json)
    if (typeof config === "string") return `condition ${name}: ${config}`
    return {
      name,
      description: `the dense leg embedded by ${config.kind}:${config.model} at ${config.url} instead of the corpus-trained model`,
      options: { dense: Layer.effect(Embedder, EmbedderHttp.make(config, env)) }
    }
  }
  if (name === "http-reranker") {
    const input = parsed(RERANKER_VARIABLE, env)
    if (typeof input === "string") return `condition ${name}: ${input}`
    const config = decoded(ModelConfig.RerankerModel, RERANKER_VARIABLE, input.json)
    if (typeof config === "string") return `condition ${name}: ${config}`
    return {
      name,
      description: `every stage, reranked by ${config.kind}:${config.model} at ${config.url}`,
      options: { reranker: Layer.effect(Reranker, RerankerHttp.make(config, env)) }
    }
  }
  return undefined
}
