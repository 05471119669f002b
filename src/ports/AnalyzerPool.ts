/**
 * Where analyzers run. By default on the calling fiber; a platform layer may hand large batches to
 * worker threads, since a scan's Markdown parsing, or its tree-sitter parsing of other languages,
 * can take longer than everything else together. Either way the answers are the registry's, in
 * request order, each analyzer loaded (`Analyzer.ready`) before its first file.
 */
import { Context, Effect } from "effect"
import type { Scope } from "effect"
import type { Analysis, Analyzer } from "../discovery/FileAnalysis.ts"
import { runAnalyzer } from "../discovery/Registry.ts"
import { standard } from "../discovery/StandardAnalyzers.ts"

export interface AnalysisRequest {
  readonly path: string
  readonly text: string
  /** This file's analyzer, when it is not the batch's: one batch can mix languages. */
  readonly analyzer?: string | undefined
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
  /**
   * A pool for a scan that hands over batch after batch: what it starts to share a batch (worker
   * threads, their loaded grammars) it starts once, with the first batch that needs it, and ends
   * with the scope. Its answers are this pool's, batch for batch.
   */
  readonly session: Effect.Effect<Pick<AnalyzerPoolShape, "analyzeAll">, never, Scope.Scope>
}

/** The standard analyzer of each request, `fallback` where the request names none; unknown ids are a programming error. */
export const analyzersOf = (fallback: string, requests: ReadonlyArray<AnalysisRequest>): Array<Analyzer> =>
  requests.map((request) => standard.analyzers.find((candidate) => candidate.id === (request.analyzer ?? fallback))!)

/**
 * Loads what the given analyzers need before their first file, each once. A grammar that cannot
 * load leaves its analyzer to say so, file by file, as a `failed` note, so this never rejects.
 */
export const readyAll = (analyzers: Iterable<Analyzer>): Promise<void> =>
  Promise.all([...new Set(analyzers)].map((analyzer) => analyzer.ready?.().catch(() => undefined))).then(() => undefined)

const analyzeInProcess: AnalyzerPoolShape["analyzeAll"] = (id, requests, options) =>
  Effect.andThen(
    options?.after ?? Effect.void,
    Effect.suspend(() => {
      const analyzers = analyzersOf(id, requests)
      const analyse = () => requests.map((request, i) => runAnalyzer(analyzers[i]!, request.path, request.text))
      return analyzers.some((analyzer) => analyzer.ready !== undefined)
        ? Effect.andThen(Effect.promise(() => readyAll(analyzers)), Effect.sync(analyse))
        : Effect.sync(analyse)
    })
  )

/** Runs the standard analyzers in process. */
export const inProcess: AnalyzerPoolShape = {
  analyzeAll: analyzeInProcess,
  // Nothing to start: every batch is analysed here.
  session: Effect.succeed({ analyzeAll: analyzeInProcess })
}

export const AnalyzerPool = Context.Reference<AnalyzerPoolShape>("cairn/ports/AnalyzerPool", {
  defaultValue: () => inProcess
})
