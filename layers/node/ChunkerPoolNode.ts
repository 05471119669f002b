/**
 * Node backend of `ChunkerPool`: a large batch is shared between the calling thread and worker
 * threads, claiming groups of files from a shared atomic counter, as `AnalyzerPoolNode` does for
 * discovery. Only the WebAssembly cl100k counter crosses into a worker (a worker builds its own);
 * a batch counted by any other counter, or a small batch, is chunked in process. Workers live for
 * one batch.
 */
import { Effect, Layer } from "effect"
import * as NodeOs from "node:os"
import { Worker } from "node:worker_threads"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { ChunkFileInput } from "../../src/index/chunk/ChunkFile.ts"
import { ChunkerPool, type ChunkerPoolShape, inProcess, PROGRESS_EVERY } from "../../src/index/ChunkerPool.ts"
import { counter as wasmCounter } from "../tokens/TokenCounterWasm.ts"

/** Below this many files a batch is chunked in process: starting a worker costs more than it saves. */
export const MIN_POOLED_BATCH = 200

/** Files per group: small enough that the main thread's turns stay short. */
const GROUP = 25

type Groups = Array<ReadonlyArray<ReadonlyArray<Chunk>> | undefined>

/**
 * Resolves once every worker has reported that no group is left to claim, or has failed or exited
 * first. It never rejects: a worker's failure is not the batch's (its groups are answered again).
 */
const collect = (workers: ReadonlyArray<Worker>, results: Groups, finished: (id: number) => void): Promise<void> =>
  Promise.all(workers.map((worker) =>
    new Promise<void>((resolve) => {
      worker.on("message", (message: { id: number; chunks: ReadonlyArray<ReadonlyArray<Chunk>> }) => {
        if (message.id < 0) return resolve()
        results[message.id] = message.chunks
        finished(message.id)
      })
      worker.once("error", () => resolve())
      worker.once("exit", () => resolve())
    })
  )).then(() => undefined)

const chunkAll: ChunkerPoolShape["chunkAll"] = (requests, counter, onProgress) => {
  if (requests.length < MIN_POOLED_BATCH || counter.id !== wasmCounter.id) return inProcess.chunkAll(requests, counter, onProgress)
  const groups: Array<ReadonlyArray<ChunkFileInput>> = []
  for (let start = 0; start < requests.length; start += GROUP) groups.push(requests.slice(start, start + GROUP))
  const next = new SharedArrayBuffer(4)
  const claim = new Int32Array(next)
  const results: Groups = new Array(groups.length)
  let done = 0
  let reported = 0
  const finished = (id: number) => {
    done += groups[id]!.length
    if (done - reported >= PROGRESS_EVERY || done === requests.length) {
      reported = done
      onProgress?.(done)
    }
  }
  // One core stays with the main thread, which claims groups as well.
  const size = Math.max(1, NodeOs.availableParallelism() - 1)
  return Effect.acquireUseRelease(
    Effect.sync(() =>
      Array.from({ length: size }, () => {
        const worker = new Worker(new URL("./chunkerWorker.ts", import.meta.url))
        worker.postMessage({ groups, next })
        return worker
      })
    ),
    (workers) =>
      Effect.gen(function*() {
        const collected = collect(workers, results, finished)
        for (let id = Atomics.add(claim, 0, 1); id < groups.length; id = Atomics.add(claim, 0, 1)) {
          results[id] = yield* inProcess.chunkAll(groups[id]!, counter)
          finished(id)
          yield* Effect.yieldNow
        }
        yield* Effect.promise(() => collected)
        // A worker that died leaves its claimed groups unanswered; the main thread answers them.
        for (let id = 0; id < groups.length; id++) {
          if (results[id] !== undefined) continue
          results[id] = yield* inProcess.chunkAll(groups[id]!, counter)
          finished(id)
        }
        return results.flatMap((group) => group!)
      }),
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate())))
  )
}

export const pool: ChunkerPoolShape = { chunkAll }

export const layer: Layer.Layer<never> = Layer.succeed(ChunkerPool, pool)
