/**
 * One module file's unit: reused from the previous snapshot when its hash matches (relations as they
 * were when the module universe is unchanged, re-resolved from their recorded specifiers when it is
 * not), otherwise read, parsed and resolved.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { Coverage, ModuleEntity, ModuleLanguage } from "../domain/Snapshot.ts"
import { languageById } from "../languages/Languages.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import type { Unit } from "./Assemble.ts"
import type { Analysis, Analyzer, Note } from "./FileAnalysis.ts"
import type { Unread } from "./FileContent.ts"
import { decodeText, isBinary, isUnread, readContent } from "./FileContent.ts"
import { MODULE_RELATION_KINDS, moduleRelations, referencesOf } from "./ModuleRelations.ts"
import type { Resolver } from "./ModuleResolution.ts"
import { runAnalyzer } from "./Registry.ts"
import type { PreviousIndex } from "./Reuse.ts"
import { hashOf } from "./Reuse.ts"
import type { ScanCache } from "./ScanCache.ts"
import { findingsToCoverage, type Redacted } from "./SecretScan.ts"
import { languageOf } from "./TypeScriptAnalyzer.ts"
import type { ListedFile } from "./Walk.ts"

export interface FileOutcome {
  readonly unit: Unit
  readonly parsed: boolean
  readonly reused: boolean
}

export interface ModuleScanContext {
  /** The analyzer of a module file: TypeScript's, or its language's (see GrammarAnalyzer.ts). */
  readonly analyzerOf: (path: string) => Analyzer
  readonly resolve: Resolver
  readonly previous: PreviousIndex | undefined
  /** The module universe equals the previous snapshot's: its relations stand as they are. */
  readonly universeUnchanged: boolean
  readonly cache: ScanCache
  /** The file's text with its secrets redacted (see `SecretScan.redactor`). */
  readonly redact: (path: string, text: string) => Redacted
}

export const notesToCoverage = (analyzer: string, path: string, notes: ReadonlyArray<Note>): Array<Coverage> =>
  notes.map((note) => ({ analyzer, scope: path, status: note.status, reason: note.reason }))

export const BINARY_NOTE: Note = { status: "skipped-binary", reason: "binary content (a NUL byte early in the file); not analysed" }

const priorModule = (file: ListedFile, context: ModuleScanContext): ModuleEntity | undefined => {
  const prior = context.previous?.entity(`module:${file.path}`)
  return prior?.kind === "module" ? prior : undefined
}

const reuse = (prior: ModuleEntity, file: ListedFile, context: ModuleScanContext): FileOutcome => {
  const previous = context.previous!
  const all = previous.relationsFrom(prior.id)
  // Keeping the previous array itself lets assembly recognise the unit and skip re-hashing it.
  const relations = all.every((relation) => MODULE_RELATION_KINDS.has(relation.kind))
    ? all
    : all.filter((relation) => MODULE_RELATION_KINDS.has(relation.kind))
  return {
    unit: {
      entity: prior,
      relations: context.universeUnchanged ? relations : moduleRelations(file.path, referencesOf(relations), context.resolve),
      coverage: previous.coverageOf(file.path, context.analyzerOf(file.path).id)
    },
    parsed: false,
    reused: true
  }
}

/** The unit without any I/O, when the cache vouches that the file still has its previous hash. */
export const reuseModuleUnread = (file: ListedFile, context: ModuleScanContext): FileOutcome | undefined => {
  const prior = priorModule(file, context)
  const hash = hashOf(prior)
  return prior !== undefined && hash !== undefined && context.cache.hashOf(file.path, file.stamp) === hash
    ? reuse(prior, file, context)
    : undefined
}

/** A module file read, neither reused nor binary: its text waits for its analyzer. */
export interface ModuleText {
  readonly _tag: "ModuleText"
  readonly file: ListedFile
  readonly analyzer: Analyzer
  readonly entity: ModuleEntity
  /** The text with its secrets redacted: what the analyzer reads. */
  readonly text: string
  readonly findings: Redacted["findings"]
}

export const isModuleText = (value: FileOutcome | Unread | ModuleText): value is ModuleText => "_tag" in value && value._tag === "ModuleText"

/**
 * The module's unit when it needs no analysis (reused by its hash, or binary), `Unread` when the
 * file cannot be read as it was listed, else its text for the analyzer. Loads no grammar.
 */
export const readModule = (
  file: ListedFile,
  context: ModuleScanContext
): Effect.Effect<FileOutcome | Unread | ModuleText, never, SourceTree | Digest.Digest> => {
  const analyzer = context.analyzerOf(file.path)
  return Effect.map(readContent(file, false, context.cache, analyzer.id), (content): FileOutcome | Unread | ModuleText => {
    if (isUnread(content)) return content
    const prior = priorModule(file, context)
    if (prior !== undefined && content.hash === hashOf(prior)) return reuse(prior, file, context)
    const entity: ModuleEntity = {
      id: `module:${file.path}`,
      kind: "module",
      path: file.path,
      evidence: [{ path: file.path, contentHash: content.hash }],
      language: analyzer.id === "text" ? "text" : languageById(analyzer.id)?.id as ModuleLanguage | undefined ?? languageOf(file.path),
      exports: [],
      declarations: []
    }
    if (isBinary(content.bytes)) {
      return {
        unit: { entity, relations: [], coverage: notesToCoverage(analyzer.id, file.path, [BINARY_NOTE]) },
        parsed: false,
        reused: false
      }
    }
    const { findings, text } = context.redact(file.path, decodeText(content.bytes))
    return { _tag: "ModuleText", file, analyzer, entity, text, findings }
  })
}

/** The unit of a module read by `readModule`, from its analyzer's analysis of its text. */
export const analysedModule = (read: ModuleText, analysis: Analysis, context: ModuleScanContext): FileOutcome => {
  const { analyzer, entity, file, findings } = read
  const facts = analysis.facts?._tag === "module" ? analysis.facts : undefined
  return {
    unit: {
      entity: facts === undefined
        ? entity
        : { ...entity, language: facts.language, exports: facts.exports, declarations: facts.declarations },
      relations: facts === undefined ? [] : moduleRelations(file.path, facts.references, context.resolve),
      coverage: [...notesToCoverage(analyzer.id, file.path, analysis.notes), ...findingsToCoverage(analyzer.id, file.path, findings)]
    },
    parsed: true,
    reused: false
  }
}

/** The module's unit, or `Unread` when the file cannot be read as it was listed; analysed here. */
export const scanModule = (
  file: ListedFile,
  context: ModuleScanContext
): Effect.Effect<FileOutcome | Unread, never, SourceTree | Digest.Digest> => {
  const analyzer = context.analyzerOf(file.path)
  // A grammar that cannot load leaves the analyzer to say so, file by file, as a `failed` note.
  const ready = analyzer.ready === undefined ? Effect.void : Effect.ignore(Effect.tryPromise(analyzer.ready))
  return Effect.map(Effect.andThen(ready, readModule(file, context)), (read) =>
    isModuleText(read) ? analysedModule(read, runAnalyzer(analyzer, file.path, read.text), context) : read)
}
