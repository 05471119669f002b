/**
 * Worker-thread entry of `AnalyzerPoolNode`: runs one of the standard analyzers on each file of a
 * batch and sends the analyses back. Analyses are plain data, so they cross the thread boundary as is.
 */
import { parentPort } from "node:worker_threads"
import type { AnalysisRequest } from "../../src/discovery/AnalyzerPool.ts"
import { runAnalyzer, standard } from "../../src/discovery/Registry.ts"

export interface BatchRequest {
  readonly id: number
  readonly analyzer: string
  readonly requests: ReadonlyArray<AnalysisRequest>
}

parentPort?.on("message", (batch: BatchRequest) => {
  const analyzer = standard.analyzers.find((candidate) => candidate.id === batch.analyzer)!
  parentPort!.postMessage({ id: batch.id, analyses: batch.requests.map((r) => runAnalyzer(analyzer, r.path, r.text)) })
})
