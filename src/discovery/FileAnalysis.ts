/**
 * What an analyzer reads from one file, before anything is resolved against the rest of the
 * repository. Facts depend on the file's bytes alone; resolution turns references into relations.
 */
import type {
  CoverageStatus,
  Declaration,
  ExportedSymbol,
  Heading,
  LineRange,
  ModuleLanguage
} from "../domain/Snapshot.ts"
import type { PackedUnits } from "../languages/PackedUnits.ts"

/** A per-file coverage note; its scope is the file and its analyzer the one that wrote it. */
export interface Note {
  readonly status: CoverageStatus
  readonly reason: string
}

export type ModuleReferenceKind = "imports" | "imports-type" | "re-exports" | "imports-dynamic" | "requires" | "calls"

export interface ModuleReference {
  readonly kind: ModuleReferenceKind
  readonly specifier: string
  readonly line: number
  /** For `calls`: the export called (`f`, `default`, `Class.method`); for `re-exports`: `*` for `export *`. */
  readonly symbol?: string
}

export interface ModuleFacts {
  readonly _tag: "module"
  readonly language: ModuleLanguage
  readonly exports: ReadonlyArray<ExportedSymbol>
  readonly declarations: ReadonlyArray<Declaration>
  readonly references: ReadonlyArray<ModuleReference>
}

/**
 * A reference written in prose. `link`: a Markdown link target; `wikilink`: `[[target]]`;
 * `code`: an inline code span; `link-text`: a link's text; `covers`: a cairn block entry;
 * `verb`: a line of a Relations section (`verb [[target]]`).
 */
export interface DocumentReference {
  readonly kind: "link" | "wikilink" | "code" | "link-text" | "covers" | "verb"
  readonly target: string
  readonly line: number
  /** The relation kind an author wrote, for `verb` references. */
  readonly verb?: string
}

export interface DocumentFacts {
  readonly _tag: "document"
  readonly title: string
  readonly headings: ReadonlyArray<Heading>
  readonly summary: string
  readonly wordCount: number
  readonly frontmatter: Readonly<Record<string, string>>
  readonly generatedRegions: ReadonlyArray<LineRange>
  /** In document order; references inside generated regions are already dropped. */
  readonly references: ReadonlyArray<DocumentReference>
}

export interface Dependency {
  readonly name: string
  readonly line: number
}

export interface ManifestFacts {
  readonly _tag: "manifest"
  readonly name: string | null
  readonly version: string | null
  readonly dependencies: ReadonlyArray<Dependency>
  readonly workspaces: ReadonlyArray<string>
  /** Subpath to target as written, relative to the manifest's directory; `*` patterns allowed. */
  readonly entryPoints: ReadonlyArray<{ readonly subpath: string; readonly target: string }>
  /** `imports` patterns to their `./` targets as written, in condition order; only patterns with one. */
  readonly imports: ReadonlyArray<{ readonly pattern: string; readonly targets: ReadonlyArray<string> }>
}

export interface TsConfigFacts {
  readonly _tag: "tsconfig"
  /** `extends` entries as written. */
  readonly extends: ReadonlyArray<string>
  /** As written, relative to this file's directory; undefined when the file does not set it. */
  readonly baseUrl: string | undefined
  readonly paths: ReadonlyArray<{ readonly pattern: string; readonly targets: ReadonlyArray<string> }> | undefined
}

export type FileFacts = ModuleFacts | DocumentFacts | ManifestFacts | TsConfigFacts

/** An analyzer's answer: facts, or none when the file could not be understood, plus its notes. */
export interface Analysis {
  readonly facts: FileFacts | undefined
  readonly notes: ReadonlyArray<Note>
  /**
   * The file cut into the units its chunker packs, when the analyzer parsed it the way the chunker
   * would (a language read with tree-sitter): handed on so the file is not parsed twice. Never
   * part of a snapshot.
   */
  readonly units?: PackedUnits
}

export interface Analyzer {
  /** Also the coverage `analyzer` of its notes. */
  readonly id: string
  /** Bumped whenever the same bytes would give different facts; gates reuse of a previous snapshot. */
  readonly version: string
  /** Lower-case extensions with their dot. */
  readonly extensions: ReadonlyArray<string>
  /** File names this analyzer takes whatever their extension; checked before extensions. */
  readonly fileNamePattern: RegExp | undefined
  /** Text-to-facts; may throw, the registry contains it. */
  readonly analyze: (path: string, text: string) => Analysis
  /**
   * The same facts for a file analysed on its own, as a patch of a few moved files does, where
   * `analyze` is tuned for throughput on many (see OxcModule.ts). Absent: `analyze` serves both.
   */
  readonly analyzeAlone?: (path: string, text: string) => Analysis
  /**
   * Loads what `analyze` needs that cannot be loaded synchronously (a tree-sitter grammar); every
   * caller awaits it before the first `analyze`. Absent: nothing to load.
   */
  readonly ready?: () => Promise<void>
}
