import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Reranker } from "../ports/Reranker.ts"
import * as ScoreComponents from "../domain/ScoreComponents.ts"
import { candidate } from "../../test/support/Fixtures.ts"
import { layer, RerankStage } from "./rerank.ts"

const list = [0.03, 0.02, 0.01].map((score, i) => candidate({ id: `n${i}.md#0`, text: `passage ${i}`, score }))
const byPosition = Layer.succeed(Reranker, {
  id: "test/reverse",
  score: (_query, passages) => Effect.succeed(Option.some(passages.map((_, i) => i + 1)))
})
const options = { rerankMinCorpus: 200, rerankCandidateLimit: 2, corpusSize: 500 }

describe("rerank", () => {
  it.effect("scores at most rerankCandidateLimit, in score order, and its score replaces the base", () =>
    Effect.gen(function*() {
      const stage = yield* RerankStage
      const result = yield* stage.rerank("q", list, options)
      assert.strictEqual(result.outcome, "scored")
      assert.deepStrictEqual(result.candidates.map((c) => `${c.chunk.id}=${c.components.rerank}`), ["n0.md#0=1", "n1.md#0=2"])
      for (const c of result.candidates) assert.strictEqual(c.score, ScoreComponents.score(c.components))
    }).pipe(Effect.provide(Layer.merge(layer, byPosition))))

  it.effect("skipped below rerankMinCorpus, and when no reranker is provided", () =>
    Effect.gen(function*() {
      const stage = yield* RerankStage
      const small = yield* stage.rerank("q", list, { ...options, corpusSize: 199 }).pipe(Effect.provide(byPosition))
      assert.strictEqual(small.outcome, "skipped")
      assert.strictEqual(small.candidates, list)
      const none = yield* stage.rerank("q", list, options)
      assert.strictEqual(none.outcome, "skipped")
    }).pipe(Effect.provide(layer)))

  it.effect("a reranker returning the wrong number of scores fails with RerankerError", () =>
    Effect.gen(function*() {
      const stage = yield* RerankStage
      const error = yield* Effect.flip(stage.rerank("q", list, options))
      assert.strictEqual(error._tag, "RerankerError")
    }).pipe(Effect.provide(Layer.merge(layer, Layer.succeed(Reranker, {
      id: "test/short",
      score: () => Effect.succeed(Option.some([1]))
    })))))
})
