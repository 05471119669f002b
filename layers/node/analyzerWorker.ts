/**
 * Worker-thread entry of `AnalyzerPoolNode`: claims groups of files from the batch it shares with
 * the main thread (`SharedBatch`) and answers each group's analyses, which are plain data. The
 * analyzers a batch names are loaded first (a tree-sitter grammar loads once a worker); a worker
 * that cannot load one takes no group, so the main thread, which loaded it, answers them all.
 */
import { parentPort } from "node:worker_threads"
import { type AnalysisRequest, analyzersOf } from "../../src/ports/AnalyzerPool.ts"
import { runAnalyzer } from "../../src/discovery/Registry.ts"
import { claim, type SharedGroups } from "./SharedBatch.ts"

parentPort?.on("message", (batch: SharedGroups<AnalysisRequest, string>) => {
  const analyzers = new Set(batch.groups.flatMap((group) => analyzersOf(batch.context, group)))
  void Promise.all([...analyzers].map((analyzer) => analyzer.ready?.().then(() => true, () => false) ?? true)).then((loaded) => {
    if (loaded.every(Boolean)) {
      for (let id = claim(batch.next); id < batch.groups.length; id = claim(batch.next)) {
        const group = batch.groups[id]!
        const forGroup = analyzersOf(batch.context, group)
        parentPort!.postMessage({ id, results: group.map((r, i) => runAnalyzer(forGroup[i]!, r.path, r.text)) })
      }
    }
    parentPort!.postMessage({ id: -1, results: [] })
  })
})
