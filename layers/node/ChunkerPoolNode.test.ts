import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { ChunkerPool, inProcess } from "../../src/ports/ChunkerPool.ts"
import { contract } from "../contracts/ChunkerPool.contract.ts"
import { counter as approximate } from "../tokens/TokenCounterApproximate.ts"
import * as TokenCounterDefault from "../tokens/TokenCounterDefault.ts"
import { counter as pooledCounter } from "../tokens/TokenCounterDefault.ts"
import { layer, make, MIN_POOLED_BATCH, pool } from "./ChunkerPoolNode.ts"
import type { GroupAnswer, SharedGroups } from "./SharedBatch.ts"

// Every backend's behaviour: as the index runs it, and with no worker or more workers than cores.
contract("node", Layer.merge(layer, TokenCounterDefault.layer))
contract("node, no worker", Layer.merge(Layer.succeed(ChunkerPool, make({ workers: 0 })), TokenCounterDefault.layer))
contract("node, 3 workers", Layer.merge(Layer.succeed(ChunkerPool, make({ workers: 3 })), TokenCounterDefault.layer))

const section = (i: number) => `## Part ${i}\n\n${"The cache keeps entries for a day before the sweeper runs. ".repeat(1 + (i % 40))}\n`
const requests = Array.from({ length: MIN_POOLED_BATCH + 41 }, (_, i) =>
  // Every seventh file is Python, which a worker reads with its own tree-sitter runtime.
  i % 7 === 3
    ? { path: `py/m${i}.py`, text: `import os\n\n\nclass Box${i}:\n    """A box."""\n\n    def size(self):\n        return ${i}\n\n\ndef double_${i}(n):\n    return n * 2\n` }
    : i % 2 === 0
    ? { path: `docs/page-${i}.md`, text: `---\ntype: runbook\n---\n# Page ${i}\n\n${Array.from({ length: 1 + (i % 9) }, (_, j) => section(i + j)).join("\n")}` }
    : {
      path: `src/m${i}.ts`,
      text: `import { x } from "./x.ts"\n\n/** Doubles. */\nexport const double${i} = (n: number) => n * 2\n\nexport class Box${i} {\n  value = ${i}\n}\n`,
      history: Array.from({ length: 9 }, (_, line) => ({ line: line + 1, authorTime: 1_700_000_000 + i * 60 + line, author: "Ada", authorMail: "ada@example.org" }))
    })

