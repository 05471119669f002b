/**
 * Worker-thread entry of `AnalyzerPoolNode`. It receives a whole batch at once and claims chunks
 * from a counter it shares with the main thread, which claims chunks too whenever it is free; each
 * finished chunk's analyses go back as one message. Analyses are plain data.
 */
import { parentPort } from "node:worker_threads"
import type { AnalysisRequest } from "../../src/discovery/AnalyzerPool.ts"
import { runAnalyzer, standard } from "../../src/discovery/Registry.ts"

export interface Batch {
  readonly analyzer: string
  readonly chunks: ReadonlyArray<ReadonlyArray<AnalysisRequest>>
  /** One Int32 shared with the main thread: the next chunk index to claim. */
  readonly next: SharedArrayBuffer
}

parentPort?.on("message", (batch: Batch) => {
  const analyzer = standard.analyzers.find((candidate) => candidate.id === batch.analyzer)!
  const next = new Int32Array(batch.next)
  for (let id = Atomics.add(next, 0, 1); id < batch.chunks.length; id = Atomics.add(next, 0, 1)) {
    parentPort!.postMessage({ id, analyses: batch.chunks[id]!.map((r) => runAnalyzer(analyzer, r.path, r.text)) })
  }
  parentPort!.postMessage({ id: -1, analyses: [] })
})
