import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { EmbedderError } from "../../src/ports/Embedder.ts"
import { contract } from "../contracts/Embedder.contract.ts"
import * as EmbedderHttp from "./EmbedderHttp.ts"
import type { EmbedderModel } from "./ModelConfig.ts"
import * as ModelServer from "./testing/ModelServer.ts"

const KEY = "sk-test-0123456789abcdef"

const openai = (url: string, extra: Partial<EmbedderModel> = {}): EmbedderModel => ({
  kind: "openai",
  url: `${url}/v1`,
  model: "test-embed",
  dimensions: 8,
  keyEnv: "TEST_EMBED_KEY",
  timeoutMs: 2_000,
  retries: 3,
  ...extra
})

const env = { TEST_EMBED_KEY: KEY }

/** A server and an embedder over it, for one test. */
const withServer = <A, E>(
  config: (url: string) => EmbedderModel,
  use: (server: ModelServer.ModelServer, embedder: Effect.Success<ReturnType<typeof EmbedderHttp.make>>) => Effect.Effect<A, E>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* ModelServer.start({ dimensions: 8 })
    const embedder = yield* EmbedderHttp.make(config(server.url), env)
    return yield* use(server, embedder)
  }))

const failure = (effect: Effect.Effect<unknown, EmbedderError>) => Effect.flip(effect)

contract(
  "OpenAI-compatible, against a local server",
  Layer.unwrap(Effect.map(ModelServer.start({ dimensions: 64 }), (server) => EmbedderHttp.layer(openai(server.url, { dimensions: 64 }), env)))
)
contract(
  "Ollama, against a local server",
  Layer.unwrap(Effect.map(ModelServer.start({ dimensions: 64 }), (server) =>
    EmbedderHttp.layer({ kind: "ollama", url: server.url, model: "nomic-embed-text", dimensions: 64 }, {})))
)