describe("ChunkerPoolNode", () => {
  it.effect("chunkAll - a pooled batch gives exactly the chunks chunked in process, in request order, with progress", () =>
    Effect.gen(function*() {
      const progress: Array<number> = []
      const pooled = yield* pool.chunkAll(requests, pooledCounter, (done) => progress.push(done))
      const local = yield* inProcess.chunkAll(requests, pooledCounter)
      assert.strictEqual(pooled.length, requests.length)
      assert.deepStrictEqual(pooled, local)
      assert.isTrue(pooled.every((chunks, i) => chunks.every((chunk) => chunk.path === requests[i]!.path)))
      // Python files were chunked by their outline there too, not by lines.
      assert.deepStrictEqual(pooled[3]!.map((chunk) => chunk.text.split("\n")[0]), ["py/m3.py", "py/m3.py > Box3", "py/m3.py > double_3"])
      assert.strictEqual(progress.at(-1), requests.length)
      assert.deepStrictEqual(progress, [...progress].sort((a, b) => a - b))
    }).pipe(Effect.provide(NodeCrypto.layerDigest)), 60_000)

  it.effect("session - batch after batch, the same chunks as in process, from workers started once and ended with the scope", () =>
    Effect.gen(function*() {
      const started: Array<Worker> = []
      const post = Worker.prototype.postMessage
      // Every worker a batch is shared with is posted the batch: the distinct ones are the workers started.
      Worker.prototype.postMessage = function(this: Worker, ...args: Parameters<typeof post>) {
        if (!started.includes(this)) started.push(this)
        return post.apply(this, args)
      } as typeof post
      const exited: Array<number> = []
      const batches = [requests, requests.slice(0, MIN_POOLED_BATCH), requests.slice(7)]
      const chunked = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* pool.session
        const results = []
        for (const batch of batches) results.push(yield* session.chunkAll(batch, pooledCounter))
        for (const worker of started) worker.once("exit", (code) => exited.push(code))
        return results
      })).pipe(Effect.ensuring(Effect.sync(() => {
        Worker.prototype.postMessage = post
      })))
      for (const [i, batch] of batches.entries()) assert.deepStrictEqual(chunked[i], yield* inProcess.chunkAll(batch, pooledCounter), `batch ${i}`)
      assert.isAbove(started.length, 0)
      assert.strictEqual(started.length, Math.max(1, availableParallelism() - 1))
      // The scope's end terminated them.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      assert.strictEqual(exited.length, started.length)
    }).pipe(Effect.provide(NodeCrypto.layerDigest)), 60_000)

  it.effect("chunkAll - a worker that fails leaves its groups to the main thread: same chunks, progress to the end", () =>
    Effect.gen(function*() {
      // The worker is handed files it cannot read, from the third group on, and throws there.
      const post = Worker.prototype.postMessage
      Worker.prototype.postMessage = function(this: Worker, message: { groups: ReadonlyArray<ReadonlyArray<unknown>> }, ...rest: Array<never>) {
        const broken = { ...message, groups: message.groups.map((group, i) => (i < 2 ? group : group.map((request) => ({ ...(request as object), text: null })))) }
        return post.call(this, broken, ...rest)
      } as typeof post
      const progress: Array<number> = []
      const pooled = yield* pool.chunkAll(requests, pooledCounter, (done) => progress.push(done)).pipe(
        Effect.ensuring(Effect.sync(() => {
          Worker.prototype.postMessage = post
        }))
      )
      assert.deepStrictEqual(pooled, yield* inProcess.chunkAll(requests, pooledCounter))
      assert.strictEqual(progress.at(-1), requests.length)
    }).pipe(Effect.provide(NodeCrypto.layerDigest)), 60_000)

  it.effect("chunkAll - the workers chunk under the caller's settings, as the calling thread does", () =>
    Effect.gen(function*() {
      const settings = { targetTokens: 64, agentPatterns: ["ada@"] }
      const pooled = yield* pool.chunkAll(requests, pooledCounter, undefined, settings)
      assert.deepStrictEqual(pooled, yield* inProcess.chunkAll(requests, pooledCounter, undefined, settings))
      const byDefault = yield* inProcess.chunkAll(requests, pooledCounter)
      assert.isAbove(pooled.flat().length, byDefault.flat().length)
      // Every code file's author is Ada, whom the settings name an agent.
      assert.isTrue(pooled.flat().filter((chunk) => chunk.path.endsWith(".ts")).every((chunk) => chunk.provenance.authorKind === "agent"))
      assert.isTrue(byDefault.flat().filter((chunk) => chunk.path.endsWith(".ts")).every((chunk) => chunk.provenance.authorKind === "human"))

      // The calling thread may claim every group before a worker starts, so a worker is also asked alone.
      const worker = new Worker(new URL("./chunkerWorker.ts", import.meta.url))
      const groups = [requests.slice(0, 20), requests.slice(20, 41)]
      const answers = yield* Effect.promise(() =>
        new Promise<Array<GroupAnswer<ReadonlyArray<unknown>>>>((resolve) => {
          const received: Array<GroupAnswer<ReadonlyArray<unknown>>> = []
          worker.on("message", (answer: GroupAnswer<ReadonlyArray<unknown>>) => {
            if (answer.id === -1) resolve(received)
            else received.push(answer)
          })
          worker.postMessage({ groups, next: new SharedArrayBuffer(4), context: settings } satisfies SharedGroups<unknown, typeof settings>)
        })).pipe(Effect.ensuring(Effect.promise(() => worker.terminate())))
      assert.deepStrictEqual(answers.sort((a, b) => a.id - b.id).flatMap((answer) => answer.results), pooled.slice(0, 41))
    }).pipe(Effect.provide(NodeCrypto.layerDigest)), 60_000)

  it.effect("chunkAll - a batch counted by another counter stays in process and counts by that counter", () =>
    Effect.gen(function*() {
      const pooled = yield* pool.chunkAll(requests, approximate)
      assert.deepStrictEqual(pooled, yield* inProcess.chunkAll(requests, approximate))
    }).pipe(Effect.provide(NodeCrypto.layerDigest)), 60_000)
})
