/**
 * Node backend of `AnalyzerPool`: a large batch is shared between the calling thread and worker
 * threads, so Markdown parsing (about 3 ms a document with remark) runs beside the main thread's
 * module analysis. Chunks are claimed from a shared atomic counter: a worker never waits for the
 * main thread to hand out work, and the main thread takes chunks itself between other work, so no
 * thread idles while chunks remain. Small batches (the usual warm scan) stay in process, since
 * starting a worker costs more than it saves. Workers live for one batch.
 */
import { Effect, Layer } from "effect"
import * as NodeOs from "node:os"
import { Worker } from "node:worker_threads"
import type { AnalysisRequest, AnalyzerPoolShape } from "../../src/discovery/AnalyzerPool.ts"
import { AnalyzerPool, inProcess } from "../../src/discovery/AnalyzerPool.ts"
import type { Analysis } from "../../src/discovery/FileAnalysis.ts"

/** Below this many files a batch is analysed in process. */
export const MIN_POOLED_BATCH = 200

/** Files per chunk: small enough that the main thread's turns stay short. */
const CHUNK = 20

/**
 * Resolves once every worker has reported that no chunk is left to claim, or has failed or exited
 * first. It never rejects: a worker's failure is not the batch's (its chunks are answered again).
 */
const collect = (workers: ReadonlyArray<Worker>, results: Array<ReadonlyArray<Analysis> | undefined>): Promise<void> =>
  Promise.all(workers.map((worker) =>
    new Promise<void>((resolve) => {
      worker.on("message", (message: { id: number; analyses: ReadonlyArray<Analysis> }) => {
        if (message.id < 0) resolve()
        else results[message.id] = message.analyses
      })
      worker.once("error", () => resolve())
      worker.once("exit", () => resolve())
    })
  )).then(() => undefined)

const analyzeAll = (analyzer: string, requests: ReadonlyArray<AnalysisRequest>): Effect.Effect<ReadonlyArray<Analysis>> => {
  if (requests.length < MIN_POOLED_BATCH) return inProcess.analyzeAll(analyzer, requests)
  const chunks: Array<ReadonlyArray<AnalysisRequest>> = []
  for (let start = 0; start < requests.length; start += CHUNK) chunks.push(requests.slice(start, start + CHUNK))
  const next = new SharedArrayBuffer(4)
  const counter = new Int32Array(next)
  const results: Array<ReadonlyArray<Analysis> | undefined> = new Array(chunks.length)
  // One core stays with the main thread, which claims chunks as well.
  const size = Math.max(1, NodeOs.availableParallelism() - 1)
  return Effect.acquireUseRelease(
    Effect.sync(() =>
      Array.from({ length: size }, () => {
        const worker = new Worker(new URL("./analyzerWorker.ts", import.meta.url))
        worker.postMessage({ analyzer, chunks, next })
        return worker
      })
    ),
    (workers) =>
      Effect.gen(function*() {
        const finished = collect(workers, results)
        for (let id = Atomics.add(counter, 0, 1); id < chunks.length; id = Atomics.add(counter, 0, 1)) {
          results[id] = yield* inProcess.analyzeAll(analyzer, chunks[id]!)
          yield* Effect.yieldNow
        }
        // A worker that died leaves its claimed chunks unanswered; the main thread answers them below.
        yield* Effect.promise(() => finished)
        for (let id = 0; id < chunks.length; id++) {
          if (results[id] === undefined) results[id] = yield* inProcess.analyzeAll(analyzer, chunks[id]!)
        }
        return results.flatMap((chunk) => chunk!)
      }),
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate())))
  )
}

export const pool: AnalyzerPoolShape = { analyzeAll }

export const layer: Layer.Layer<never> = Layer.succeed(AnalyzerPool, pool)
