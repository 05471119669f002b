/**
 * Worker-thread entry of `AnalyzerPoolNode`: claims groups of files from the batch it shares with
 * the main thread (`SharedBatch`) and answers each group's analyses, which are plain data.
 */
import { parentPort } from "node:worker_threads"
import type { AnalysisRequest } from "../../src/ports/AnalyzerPool.ts"
import { runAnalyzer } from "../../src/discovery/Registry.ts"
import { standard } from "../../src/discovery/StandardAnalyzers.ts"
import { claim, type SharedGroups } from "./SharedBatch.ts"

parentPort?.on("message", (batch: SharedGroups<AnalysisRequest, string>) => {
  const analyzer = standard.analyzers.find((candidate) => candidate.id === batch.context)!
  for (let id = claim(batch.next); id < batch.groups.length; id = claim(batch.next)) {
    parentPort!.postMessage({ id, results: batch.groups[id]!.map((r) => runAnalyzer(analyzer, r.path, r.text)) })
  }
  parentPort!.postMessage({ id: -1, results: [] })
})
