import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import type { Analysis } from "../../src/discovery/FileAnalysis.ts"
import { type AnalysisRequest, AnalyzerPool, inProcess } from "../../src/ports/AnalyzerPool.ts"
import { contract } from "../contracts/AnalyzerPool.contract.ts"
import { layer, make, MIN_POOLED_BATCH, pool } from "./AnalyzerPoolNode.ts"
import { groupsOf, shareBatch } from "./SharedBatch.ts"

// Every backend's behaviour: as discovery runs it, and with no worker or more workers than cores.
contract("node", layer)
contract("node, no worker", Layer.succeed(AnalyzerPool, make({ workers: 0 })))
contract("node, 3 workers", Layer.succeed(AnalyzerPool, make({ workers: 3 })))

const requests = Array.from({ length: MIN_POOLED_BATCH + 37 }, (_, i) => ({
  path: `docs/page-${i}.md`,
  text: `---\ntype: guide\n---\n# Page ${i}\n\nSee [next](./page-${i + 1}.md), \`src/m${i % 7}.ts\` and [[page-${i % 5}]].\n`
}))

describe("AnalyzerPoolNode", () => {
  it.effect("analyzeAll - a pooled batch answers exactly as in process, in request order", () =>
    Effect.gen(function*() {
      const pooled = yield* pool.analyzeAll("markdown", requests)
      const local = yield* inProcess.analyzeAll("markdown", requests)
      assert.strictEqual(pooled.length, requests.length)
      assert.deepStrictEqual(pooled, local)
    }), 60_000)

  it.effect("analyzeAll - a small batch stays in process", () =>
    Effect.gen(function*() {
      const few = requests.slice(0, 3)
      assert.deepStrictEqual(yield* pool.analyzeAll("markdown", few), yield* inProcess.analyzeAll("markdown", few))
    }))

  it.effect("shareBatch - a thread with other work first takes no group before it is done; the workers answer the batch meanwhile", () =>
    Effect.gen(function*() {
      const never = yield* Deferred.make<void>()
      let taken = 0
      const answered = yield* shareBatch({
        name: "analyzer",
        worker: new URL("./analyzerWorker.ts", import.meta.url),
        groups: groupsOf(requests, 20),
        context: "markdown",
        local: (group) => Effect.andThen(Effect.sync(() => taken++), inProcess.analyzeAll("markdown", group)),
        joinAfter: Deferred.await(never)
      })
      assert.strictEqual(taken, 0)
      assert.deepStrictEqual(answered, yield* inProcess.analyzeAll("markdown", requests))
    }), 60_000)

  it.effect("shareBatch - a worker loads the grammars its batch names and answers files read with tree-sitter as this thread does", () =>
    Effect.gen(function*() {
      const never = yield* Deferred.make<void>()
      const mixed = Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? { path: `py/m${i}.py`, analyzer: "python", text: `def settle_${i}(total):\n    return total\n` }
          : { path: `rs/m${i}.rs`, analyzer: "rust", text: `pub fn settle_${i}() -> u32 { ${i} }\n` })
      // This thread never joins, so every group is a worker's.
      const answered = yield* shareBatch<AnalysisRequest, Analysis, string, never, never>({
        name: "analyzer",
        worker: new URL("./analyzerWorker.ts", import.meta.url),
        groups: groupsOf(mixed, 20),
        context: "markdown",
        local: () => Effect.die("this thread was to take no group"),
        joinAfter: Deferred.await(never)
      })
      assert.deepStrictEqual(answered, yield* inProcess.analyzeAll("markdown", mixed))
      assert.deepStrictEqual(answered.map((analysis) => analysis.facts?._tag === "module" ? analysis.facts.declarations[0]?.name : undefined), mixed.map((_, i) => `settle_${i}`))
    }), 60_000)
})
