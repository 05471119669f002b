import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { AnalyzerPool, inProcess } from "../../src/ports/AnalyzerPool.ts"
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
})
