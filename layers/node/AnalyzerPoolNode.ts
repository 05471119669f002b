/**
 * Node backend of `AnalyzerPool`: a large batch is shared between the calling thread and worker
 * threads (`SharedBatch`), so Markdown parsing (about 3 ms a document with remark) runs beside the
 * main thread's module analysis, and a scan's tree-sitter files are parsed on every core. Small
 * batches (the usual warm scan) stay in process, since starting a worker costs more than it saves.
 */
import { Effect, Layer } from "effect"
import type { AnalyzerPoolShape } from "../../src/ports/AnalyzerPool.ts"
import { AnalyzerPool, inProcess } from "../../src/ports/AnalyzerPool.ts"
import { groupsOf, type KeptWorkers, keptWorkers, shareBatch } from "./SharedBatch.ts"
import { workerEntry } from "./WorkerEntry.ts"

/** Below this many files a batch is analysed in process. */
export const MIN_POOLED_BATCH = 200

/** Files per group: small enough that the main thread's turns stay short. */
const GROUP = 20

/**
 * `analyzeAll` sharing a large batch with `kept` workers, or with `workers` threads of its own (by
 * default one per core but the calling one's).
 */
const analyzeWith = (kept: KeptWorkers | undefined, workers: number | undefined): AnalyzerPoolShape["analyzeAll"] => (analyzer, requests, options) =>
  requests.length < MIN_POOLED_BATCH
    ? inProcess.analyzeAll(analyzer, requests, options)
    : shareBatch({
      name: "analyzer",
      worker: kept === undefined ? workerEntry("analyzer", import.meta.url) : undefined,
      kept,
      groups: groupsOf(requests, GROUP),
      context: analyzer,
      local: (group) => inProcess.analyzeAll(analyzer, group),
      joinAfter: options?.after,
      workers
    })

/** The pool, with `workers` threads sharing a large batch with the calling one. */
export const make = (options: { readonly workers?: number } = {}): AnalyzerPoolShape => ({
  analyzeAll: analyzeWith(undefined, options.workers),
  // The workers start with the first large batch and serve every later one, their grammars loaded once.
  session: Effect.suspend(() =>
    Effect.map(keptWorkers(() => workerEntry("analyzer", import.meta.url), options.workers), (kept) => ({ analyzeAll: analyzeWith(kept, options.workers) }))
  )
})

export const pool: AnalyzerPoolShape = make()

export const layer: Layer.Layer<never> = Layer.succeed(AnalyzerPool, pool)
