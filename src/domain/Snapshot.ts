/**
 * The knowledge snapshot discovery produces: entities, relations between them and coverage notes,
 * every fact carrying the file, line and content hash it came from. A snapshot is deterministic: the
 * same tree, configuration and analyzers give the same bytes.
 */
import { Schema } from "effect"

/** Version of this schema; a snapshot declaring another one is never reused. */
export const SCHEMA_VERSION = 1

/** Where a fact was read. The first evidence item of a file-backed entity carries its content hash. */
export const Evidence = Schema.Struct({
  /** Repository-relative POSIX path. */
  path: Schema.String,
  /** 1-based line of the claim, when the claim sits on a line. */
  line: Schema.optionalKey(Schema.Int),
  /** SHA-256 hex of the file's bytes (a Markdown file's after a leading BOM is stripped). */
  contentHash: Schema.optionalKey(Schema.String),
  /** The reference as written (an import specifier, a link target, an inline code span). */
  text: Schema.optionalKey(Schema.String),
  /**
   * For a `calls` relation: the export called (`f`, `default`, `Class.method`), as the module `text`
   * imports names it. For a `re-exports` relation: `*` for `export * from`.
   */
  symbol: Schema.optionalKey(Schema.String),
  /**
   * For a `calls` relation that reached its declaring module through re-exports: the module the
   * import itself names (the barrel), where the call would otherwise land.
   */
  via: Schema.optionalKey(Schema.String)
})
export type Evidence = typeof Evidence.Type

/** An exported name of a module. `declared` is false for a re-export, so symbols resolve to declarers. */
export const ExportedSymbol = Schema.Struct({
  name: Schema.String,
  line: Schema.Int,
  declared: Schema.Boolean,
  typeOnly: Schema.Boolean,
  /** For a re-export: the specifier of the module it comes from, as written. */
  from: Schema.optionalKey(Schema.String),
  /** For a re-export: its name in that module (`default`, or `*` for `export * as name`). */
  imported: Schema.optionalKey(Schema.String)
})
export type ExportedSymbol = typeof ExportedSymbol.Type

export const DeclarationKind = Schema.Literals([
  "function",
  "class",
  "variable",
  "interface",
  "type",
  "enum",
  "namespace",
  // Kinds of the languages read with tree-sitter (src/languages), which TypeScript does not have.
  "method",
  "struct",
  "trait",
  "impl",
  "macro"
])
export type DeclarationKind = typeof DeclarationKind.Type

/** A top-level declaration of a module, exported or not. */
export const Declaration = Schema.Struct({
  name: Schema.String,
  kind: DeclarationKind,
  line: Schema.Int
})
export type Declaration = typeof Declaration.Type

export const ModuleLanguage = Schema.Literals([
  "ts", "tsx", "js", "jsx",
  // Read with tree-sitter: the ids of src/languages/Languages.ts.
  "bash", "c", "cpp", "csharp", "go", "java", "kotlin", "php", "python", "ruby", "rust", "swift",
  // Configuration and other text, chunked by lines (src/languages/TextFiles.ts).
  "text"
])
export type ModuleLanguage = typeof ModuleLanguage.Type

export const ModuleEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("module"),
  path: Schema.String,
  evidence: Schema.Array(Evidence),
  language: ModuleLanguage,
  /** Sorted by name, then line. */
  exports: Schema.Array(ExportedSymbol),
  /** Sorted by line, then name. */
  declarations: Schema.Array(Declaration)
})
export type ModuleEntity = typeof ModuleEntity.Type

export const Heading = Schema.Struct({
  depth: Schema.Int,
  text: Schema.String,
  line: Schema.Int
})
export type Heading = typeof Heading.Type

/** Lines owned by a generator (`<!-- cairn:generated -->` … `<!-- /cairn:generated -->`), inclusive. */
export const LineRange = Schema.Struct({
  startLine: Schema.Int,
  endLine: Schema.Int
})
export type LineRange = typeof LineRange.Type

export const DocumentEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("document"),
  path: Schema.String,
  evidence: Schema.Array(Evidence),
  title: Schema.String,
  /** Headings of depth one to three, in document order. */
  headings: Schema.Array(Heading),
  /** The first paragraph outside generated regions, bounded in length. */
  summary: Schema.String,
  wordCount: Schema.Int,
  /** The recognised frontmatter keys, as strings, keys in code-unit order. */
  frontmatter: Schema.Record(Schema.String, Schema.String),
  generatedRegions: Schema.Array(LineRange),
  /** True when the document referenced more entities than one document may claim. */
  evidenceTruncated: Schema.Boolean
})
export type DocumentEntity = typeof DocumentEntity.Type

/** A subpath a package exposes (`.` for the main entry) and the file it names, relative to the root. */
export const EntryPoint = Schema.Struct({
  subpath: Schema.String,
  target: Schema.String
})
export type EntryPoint = typeof EntryPoint.Type

/**
 * A specifier pattern (`*` at most once) and the root-relative targets it maps to, tried in order:
 * one `paths` entry of a tsconfig, or one `imports` entry of a package.json.
 */
