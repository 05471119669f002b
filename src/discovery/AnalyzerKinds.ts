/**
 * What each standard analyzer takes (its file names and extensions) and its version, known without
 * loading it. A check that the tree is unchanged since the last scan needs no more than this, so
 * the parsers behind the analyzers (oxc, remark) load only when a file is actually read.
 */
import { LANGUAGES } from "../languages/Languages.ts"
import { TEXT_EXTENSIONS, TEXT_FILE_NAMES } from "../languages/TextFiles.ts"
import type { Analyzer } from "./FileAnalysis.ts"
import { GRAMMAR_ANALYZER_VERSION } from "./GrammarVersion.ts"

export type AnalyzerKind = Omit<Analyzer, "analyze" | "analyzeAlone" | "ready">

export const TYPESCRIPT = {
  id: "typescript",
  version: "3",
  extensions: [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"],
  fileNamePattern: undefined
} as const satisfies AnalyzerKind

export const MARKDOWN = {
  id: "markdown",
  version: "1",
  extensions: [".md", ".mdx"],
  fileNamePattern: undefined
} as const satisfies AnalyzerKind

export const MANIFEST = {
  id: "manifest",
  version: "1",
  extensions: [],
  fileNamePattern: /^package\.json$/
} as const satisfies AnalyzerKind

export const TSCONFIG = {
  id: "tsconfig",
  version: "1",
  extensions: [],
  fileNamePattern: /^(tsconfig|jsconfig)(\..+)?\.json$/
} as const satisfies AnalyzerKind

export const GOMOD = {
  id: "gomod",
  version: "1",
  extensions: [],
  fileNamePattern: /^go\.mod$/
} as const satisfies AnalyzerKind

/** Configuration and other text, kept as a module of no declarations and chunked by lines. */
export const TEXT = {
  id: "text",
  version: "1",
  extensions: [...TEXT_EXTENSIONS],
  fileNamePattern: TEXT_FILE_NAMES
} as const satisfies AnalyzerKind

/** The languages read with tree-sitter, one analyzer each, named by the language. */
export const GRAMMARS: ReadonlyArray<AnalyzerKind> = LANGUAGES.map((language) => ({
  id: language.id,
  version: GRAMMAR_ANALYZER_VERSION,
  extensions: language.extensions,
  fileNamePattern: undefined
}))

/** The standard analyzers, in registration order (later registrations win a tie). */
export const STANDARD: ReadonlyArray<AnalyzerKind> = [TEXT, TYPESCRIPT, ...GRAMMARS, MARKDOWN, MANIFEST, GOMOD, TSCONFIG]
