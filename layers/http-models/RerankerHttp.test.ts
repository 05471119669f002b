import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { contract } from "../contracts/Reranker.contract.ts"
import type { RerankerModel } from "./ModelConfig.ts"
import * as RerankerHttp from "./RerankerHttp.ts"
import * as ModelServer from "./testing/ModelServer.ts"

const passages = ["the cache is invalidated on write", "retry with exponential backoff", "backoff and retry when rate limited"]
  .map((text, i) => ({ id: `p${i}` as ChunkId, text }))

const config = (kind: RerankerModel["kind"], url: string): RerankerModel => ({ kind, url, model: "test-rerank", timeoutMs: 2_000, retries: 1 })

contract("TEI, against a local server", Layer.unwrap(Effect.map(ModelServer.start(), (server) => RerankerHttp.layer(config("tei", server.url), {}))))
contract("Cohere, against a local server", Layer.unwrap(Effect.map(ModelServer.start(), (server) => RerankerHttp.layer(config("cohere", server.url), {}))))

// Live: retries sleep on the real clock.
describe("RerankerHttp", () => {
  for (const kind of ["tei", "cohere"] as const) {
    it.live(`${kind}: scores come back in the passages' order, though the server sorts them by score`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* ModelServer.start()
        const reranker = yield* RerankerHttp.make(config(kind, server.url), {})
        const scores = yield* reranker.score("retry backoff", passages)
        assert.isTrue(Option.isSome(scores))
        const expected = passages.map((p) => ModelServer.scoreOf("retry backoff", p.text))
        const got = Option.getOrThrow(scores)
        for (let i = 0; i < passages.length; i++) assert.closeTo(got[i]!, expected[i]!, 1e-12)
        const request = server.requests[0]!
        assert.strictEqual(request.path, "/rerank")
        assert.deepInclude(request.body as object, kind === "tei" ? { query: "retry backoff", texts: passages.map((p) => p.text) } : { model: "test-rerank", documents: passages.map((p) => p.text), top_n: 3 })
        assert.deepStrictEqual(yield* reranker.score("q", []), Option.some([]))
        assert.strictEqual(server.requests.length, 1)
      })), 15_000)
  }

  it.live("a server that keeps failing is a RerankerError naming the endpoint, never the key", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start()
      const key = "jina_secret_0123456789"
      const reranker = yield* RerankerHttp.make({ ...config("cohere", `${server.url}/v1`), keyEnv: "RERANK_KEY" }, { RERANK_KEY: key })
      server.always = { status: 500 }
      const error = yield* Effect.flip(reranker.score("q", passages))
      assert.strictEqual(error._tag, "RerankerError")
      assert.include(error.message, `${server.url}/v1/rerank`)
      assert.include(error.message, "2 attempts")
      server.always = { status: 401 }
      const refused = yield* Effect.flip(reranker.score("q", passages))
      for (const text of [error.message, refused.message, JSON.stringify(refused)]) assert.notInclude(text, key)
      assert.strictEqual(server.requests.at(-1)!.headers.authorization, `Bearer ${key}`)
    })), 15_000)

  it.live("passages past batchSize go in several requests; the scores still come back one per passage, in order", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start()
      const reranker = yield* RerankerHttp.make({ ...config("tei", server.url), batchSize: 2 }, {})
      const many = Array.from({ length: 5 }, (_, i) => ({ id: `q${i}` as ChunkId, text: i % 2 === 0 ? `retry attempt ${i}` : `unrelated ${i}` }))
      const scores = Option.getOrThrow(yield* reranker.score("retry", many))
      assert.deepStrictEqual(server.requests.map((r) => (r.body as { texts: Array<string> }).texts.length), [2, 2, 1])
      for (let i = 0; i < many.length; i++) assert.closeTo(scores[i]!, ModelServer.scoreOf("retry", many[i]!.text), 1e-12)
    })), 15_000)

  it.live("an answer of the wrong shape is a RerankerError, not a crash", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start()
      const reranker = yield* RerankerHttp.make(config("cohere", server.url), {})
      server.faults.push({ malformed: true })
      const error = yield* Effect.flip(reranker.score("q", passages))
      assert.include(error.message, "not a list of scores")
    })), 15_000)

  it.live("an unset key variable fails before any request, naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(RerankerHttp.make({ ...config("tei", "http://127.0.0.1:9"), keyEnv: "NO_SUCH_KEY" }, {}))
      assert.strictEqual(error.field, "models.reranker.keyEnv")
    }), 15_000)

  it("an answer that does not score every passage exactly once is refused", () => {
    assert.deepStrictEqual(RerankerHttp.inPassageOrder([[1, 0.5], [0, 0.9]], 2), [0.9, 0.5])
    assert.include(RerankerHttp.inPassageOrder([[0, 0.9]], 2) as string, "passage 1 was not scored")
    assert.include(RerankerHttp.inPassageOrder([[0, 0.9], [0, 0.1]], 1) as string, "twice")
    assert.include(RerankerHttp.inPassageOrder([[2, 0.9]], 2) as string, "index 2")
    assert.include(RerankerHttp.inPassageOrder([[0, Number.NaN]], 1) as string, "NaN")
  })
})