export const PathMapping = Schema.Struct({
  pattern: Schema.String,
  targets: Schema.Array(Schema.String)
})
export type PathMapping = typeof PathMapping.Type

export const PackageEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("package"),
  /** The package.json path. */
  path: Schema.String,
  evidence: Schema.Array(Evidence),
  /** The declared name, or null for a manifest without one (its id then uses its directory). */
  name: Schema.NullOr(Schema.String),
  version: Schema.NullOr(Schema.String),
  /** Directory holding the manifest; `""` is the repository root. */
  directory: Schema.String,
  entryPoints: Schema.Array(EntryPoint),
  /**
   * Subpath imports (`#name` patterns, Node's package.json `imports`) to their file targets, in
   * condition order; absent when the manifest declares none.
   */
  imports: Schema.optionalKey(Schema.Array(PathMapping)),
  /** Workspace globs the manifest declares, as written. */
  workspaces: Schema.Array(Schema.String)
})
export type PackageEntity = typeof PackageEntity.Type

export const AreaEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("area"),
  /** The directory, relative to the root. */
  path: Schema.String,
  evidence: Schema.Array(Evidence)
})
export type AreaEntity = typeof AreaEntity.Type

export const ExternalEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("external"),
  /** The bare package name (`lodash`, `@scope/pkg`, `node:fs`). */
  name: Schema.String,
  evidence: Schema.Array(Evidence)
})
export type ExternalEntity = typeof ExternalEntity.Type

export const Entity = Schema.Union([ModuleEntity, DocumentEntity, PackageEntity, AreaEntity, ExternalEntity])
export type Entity = typeof Entity.Type

export const EntityKind = Schema.Literals(["module", "document", "package", "area", "external"])
export type EntityKind = typeof EntityKind.Type

/** `observed`: read from code or prose. `declared`: an author stated it (a cairn block, a relations list). */
export const RelationStatus = Schema.Literals(["observed", "declared"])
export type RelationStatus = typeof RelationStatus.Type

/** `fuzzy`: a near-miss path reference matched by Jaro-Winkler with a single candidate. */
export const Confidence = Schema.Literals(["exact", "fuzzy"])
export type Confidence = typeof Confidence.Type

/**
 * A directed fact between two entity ids. `to` may also be `unresolved:<reference>` when a reference
 * named nothing the scan found; no entity carries that id. Kinds discovery observes: `imports`,
 * `imports-type`, `re-exports`, `imports-dynamic`, `requires`, `calls`, `test_sibling`, `depends-on`,
 * `contains`, `links-to`, `mentions`, `mentions-symbol`, `covers`; an author-written verb is kept as written.
 */
export const Relation = Schema.Struct({
  kind: Schema.String,
  from: Schema.String,
  to: Schema.String,
  status: RelationStatus,
  confidence: Confidence,
  /** Sorted by path, then line, then text, then symbol. */
  evidence: Schema.Array(Evidence)
})
export type Relation = typeof Relation.Type

export const CoverageStatus = Schema.Literals([
  "complete",
  "partial",
  "not-analyzed",
  "not-applicable",
  "failed",
  "excluded-sensitive",
  "skipped-binary",
  "skipped-size",
  "skipped-symlink"
])
export type CoverageStatus = typeof CoverageStatus.Type

/** What was, and was not, understood. `scope` is a file path for per-file notes. */
export const Coverage = Schema.Struct({
  analyzer: Schema.String,
  scope: Schema.String,
  status: CoverageStatus,
  reason: Schema.String
})
export type Coverage = typeof Coverage.Type

/**
 * The module-resolution options of one tsconfig.json (its `extends` chain applied). A module
 * resolves with the options of the nearest tsconfig.json above it.
 */
export const CompilerOptions = Schema.Struct({
  path: Schema.String,
  contentHash: Schema.String,
  /** Root-relative directory, or null when the chain sets none. */
  baseUrl: Schema.NullOr(Schema.String),
  paths: Schema.Array(PathMapping)
})
export type CompilerOptions = typeof CompilerOptions.Type

export const Snapshot = Schema.Struct({
  schemaVersion: Schema.Int,
  pipelineVersion: Schema.String,
  /** Analyzer id to version, keys in code-unit order. */
  analyzerVersions: Schema.Record(Schema.String, Schema.String),
  configurationHash: Schema.String,
  /** Git HEAD when the tree is a checkout, else null. */
  sourceRevision: Schema.NullOr(Schema.String),
  /** Sorted by path. */
  compilerOptions: Schema.Array(CompilerOptions),
  /** Sorted by id. */
  entities: Schema.Array(Entity),
  /** Sorted by from, kind, to. */
  relations: Schema.Array(Relation),
  /** Sorted by analyzer, scope, status, reason. */
  coverage: Schema.Array(Coverage),
  /** SHA-256 hex of the canonical serialisation of every other field. */
  contentHash: Schema.String
})
export type Snapshot = typeof Snapshot.Type

/** Decodes a snapshot read from disk; failures are `SchemaError`s naming the field. */
export const decodeSnapshotJson = Schema.decodeUnknownEffect(Schema.fromJsonString(Snapshot))
