import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ModelServer from "../layers/http-models/testing/ModelServer.ts"
import { corpus } from "../test/support/Corpus.ts"
import { conditionNamed } from "./conditions.ts"
import type { EvalCorpus } from "./Corpus.ts"
import { EMBEDDER_VARIABLE, modelCondition, RERANKER_VARIABLE } from "./modelConditions.ts"
import { runBench } from "./run.ts"

const evalCorpus: EvalCorpus = {
  name: "fixture",
  chunks: corpus.chunks,
  edges: corpus.edges,
  documents: new Map(corpus.chunks.map((c) => [c.noteId, c.text])),
  anchor: Date.UTC(2026, 9, 1),
  conflicts: [],
  gapPremises: [],
  staleNotes: new Set()
}

const questions = [
  { file: "fixture.json", question: { id: "pos-1", question: "how do I roll back a deploy?", intent: "reference", difficulty: "easy", relevant: ["runbooks/rollback.md"], split: "dev" } as const }
]

describe("model conditions", () => {
  it("without the variable, or with a bad one, a condition is refused up front, saying what to set", () => {
    assert.include(modelCondition("http-embedder", {}) as string, EMBEDDER_VARIABLE)
    assert.include(modelCondition("http-reranker", {}) as string, RERANKER_VARIABLE)
    assert.include(modelCondition("http-embedder", { [EMBEDDER_VARIABLE]: "{nope" }) as string, "not JSON")
    assert.include(modelCondition("http-embedder", { [EMBEDDER_VARIABLE]: JSON.stringify({ kind: "openai", url: "http://x" }) }) as string, "model")
    assert.isUndefined(modelCondition("full", {}))
  })

  it.live("the corpus-trained dense leg and an HTTP model, and an HTTP reranker, run as conditions of one bench run", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start({ dimensions: 32 })
      const env = {
        [EMBEDDER_VARIABLE]: JSON.stringify({ kind: "ollama", url: server.url, model: "nomic-embed-text", dimensions: 32 }),
        [RERANKER_VARIABLE]: JSON.stringify({ kind: "tei", url: server.url, model: "bge-reranker-base" })
      }
      const embedder = modelCondition("http-embedder", env)
      const reranker = modelCondition("http-reranker", env)
      assert.isTrue(typeof embedder === "object" && typeof reranker === "object")
      if (typeof embedder !== "object" || typeof reranker !== "object") return
      const bench = yield* runBench({
        corpus: evalCorpus,
        questions,
        // Rerank reads every corpus, however small, so the fixture's question reaches the model.
        conditions: [conditionNamed("full")!, embedder, { ...reranker, options: { ...reranker.options, config: { rerankMinCorpus: 0 } } }],
        concurrency: 1
      })
      assert.deepStrictEqual(bench.conditions.map((c) => c.condition), ["full", "http-embedder", "http-reranker"])
      assert.deepStrictEqual(bench.deltas.map((d) => d.condition), ["http-embedder", "http-reranker"])
      // The model embedded the corpus and the question; the reranker was asked.
      const embedded = server.requests.filter((r) => r.path === "/api/embed").flatMap((r) => (r.body as { input: Array<string> }).input)
      assert.isAtLeast(embedded.length, evalCorpus.chunks.length + 1)
      assert.isTrue(server.requests.some((r) => r.path === "/rerank"))
    })), 60_000)
})
