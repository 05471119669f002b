/**
 * One module file's contribution to the snapshot: reused from the previous snapshot when its hash
 * matches (relations as they were when the module universe is unchanged, re-resolved from their
 * recorded specifiers when it is not), otherwise read, parsed and resolved.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { Coverage, ModuleEntity, Relation } from "../domain/Snapshot.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import type { Analyzer, Note } from "./FileAnalysis.ts"
import { decodeText, isBinary, readContent } from "./FileContent.ts"
import type { HashCache } from "./HashCache.ts"
import { MODULE_RELATION_KINDS, moduleRelations, referencesOf } from "./ModuleRelations.ts"
import type { Resolver } from "./ModuleResolution.ts"
import { runAnalyzer } from "./Registry.ts"
import { hashOf } from "./Reuse.ts"
import type { PreviousIndex } from "./Reuse.ts"
import { languageOf } from "./TypeScriptAnalyzer.ts"
import type { ListedFile } from "./Walk.ts"

export interface FileOutcome<E> {
  readonly entity: E
  readonly relations: ReadonlyArray<Relation>
  readonly coverage: ReadonlyArray<Coverage>
  readonly parsed: boolean
  readonly reused: boolean
}

export interface ModuleScanContext {
  readonly analyzer: Analyzer
  readonly resolve: Resolver
  readonly previous: PreviousIndex | undefined
  /** The module universe equals the previous snapshot's: its relations stand as they are. */
  readonly universeUnchanged: boolean
  readonly cache: HashCache | undefined
}

export const notesToCoverage = (analyzer: string, path: string, notes: ReadonlyArray<Note>): Array<Coverage> =>
  notes.map((note) => ({ analyzer, scope: path, status: note.status, reason: note.reason }))

export const BINARY_NOTE: Note = { status: "skipped-binary", reason: "binary content (a NUL byte early in the file); not analysed" }

export const scanModule = (
  file: ListedFile,
  context: ModuleScanContext
): Effect.Effect<FileOutcome<ModuleEntity>, DiscoveryError, SourceTree | Digest.Digest> =>
  Effect.gen(function*() {
    const id = `module:${file.path}`
    const prior = context.previous?.entity(id)
    const priorModule = prior?.kind === "module" ? prior : undefined
    const content = yield* readContent(file, false, hashOf(priorModule), context.cache)
    if (priorModule !== undefined && content.hash === hashOf(priorModule)) {
      const previous = context.previous!
      const relations = previous.relationsFrom(id).filter((relation) => MODULE_RELATION_KINDS.has(relation.kind))
      return {
        entity: priorModule,
        relations: context.universeUnchanged
          ? relations
          : moduleRelations(file.path, referencesOf(relations), context.resolve),
        coverage: previous.coverageOf(file.path, context.analyzer.id),
        parsed: false,
        reused: true
      }
    }
    const bytes = content.bytes!
    const base = {
      id,
      kind: "module" as const,
      path: file.path,
      evidence: [{ path: file.path, contentHash: content.hash }],
      language: languageOf(file.path)
    }
    if (isBinary(bytes)) {
      return {
        entity: { ...base, exports: [], declarations: [] },
        relations: [],
        coverage: notesToCoverage(context.analyzer.id, file.path, [BINARY_NOTE]),
        parsed: false,
        reused: false
      }
    }
    const analysis = runAnalyzer(context.analyzer, file.path, decodeText(bytes))
    const facts = analysis.facts?._tag === "module" ? analysis.facts : undefined
    return {
      entity: {
        ...base,
        language: facts?.language ?? base.language,
        exports: facts?.exports ?? [],
        declarations: facts?.declarations ?? []
      },
      relations: facts === undefined ? [] : moduleRelations(file.path, facts.references, context.resolve),
      coverage: notesToCoverage(context.analyzer.id, file.path, analysis.notes),
      parsed: true,
      reused: false
    }
  })
