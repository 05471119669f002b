/**
 * Node backend of `ChunkerPool`: a large batch is shared between the calling thread and worker
 * threads (`SharedBatch`), as `AnalyzerPoolNode` does for discovery. Only the default cl100k
 * counter crosses into a worker (a worker builds its own); a batch counted by any other counter,
 * or a small batch, is chunked in process.
 */
import { Effect, Layer } from "effect"
import { ChunkerPool, type ChunkerPoolShape, inProcess, inProcessFew, PROGRESS_EVERY } from "../../src/ports/ChunkerPool.ts"
import { counter as defaultCounter } from "../tokens/TokenCounterDefault.ts"
import { groupsOf, type KeptWorkers, keptWorkers, shareBatch } from "./SharedBatch.ts"
import { workerEntry } from "./WorkerEntry.ts"

/** Below this many files a batch is chunked in process: starting a worker costs more than it saves. */
export const MIN_POOLED_BATCH = 200

/**
 * At most this many files are parsed each as a file alone: slower per file than the lazy mode, but
 * without the collection its buffer costs a large heap (a refresh's).
 */
export const MAX_FEW_FILES = 32

/** Files per group: small enough that the main thread's turns stay short. */
const GROUP = 25

/**
 * Chunks a batch, sharing a large one with `kept` workers, or with `workers` threads of its own
 * (by default one per core but the calling thread's).
 */
const chunkWith = (kept: KeptWorkers | undefined, workers: number | undefined): ChunkerPoolShape["chunkAll"] => (requests, counter, onProgress, chunking) => {
  if (requests.length <= MAX_FEW_FILES) return inProcessFew.chunkAll(requests, counter, onProgress, chunking)
  if (requests.length < MIN_POOLED_BATCH || counter.id !== defaultCounter.id) return inProcess.chunkAll(requests, counter, onProgress, chunking)
  const groups = groupsOf(requests, GROUP)
  // The progress callback keeps sizes only: it outlives the batch, whose texts must not.
  const sizes = groups.map((group) => group.length)
  const total = requests.length
  let done = 0
  let reported = 0
  return shareBatch({
    name: "chunker",
    worker: kept === undefined ? workerEntry("chunker", import.meta.url) : undefined,
    kept,
    groups,
    // The settings go to the workers with the batch: plain data, as the requests are.
    context: chunking ?? {},
    local: (group) => inProcess.chunkAll(group, counter, undefined, chunking),
    workers,
    onGroup: (id) => {
      done += sizes[id]!
      if (done - reported >= PROGRESS_EVERY || done === total) {
        reported = done
        onProgress?.(done)
      }
    }
  })
}

/** The pool, with `workers` threads sharing a large batch with the calling one. */
export const make = (options: { readonly workers?: number } = {}): ChunkerPoolShape => ({
  chunkAll: chunkWith(undefined, options.workers),
  // The workers start with the first large batch and serve every later one, rather than one start a batch.
  session: Effect.suspend(() =>
    Effect.map(keptWorkers(() => workerEntry("chunker", import.meta.url), options.workers), (kept) => ({ chunkAll: chunkWith(kept, options.workers) }))
  )
})

export const pool: ChunkerPoolShape = make()

export const layer: Layer.Layer<never> = Layer.succeed(ChunkerPool, pool)
