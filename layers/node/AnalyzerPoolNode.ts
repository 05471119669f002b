/**
 * Node backend of `AnalyzerPool`: a large batch is split across worker threads, so Markdown parsing
 * (about 3 ms a document with remark) runs beside the main thread's module analysis. Small batches,
 * the common case of a warm scan, stay in process: starting workers costs more than they save.
 * Workers live for one batch and are terminated with it.
 */
import { Effect, Layer } from "effect"
import * as NodeOs from "node:os"
import { Worker } from "node:worker_threads"
import type { AnalysisRequest, AnalyzerPoolShape } from "../../src/discovery/AnalyzerPool.ts"
import { AnalyzerPool, inProcess } from "../../src/discovery/AnalyzerPool.ts"
import type { Analysis } from "../../src/discovery/FileAnalysis.ts"

/** Below this many files a batch is analysed in process. */
export const MIN_POOLED_BATCH = 200

/** Files per message: large enough to amortise messaging, small enough to balance workers. */
const CHUNK = 50

const runChunks = (
  workers: ReadonlyArray<Worker>,
  analyzer: string,
  chunks: ReadonlyArray<ReadonlyArray<AnalysisRequest>>
): Promise<Array<ReadonlyArray<Analysis>>> =>
  new Promise((resolve, reject) => {
    const results: Array<ReadonlyArray<Analysis>> = new Array(chunks.length)
    let next = 0
    let done = 0
    const feed = (worker: Worker) => {
      if (next >= chunks.length) return
      const id = next++
      worker.postMessage({ id, analyzer, requests: chunks[id] })
    }
    for (const worker of workers) {
      worker.on("message", (message: { id: number; analyses: ReadonlyArray<Analysis> }) => {
        results[message.id] = message.analyses
        if (++done === chunks.length) resolve(results)
        else feed(worker)
      })
      worker.once("error", reject)
      feed(worker)
    }
  })

const analyzeAll = (analyzer: string, requests: ReadonlyArray<AnalysisRequest>): Effect.Effect<ReadonlyArray<Analysis>> => {
  if (requests.length < MIN_POOLED_BATCH) return inProcess.analyzeAll(analyzer, requests)
  const chunks: Array<ReadonlyArray<AnalysisRequest>> = []
  for (let start = 0; start < requests.length; start += CHUNK) chunks.push(requests.slice(start, start + CHUNK))
  // One core stays with the main thread, which keeps analysing modules meanwhile.
  const size = Math.max(1, Math.min(NodeOs.availableParallelism() - 1, chunks.length))
  return Effect.acquireUseRelease(
    Effect.sync(() => Array.from({ length: size }, () => new Worker(new URL("./analyzerWorker.ts", import.meta.url)))),
    (workers) =>
      Effect.tryPromise(() => runChunks(workers, analyzer, chunks)).pipe(
        Effect.map((results) => results.flat()),
        // A worker that cannot start or dies leaves the batch to the main thread, never unanswered.
        Effect.catch(() => inProcess.analyzeAll(analyzer, requests))
      ),
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate())))
  )
}

export const pool: AnalyzerPoolShape = { analyzeAll }

export const layer: Layer.Layer<never> = Layer.succeed(AnalyzerPool, pool)
