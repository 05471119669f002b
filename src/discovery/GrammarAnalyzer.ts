/**
 * The analyzer of a language read with tree-sitter (src/languages): its outline's top-level
 * declarations, the exported ones as the module's exports, and its imports as references. A file
 * whose parse is given up, or whose grammar is not loaded, gives no facts and a `failed` note (its
 * chunks are then line windows); a syntax error gives the facts read around it and a `partial` note.
 */
import type { Declaration, ExportedSymbol, ModuleLanguage } from "../domain/Snapshot.ts"
import { compareIds } from "../domain/Ranking.ts"
import * as Grammars from "../languages/Grammars.ts"
import type { LanguageSpec } from "../languages/LanguageSpec.ts"
import { outlineOf } from "../languages/Outline.ts"
import * as PackedUnits from "../languages/PackedUnits.ts"
import type { Analysis, Analyzer, Note } from "./FileAnalysis.ts"
import { GRAMMAR_ANALYZER_VERSION } from "./GrammarVersion.ts"


const byLineThenName = (a: Declaration, b: Declaration): number => a.line - b.line || compareIds(a.name, b.name)
const byNameThenLine = (a: ExportedSymbol, b: ExportedSymbol): number => compareIds(a.name, b.name) || a.line - b.line

const analyze = (language: LanguageSpec) => (_path: string, text: string): Analysis => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const read = Grammars.withTree(language.grammar, source, (tree) => outlineOf(language, source, tree))
  if (read === "not-loaded") return { facts: undefined, notes: [{ status: "failed", reason: `the ${language.name} grammar is not loaded; chunked by lines` }] }
  if (read === "gave-up") {
    return { facts: undefined, notes: [{ status: "failed", reason: `the ${language.name} parse was given up after ${Grammars.MAX_PARSE_STEPS} steps; chunked by lines` }] }
  }
  const notes: Array<Note> = read.firstErrorLine === undefined ? [] : [{
    status: "partial",
    reason: `syntax error at line ${read.firstErrorLine}; declarations inside the error are missing`
  }]
  return {
    facts: {
      _tag: "module",
      language: language.id as ModuleLanguage,
      exports: read.declarations
        .filter((declaration) => declaration.exported)
        .map((declaration) => ({ name: declaration.name, line: declaration.line, declared: true, typeOnly: false }))
        .sort(byNameThenLine),
      declarations: read.declarations.map(({ kind, line, name }) => ({ name, kind, line })).sort(byLineThenName),
      references: read.imports.map(({ kind, line, specifier }) => ({ kind, specifier, line }))
    },
    notes,
    units: PackedUnits.pack(read.units, source.length)
  }
}

export const grammarAnalyzer = (language: LanguageSpec): Analyzer => ({
  id: language.id,
  version: GRAMMAR_ANALYZER_VERSION,
  extensions: language.extensions,
  fileNamePattern: undefined,
  analyze: analyze(language),
  ready: () => Grammars.ready([language.grammar])
})