// Live: retries sleep and requests time out on the real clock, which the test clock would hold still.
describe("EmbedderHttp", () => {
  it.live("vectors are the server's, unit length, in the order of the texts, with the key sent as a bearer token", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        const texts = ["retry with backoff", "cache invalidation", ""]
        const vectors = yield* embedder.embed(texts)
        for (let i = 0; i < texts.length; i++) {
          const expected = ModelServer.vectorOf(texts[i]!, 8)
          for (let j = 0; j < 8; j++) assert.closeTo(vectors[i]![j]!, expected[j]!, 1e-9)
        }
        assert.strictEqual(server.requests.length, 1)
        const request = server.requests[0]!
        assert.strictEqual(request.path, "/v1/embeddings")
        assert.strictEqual(request.headers.authorization, `Bearer ${KEY}`)
        assert.deepInclude(request.body as object, { model: "test-embed", input: texts, encoding_format: "float" })
        assert.strictEqual(embedder.id, "openai:test-embed")
        assert.strictEqual(embedder.dimension, 8)
        // No text, no request.
        assert.deepStrictEqual(yield* embedder.embed([]), [])
        assert.strictEqual(server.requests.length, 1)
      })), 15_000)

  it.live("texts go in batches of batchSize, at most concurrency in flight, and come back in order", () =>
    withServer((url) => openai(url, { batchSize: 4, concurrency: 2 }), (server, embedder) =>
      Effect.gen(function*() {
        const texts = Array.from({ length: 22 }, (_, i) => `text number ${i} about topic ${i % 5}`)
        const vectors = yield* embedder.embed(texts)
        assert.strictEqual(server.requests.length, 6)
        assert.deepStrictEqual(server.requests.map((r) => (r.body as { input: Array<string> }).input.length).sort((a, b) => a - b), [2, 4, 4, 4, 4, 4])
        assert.isAtMost(server.maxInFlight(), 2)
        assert.strictEqual(server.maxInFlight(), 2)
        for (let i = 0; i < texts.length; i++) assert.closeTo(vectors[i]![0]!, ModelServer.vectorOf(texts[i]!, 8)[0]!, 1e-9)
      })), 15_000)

  it.live("a base URL or the full endpoint reach the same path; Ollama's is /api/embed with { model, input }", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start({ dimensions: 8 })
      for (const url of [server.url, `${server.url}/v1`, `${server.url}/v1/`, `${server.url}/v1/embeddings`]) {
        yield* (yield* EmbedderHttp.make(openai(server.url, { url }), env)).embed(["a"])
      }
      for (const url of [server.url, `${server.url}/api/embed`]) {
        yield* (yield* EmbedderHttp.make({ kind: "ollama", url, model: "nomic-embed-text", dimensions: 8 }, {})).embed(["a"])
      }
      assert.deepStrictEqual(server.requests.map((r) => r.path), ["/v1/embeddings", "/v1/embeddings", "/v1/embeddings", "/v1/embeddings", "/api/embed", "/api/embed"])
      assert.deepStrictEqual(server.requests[4]!.body, { model: "nomic-embed-text", input: ["a"] })
      assert.isUndefined(server.requests[4]!.headers.authorization)
    })), 15_000)

  it.live("a 429 waits out Retry-After, then succeeds", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ status: 429, retryAfter: "1" })
        const vectors = yield* embedder.embed(["alpha"])
        assert.strictEqual(vectors.length, 1)
        assert.strictEqual(server.requests.length, 2)
        assert.isAtLeast(server.requests[1]!.at - server.requests[0]!.at, 900)
      })), 15_000)

  it.live("500 and 502 are retried with backoff; past the retries the error names the status and the attempts", () =>
    withServer((url) => openai(url, { retries: 2 }), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ status: 500 }, { status: 502 })
        assert.strictEqual((yield* embedder.embed(["alpha"])).length, 1)
        assert.strictEqual(server.requests.length, 3)
        server.always = { status: 503 }
        const error = yield* failure(embedder.embed(["alpha"]))
        assert.strictEqual(error.reason, "unavailable")
        assert.include(error.message, "503")
        assert.include(error.message, "3 attempts")
        assert.strictEqual(server.requests.length, 6)
      })), 15_000)

  it.live("a request that hangs is abandoned after timeoutMs and retried; one that always hangs fails in bounded time", () =>
    withServer((url) => openai(url, { timeoutMs: 300, retries: 1 }), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ hang: true })
        assert.strictEqual((yield* embedder.embed(["alpha"])).length, 1)
        server.always = { hang: true }
        const started = performance.now()
        const error = yield* failure(embedder.embed(["alpha"]))
        assert.isBelow(performance.now() - started, 5_000)
        assert.include(error.message, "300 ms")
      })), 15_000)

  it.live("a refused connection is unavailable, with the endpoint named", () =>
    Effect.gen(function*() {
      // A port just closed by its server: nothing listens there.
      const url = yield* Effect.scoped(Effect.map(ModelServer.start(), (server) => server.url))
      const embedder = yield* EmbedderHttp.make(openai(url, { retries: 1, timeoutMs: 1_000 }), env)
      const error = yield* failure(embedder.embed(["alpha"]))
      assert.strictEqual(error.reason, "unavailable")
      assert.include(error.message, `${url}/v1/embeddings`)
    }), 15_000)

  it.live("a vector of another length than configured is refused, naming both; an unnormalised one is normalised", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ wrongDimensions: true })
        const error = yield* failure(embedder.embed(["alpha", "beta"]))
        assert.strictEqual(error.reason, "length")
        assert.include(error.message, "7 dimensions")
        assert.include(error.message, "8")
        server.faults.push({ unnormalised: true })
        const [vector] = yield* embedder.embed(["alpha"])
        assert.closeTo(Math.hypot(...vector!), 1, 1e-9)
      })), 15_000)

  it.live("an answer of the wrong shape is unavailable, saying so, not a crash", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ malformed: true })
        const error = yield* failure(embedder.embed(["alpha"]))
        assert.strictEqual(error.reason, "unavailable")
        assert.include(error.message, "not an embeddings list")
      })), 15_000)

  it.live("a refused key is said so, naming the variable; neither the key nor the header is in the error", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ status: 401 })
        const error = yield* failure(embedder.embed(["alpha"]))
        assert.include(error.message, "refused the key")
        for (const text of [error.message, JSON.stringify(error), String(error)]) {
          assert.notInclude(text, KEY)
          assert.notInclude(text, "Bearer")
        }
        // Not retried: a refused key stays refused.
        assert.strictEqual(server.requests.length, 1)
      })), 15_000)

  it.live("a key variable that is configured but unset fails before any request, naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(EmbedderHttp.make(openai("http://127.0.0.1:9"), {}))
      assert.strictEqual(error._tag, "InvalidInput")
      assert.strictEqual(error.field, "models.embedder.keyEnv")
      // The field, not its value: a key pasted into keyEnv would be printed otherwise.
      assert.notInclude(error.message, "TEST_EMBED_KEY")
      const pasted = yield* Effect.flip(EmbedderHttp.make({ ...openai("http://127.0.0.1:9"), keyEnv: "jina_0123456789abcdef" }, {}))
      assert.notInclude(pasted.message, "jina_0123456789abcdef")
    }), 15_000)

  it.live("a key holding a control character is refused before any request, the key never quoted", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(EmbedderHttp.make(openai("http://127.0.0.1:9"), { TEST_EMBED_KEY: "sk-SEC\nRET" }))
      assert.strictEqual(error.field, "models.embedder.keyEnv")
      assert.notInclude(error.message, "SEC")
    }), 15_000)

  it.live("vectors whose indexes are not each text's once are refused, never cached under the wrong texts", () =>
    withServer((url) => openai(url), (server, embedder) =>
      Effect.gen(function*() {
        server.faults.push({ duplicateIndex: true })
        const error = yield* failure(embedder.embed(["alpha", "beta"]))
        assert.strictEqual(error.reason, "count")
      })), 15_000)

  it.live("the version moves with anything that moves the vectors", () =>
    Effect.sync(() => {
      const base = openai("http://127.0.0.1:9")
      const versions = new Set([
        EmbedderHttp.versionOf(base),
        EmbedderHttp.versionOf({ ...base, dimensions: 16 }),
        EmbedderHttp.versionOf({ ...base, model: "other" }),
        EmbedderHttp.versionOf({ ...base, kind: "ollama" }),
        EmbedderHttp.versionOf({ ...base, sendDimensions: true })
      ])
      assert.strictEqual(versions.size, 5)
      // Not the URL or the key: the same model served elsewhere embeds alike.
      assert.strictEqual(EmbedderHttp.versionOf({ ...base, url: "https://example.com/v1" }), EmbedderHttp.versionOf(base))
    }))
})
