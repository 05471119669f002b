/**
 * A Reranker over a model endpoint's `/rerank`: Hugging Face text-embeddings-inference's
 * (`{ query, texts }` → `[{ index, score }]`) or Cohere's, which Jina and others share
 * (`{ model, query, documents }` → `{ results: [{ index, relevance_score }] }`). Answers come
 * sorted by score; each is put back in the passages' order by its index, and an answer that does
 * not score every passage exactly once is refused, never guessed at.
 */
import { Effect, Layer, Option, Schema } from "effect"
import type { InvalidInput } from "../../src/domain/InvalidInput.ts"
import { Reranker, RerankerError } from "../../src/ports/Reranker.ts"
import { DEFAULTS, type RerankerModel } from "./ModelConfig.ts"
import { endpointWith, keyFrom } from "./ModelEndpoint.ts"
import { post } from "./ModelRequest.ts"

const TeiAnswer = Schema.Array(Schema.Struct({ index: Schema.Int, score: Schema.Number }))
const CohereAnswer = Schema.Struct({ results: Schema.Array(Schema.Struct({ index: Schema.Int, relevance_score: Schema.Number })) })
const decodeTei = Schema.decodeUnknownEffect(TeiAnswer)
const decodeCohere = Schema.decodeUnknownEffect(CohereAnswer)

export const idOf = (config: RerankerModel): string => `${config.kind}:${config.model}`

/** One score per passage, in the passages' order, from `(index, score)` pairs in any order. */
export const inPassageOrder = (pairs: ReadonlyArray<readonly [index: number, score: number]>, count: number): Array<number> | string => {
  const scores = new Array<number | undefined>(count).fill(undefined)
  for (const [index, score] of pairs) {
    if (index < 0 || index >= count) return `index ${index} names no passage of ${count}`
    if (scores[index] !== undefined) return `passage ${index} scored twice`
    if (!Number.isFinite(score)) return `passage ${index} scored ${score}`
    scores[index] = score
  }
  const missing = scores.findIndex((score) => score === undefined)
  return missing >= 0 ? `passage ${missing} was not scored` : (scores as Array<number>)
}

export const make = Effect.fnUntraced(function*(config: RerankerModel, env: Readonly<Record<string, string | undefined>>): Effect.fn.Return<Reranker["Service"], InvalidInput> {
  const key = yield* keyFrom(config.keyEnv, env, "models.reranker.keyEnv")
  const id = idOf(config)
  const url = endpointWith(config.url, "/rerank")
  const fail = (detail: string) => new RerankerError({ reranker: id, detail })
  const batchSize = config.batchSize ?? DEFAULTS.batchSize[config.kind]
  const scoreBatch = Effect.fn("RerankerHttp.scoreBatch")(function*(query: string, texts: ReadonlyArray<string>): Effect.fn.Return<ReadonlyArray<number>, RerankerError> {
    const body = config.kind === "tei"
      ? { query, texts, raw_scores: false, truncate: true }
      : { model: config.model, query, documents: texts, top_n: texts.length }
    const answer = yield* post({ url, body, key, keyEnv: config.keyEnv, timeoutMs: config.timeoutMs ?? DEFAULTS.timeoutMs, retries: config.retries ?? DEFAULTS.retries }).pipe(
      Effect.mapError((error) => fail(error.message))
    )
    const pairs = config.kind === "tei"
      ? yield* decodeTei(answer).pipe(
        Effect.map((results) => results.map((r) => [r.index, r.score] as const)),
        Effect.mapError((error) => fail(`the answer is not a list of scores (${error.message.split("\n")[0]})`))
      )
      : yield* decodeCohere(answer).pipe(
        Effect.map((decoded) => decoded.results.map((r) => [r.index, r.relevance_score] as const)),
        Effect.mapError((error) => fail(`the answer is not a list of scores (${error.message.split("\n")[0]})`))
      )
    const scores = inPassageOrder(pairs, texts.length)
    return typeof scores === "string" ? yield* fail(scores) : scores
  })
  return Reranker.of({
    id,
    score: (query, passages) =>
      Effect.gen(function*() {
        if (passages.length === 0) return Option.some([])
        // Each passage is scored against the query alone, so scores from separate requests compare.
        const batches: Array<ReadonlyArray<string>> = []
        for (let start = 0; start < passages.length; start += batchSize) batches.push(passages.slice(start, start + batchSize).map((passage) => passage.text))
        const scored = yield* Effect.forEach(batches, (texts) => scoreBatch(query, texts))
        return Option.some(scored.flat())
      })
  })
})

export const layer = (config: RerankerModel, env: Readonly<Record<string, string | undefined>>): Layer.Layer<Reranker, InvalidInput> =>
  Layer.effect(Reranker, make(config, env))
