/**
 * Worker-thread entry of `ChunkerPoolNode`: claims groups of files from the batch it shares with
 * the main thread (`SharedBatch`) and answers each group's chunks, which are plain data. The
 * counter is the default cl100k counter, the only one the pool hands to workers.
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Effect } from "effect"
import { parentPort } from "node:worker_threads"
import { chunkFile, type ChunkFileInput } from "../../src/index/chunk/ChunkFile.ts"
import type { ChunkingConfig } from "../../src/index/chunk/ChunkingConfig.ts"
import { counter } from "../tokens/TokenCounterDefault.ts"
import { claim, type SharedGroups } from "./SharedBatch.ts"

parentPort?.on("message", (batch: SharedGroups<ChunkFileInput, ChunkingConfig>) => {
  const work = Effect.gen(function*() {
    for (let id = claim(batch.next); id < batch.groups.length; id = claim(batch.next)) {
      const results = yield* Effect.forEach(batch.groups[id]!, (request) => chunkFile(request, { ...batch.context, count: counter.count }))
      parentPort!.postMessage({ id, results })
    }
    parentPort!.postMessage({ id: -1, results: [] })
  })
  void Effect.runPromise(work.pipe(Effect.provide(NodeCrypto.layerDigest)))
})
