/**
 * Manifests and tsconfig files, read on every scan before any module: they define the module
 * universe that decides whether previous relations can be reused, and they are few and small.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { Coverage } from "../domain/Snapshot.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import type { ConfigFile } from "./CompilerOptions.ts"
import type { Analyzer } from "./FileAnalysis.ts"
import { decodeText, isBinary, readContent } from "./FileContent.ts"
import { BINARY_NOTE, notesToCoverage } from "./ModuleScan.ts"
import type { Manifest } from "./Packages.ts"
import { runAnalyzer } from "./Registry.ts"
import type { ScanCache } from "./ScanCache.ts"
import { findingsToCoverage, type Redacted } from "./SecretScan.ts"
import type { ListedFile } from "./Walk.ts"

export interface ConfigScan {
  readonly manifests: ReadonlyArray<Manifest>
  readonly configFiles: ReadonlyArray<ConfigFile>
  readonly coverage: ReadonlyArray<Coverage>
}

export const scanConfigFiles = Effect.fnUntraced(function*(files: ReadonlyArray<{ readonly file: ListedFile; readonly analyzer: Analyzer }>,
  concurrency: number,
  cache: ScanCache,
  redact: (path: string, text: string) => Redacted): Effect.fn.Return<ConfigScan, never, SourceTree | Digest.Digest> {
  const results = yield* Effect.forEach(files, ({ analyzer, file }) =>
    Effect.map(readContent(file, false, cache, analyzer.id), (content) => {
      if (content._tag === "Unread") return { file, analyzer, hash: "", facts: undefined, notes: [], unread: content.coverage, findings: [] }
      const bytes = content.bytes
      if (isBinary(bytes)) return { file, analyzer, hash: content.hash, facts: undefined, notes: [BINARY_NOTE], unread: undefined, findings: [] }
      const { findings, text } = redact(file.path, decodeText(bytes))
      const analysis = runAnalyzer(analyzer, file.path, text)
      return { file, analyzer, hash: content.hash, facts: analysis.facts, notes: analysis.notes, unread: undefined, findings }
    }), { concurrency })
  const manifests: Array<Manifest> = []
  const configFiles: Array<ConfigFile> = []
  const coverage: Array<Coverage> = []
  for (const result of results) {
    if (result.unread !== undefined) coverage.push(result.unread)
    coverage.push(...notesToCoverage(result.analyzer.id, result.file.path, result.notes))
    coverage.push(...findingsToCoverage(result.analyzer.id, result.file.path, result.findings))
    if (result.facts?._tag === "manifest") {
      manifests.push({ path: result.file.path, contentHash: result.hash, facts: result.facts })
    } else if (result.facts?._tag === "tsconfig") {
      configFiles.push({ path: result.file.path, contentHash: result.hash, facts: result.facts })
    }
  }
  return { manifests, configFiles, coverage }
})
