import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { Reranker } from "../../src/ports/Reranker.ts"
import { contract } from "../contracts/Reranker.contract.ts"
import * as RerankerMemory from "./RerankerMemory.ts"

contract("identity", RerankerMemory.layerIdentity)
contract("lexical overlap", RerankerMemory.layerLexicalOverlap)

const passages = (texts: ReadonlyArray<string>) => texts.map((text, i) => ({ id: `p/${i}.md#x` as ChunkId, text }))

describe("RerankerMemory", () => {
  it.effect("identity - abstains on every query, so the caller's order stands", () =>
    Effect.gen(function*() {
      const reranker = yield* Reranker
      assert.isTrue(Option.isNone(yield* reranker.score("retry backoff", passages(["retry with backoff", "other"]))))
      assert.isTrue(Option.isNone(yield* reranker.score("", [])))
    }).pipe(Effect.provide(RerankerMemory.layerIdentity)))

  it.effect("lexicalOverlap - scores the share of distinct query terms each passage contains, in input order", () =>
    Effect.gen(function*() {
      const reranker = yield* Reranker
      const scores = yield* reranker.score("retry the backoff", passages(["Retries with backoff and the jitter", "backoff only", "nothing relevant"]))
      assert.deepStrictEqual(Option.getOrThrow(scores), [1, 1 / 3, 0])
    }).pipe(Effect.provide(RerankerMemory.layerLexicalOverlap)))

  it.effect("lexicalOverlap - abstains when the query has no terms", () =>
    Effect.gen(function*() {
      const reranker = yield* Reranker
      assert.isTrue(Option.isNone(yield* reranker.score(" ?! ", passages(["anything"]))))
    }).pipe(Effect.provide(RerankerMemory.layerLexicalOverlap)))
})
