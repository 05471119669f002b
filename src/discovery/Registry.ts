/**
 * Which analyzer reads which file, and the wall around each one: an analyzer that throws costs
 * exactly the file it was reading, reported as `failed` coverage, and never the scan. A registry is
 * made of analyzers (`StandardAnalyzers.standard`) or of their kinds alone (`kinds` here), which
 * answer which file goes where without loading a parser.
 */
import { STANDARD } from "./AnalyzerKinds.ts"
import type { AnalyzerKind } from "./AnalyzerKinds.ts"
import type { Analysis, Analyzer } from "./FileAnalysis.ts"
import { basename, extname } from "../source/Paths.ts"
import { compareIds } from "../domain/Ranking.ts"
import { NEVER_INDEXED_NAMES } from "../languages/TextFiles.ts"

export interface Registry<A extends AnalyzerKind = Analyzer> {
  readonly analyzers: ReadonlyArray<A>
  /** The analyzer for a path: a file-name match first, then the extension; later registrations win. None for a name never indexed. */
  readonly analyzerFor: (path: string) => A | undefined
  /** Analyzer id to version, keys in code-unit order: what a previous snapshot must match. */
  readonly versions: Readonly<Record<string, string>>
}

export const make = <A extends AnalyzerKind>(analyzers: ReadonlyArray<A>): Registry<A> => {
  const byExtension = new Map<string, A>()
  for (const analyzer of analyzers) {
    for (const extension of analyzer.extensions) byExtension.set(extension, analyzer)
  }
  const named = analyzers.filter((analyzer) => analyzer.fileNamePattern !== undefined).reverse()
  const versions: Record<string, string> = {}
  for (const analyzer of [...analyzers].sort((a, b) => compareIds(a.id, b.id))) {
    versions[analyzer.id] = analyzer.version
  }
  return {
    analyzers,
    analyzerFor: (path) => {
      const name = basename(path)
      // Generated lockfiles, and cairn's own configuration: no analyzer reads them.
      if (NEVER_INDEXED_NAMES.test(name)) return undefined
      return named.find((analyzer) => analyzer.fileNamePattern!.test(name)) ?? byExtension.get(extname(path))
    },
    versions
  }
}

/** The standard analyzers' kinds: the same files, ids and versions as the standard registry. */
export const kinds: Registry<AnalyzerKind> = make(STANDARD)

/** Runs one analyzer on one file, turning a throw into a `failed` note. */
export const runAnalyzer = (analyzer: Analyzer, path: string, text: string): Analysis => {
  try {
    return analyzer.analyze(path, text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { facts: undefined, notes: [{ status: "failed", reason: `${analyzer.id} analyzer threw: ${message.split("\n")[0]}` }] }
  }
}
