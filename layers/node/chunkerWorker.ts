/**
 * Worker-thread entry of `ChunkerPoolNode`. It receives a whole batch at once and claims groups of
 * files from a counter it shares with the main thread, which claims groups too; each finished
 * group's chunks go back as one message. Chunks are plain data; the counter is the WebAssembly
 * cl100k counter, the only one the pool hands to workers.
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Effect } from "effect"
import { parentPort } from "node:worker_threads"
import { chunkFile, type ChunkFileInput } from "../../src/index/chunk/ChunkFile.ts"
import { counter } from "../tokens/TokenCounterWasm.ts"

export interface ChunkBatch {
  readonly groups: ReadonlyArray<ReadonlyArray<ChunkFileInput>>
  /** One Int32 shared with the main thread: the next group index to claim. */
  readonly next: SharedArrayBuffer
}

parentPort?.on("message", (batch: ChunkBatch) => {
  const next = new Int32Array(batch.next)
  const work = Effect.gen(function*() {
    for (let id = Atomics.add(next, 0, 1); id < batch.groups.length; id = Atomics.add(next, 0, 1)) {
      const chunks = yield* Effect.forEach(batch.groups[id]!, (request) => chunkFile(request, { count: counter.count }))
      parentPort!.postMessage({ id, chunks })
    }
    parentPort!.postMessage({ id: -1, chunks: [] })
  })
  void Effect.runPromise(work.pipe(Effect.provide(NodeCrypto.layerDigest)))
})
