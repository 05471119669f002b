/**
 * Where analyzers run. By default on the calling fiber; a platform layer may hand large batches to
 * worker threads, since a scan's Markdown parsing can take longer than everything else together.
 * Either way the answers are the registry's, in request order.
 */
import { Context, Effect } from "effect"
import type { Analysis } from "../discovery/FileAnalysis.ts"
import { runAnalyzer } from "../discovery/Registry.ts"
import { standard } from "../discovery/StandardAnalyzers.ts"

export interface AnalysisRequest {
  readonly path: string
  readonly text: string
}

export interface AnalyzerPoolOptions {
  /**
   * The calling thread has other work first: it takes requests itself only once `after` is done,
   * leaving them to other threads until then (in process, they all wait for it).
   */
  readonly after?: Effect.Effect<void> | undefined
}

export interface AnalyzerPoolShape {
  /** The standard registry's `analyzer` run on every request; results in request order. */
  readonly analyzeAll: (
    analyzer: string,
    requests: ReadonlyArray<AnalysisRequest>,
    options?: AnalyzerPoolOptions
  ) => Effect.Effect<ReadonlyArray<Analysis>>
}

/** Runs the standard analyzers in process; `undefined` analyzer ids are a programming error. */
export const inProcess: AnalyzerPoolShape = {
  analyzeAll: (id, requests, options) =>
    Effect.andThen(
      options?.after ?? Effect.void,
      Effect.sync(() => {
        const analyzer = standard.analyzers.find((candidate) => candidate.id === id)!
        return requests.map((request) => runAnalyzer(analyzer, request.path, request.text))
      })
    )
}

export const AnalyzerPool = Context.Reference<AnalyzerPoolShape>("cairn/ports/AnalyzerPool", {
  defaultValue: () => inProcess
})
