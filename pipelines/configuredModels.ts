/**
 * The models a repository's `cairn.config.json` names (`models`, docs/models.md), made once per
 * process from the configuration and the environment, which holds their keys: the same embedder
 * indexes and embeds questions, and the reranker, when there is one, serves stage 6.
 */
import { Effect, Layer } from "effect"
import * as EmbedderHttp from "../layers/http-models/EmbedderHttp.ts"
import * as RerankerHttp from "../layers/http-models/RerankerHttp.ts"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import { Embedder, type EmbedderShape } from "../src/ports/Embedder.ts"
import { Reranker } from "../src/ports/Reranker.ts"
import type { RepositoryConfig } from "./repositoryConfig.ts"

export interface ConfiguredModels {
  /** Indexes in place of the corpus-trained model (`IndexOptions.embedder`). */
  readonly embedder?: EmbedderShape
  /** The same, for the recall layers (`EmbeddedOptions.embedder`). */
  readonly embedderLayer?: Layer.Layer<Embedder>
  readonly reranker?: Layer.Layer<Reranker>
}

/** The models of `config`; none when it names none. A key variable that is unset fails, naming the field. */
export const configuredModels = Effect.fn("configuredModels.configuredModels")(function*(
  config: RepositoryConfig,
  env: Readonly<Record<string, string | undefined>> = process.env
): Effect.fn.Return<ConfiguredModels, InvalidInput> {
  const models = config.models
  if (models === undefined) return {}
  const embedder = models.embedder === undefined ? undefined : yield* EmbedderHttp.make(models.embedder, env)
  const reranker = models.reranker === undefined ? undefined : yield* RerankerHttp.make(models.reranker, env)
  return {
    ...(embedder === undefined ? {} : { embedder, embedderLayer: Layer.succeed(Embedder, embedder) }),
    ...(reranker === undefined ? {} : { reranker: Layer.succeed(Reranker, reranker) })
  }
})

/** The recall options the models give (`recallLayer`'s `embedder` and `reranker`). */
export const recallModels = (models: ConfiguredModels): { readonly embedder?: Layer.Layer<Embedder>; readonly reranker?: Layer.Layer<Reranker> } => ({
  ...(models.embedderLayer === undefined ? {} : { embedder: models.embedderLayer }),
  ...(models.reranker === undefined ? {} : { reranker: models.reranker })
})
