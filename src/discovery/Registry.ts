/**
 * Which analyzer reads which file, and the wall around each one: an analyzer that throws costs
 * exactly the file it was reading, reported as `failed` coverage, and never the scan.
 */
import type { Analysis, Analyzer } from "./FileAnalysis.ts"
import { ManifestAnalyzer } from "./ManifestAnalyzer.ts"
import { MarkdownAnalyzer } from "./MarkdownAnalyzer.ts"
import { basename, extname } from "./Paths.ts"
import { TsConfigAnalyzer } from "./TsConfigAnalyzer.ts"
import { TypeScriptAnalyzer } from "./TypeScriptAnalyzer.ts"

export interface Registry {
  readonly analyzers: ReadonlyArray<Analyzer>
  /** The analyzer for a path: a file-name match first, then the extension; later registrations win. */
  readonly analyzerFor: (path: string) => Analyzer | undefined
  /** Analyzer id to version, keys in code-unit order: what a previous snapshot must match. */
  readonly versions: Readonly<Record<string, string>>
}

export const make = (analyzers: ReadonlyArray<Analyzer>): Registry => {
  const byExtension = new Map<string, Analyzer>()
  for (const analyzer of analyzers) {
    for (const extension of analyzer.extensions) byExtension.set(extension, analyzer)
  }
  const named = analyzers.filter((analyzer) => analyzer.fileNamePattern !== undefined).reverse()
  const versions: Record<string, string> = {}
  for (const analyzer of [...analyzers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    versions[analyzer.id] = analyzer.version
  }
  return {
    analyzers,
    analyzerFor: (path) => {
      const name = basename(path)
      return named.find((analyzer) => analyzer.fileNamePattern!.test(name)) ?? byExtension.get(extname(path))
    },
    versions
  }
}

/** The analyzers a scan runs by default. */
export const standard: Registry = make([TypeScriptAnalyzer, MarkdownAnalyzer, ManifestAnalyzer, TsConfigAnalyzer])

/** Runs one analyzer on one file, turning a throw into a `failed` note. */
export const runAnalyzer = (analyzer: Analyzer, path: string, text: string): Analysis => {
  try {
    return analyzer.analyze(path, text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { facts: undefined, notes: [{ status: "failed", reason: `${analyzer.id} analyzer threw: ${message.split("\n")[0]}` }] }
  }
}
