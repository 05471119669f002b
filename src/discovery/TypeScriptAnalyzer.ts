/**
 * TypeScript and JavaScript analyzer: imports, type imports, re-exports, exported names (declared
 * here or passed through), top-level declarations, every dynamic load, and the calls of imported
 * bindings, on oxc-parser.
 */
import type { Declaration, ExportedSymbol, ModuleLanguage } from "../domain/Snapshot.ts"
import { TYPESCRIPT } from "./AnalyzerKinds.ts"
import type { Analysis, Analyzer, ModuleReference, Note } from "./FileAnalysis.ts"
import { lineIndex } from "../source/Lines.ts"
import { type ParsedModule, parseModule, parseModuleAlone } from "./OxcModule.ts"
import { MAX_PARSE_DEPTH, mayHoldJsx, parseDepth } from "../source/ParseDepth.ts"
import { extname } from "../source/Paths.ts"
import { compareIds } from "../domain/Ranking.ts"

/** Every extension of the TypeScript kind (a test holds the two lists equal). */
export const LANGUAGES: Readonly<Record<string, ModuleLanguage>> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx"
}

export const languageOf = (path: string): ModuleLanguage => LANGUAGES[extname(path)] ?? "ts"

const byNameThenLine = (a: { name: string; line: number }, b: { name: string; line: number }): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.line - b.line

const byLineThenName = (a: { name: string; line: number }, b: { name: string; line: number }): number =>
  a.line - b.line || compareIds(a.name, b.name)

const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text).replace(/\s+/g, " ")

const analyzeWith = (parse: (path: string, text: string) => ParsedModule) => (path: string, text: string): Analysis => {
  // The parser would crash the process rather than fail; the registry reports the throw as a failed file.
  const depth = parseDepth(text, mayHoldJsx(path))
  if (depth > MAX_PARSE_DEPTH) {
    throw new Error(`code nests about ${depth} levels deep, over the ${MAX_PARSE_DEPTH} the parser can take safely`)
  }
  const parsed = parse(path, text)
  const lineOf = lineIndex(text)
  const firstError = parsed.errors[0]
  if (firstError !== undefined) {
    return {
      facts: undefined,
      notes: [{ status: "failed", reason: `syntax error at line ${lineOf(firstError.offset)}: ${firstError.message}` }]
    }
  }
  const references: Array<ModuleReference> = []
  for (const entry of parsed.imports) {
    references.push({ kind: entry.typeOnly ? "imports-type" : "imports", specifier: entry.specifier, line: lineOf(entry.offset) })
  }
  const exports: Array<ExportedSymbol> = []
  for (const entry of parsed.exports) {
    if (entry.from !== null) {
      // `export *` names nothing here; its evidence marks it, so calls can be followed through it.
      const star = entry.name === null ? { symbol: "*" } : {}
      references.push({ kind: "re-exports", specifier: entry.from, line: lineOf(entry.offset), ...star })
    }
    if (entry.name === null) continue
    const declared = entry.from === null && !(entry.local !== null && parsed.importedNames.has(entry.local))
    exports.push({
      name: entry.name,
      line: lineOf(entry.offset),
      declared,
      typeOnly: entry.typeOnly,
      ...(entry.from === null ? {} : { from: entry.from, imported: entry.imported ?? entry.name })
    })
  }
  const computed: Array<string> = []
  for (const load of parsed.loads) {
    const line = lineOf(load.offset)
    if (load.literal === null) {
      computed.push(`line ${line}: ${clip(load.text)}`)
    } else {
      references.push({ kind: load.kind, specifier: load.literal, line })
    }
  }
  // One reference per line and export called: a line calling `f` three times is one fact.
  const called = new Set<string>()
  for (const call of parsed.calls) {
    const line = lineOf(call.offset)
    const key = `${line}\u0000${call.specifier}\u0000${call.symbol}`
    if (called.has(key)) continue
    called.add(key)
    references.push({ kind: "calls", specifier: call.specifier, line, symbol: call.symbol })
  }
  const notes: Array<Note> = []
  const dynamic = parsed.loads.filter((load) => load.kind !== "imports").length
  if (dynamic > 0) {
    notes.push(
      computed.length === 0
        ? { status: "complete", reason: `dynamic loads: ${dynamic}, every target a literal` }
        : {
          status: "not-analyzed",
          reason: `dynamic loads: ${dynamic}, ${computed.length} with a computed target (${computed.join("; ")})`
        }
    )
  }
  const declarations: Array<Declaration> = parsed.declarations
    .map((d) => ({ name: d.name, kind: d.kind, line: lineOf(d.offset) }))
    .sort(byLineThenName)
  return {
    facts: {
      _tag: "module",
      language: languageOf(path),
      exports: exports.sort(byNameThenLine),
      declarations,
      references
    },
    notes
  }
}

export const TypeScriptAnalyzer: Analyzer = {
  ...TYPESCRIPT,
  analyze: analyzeWith(parseModule),
  analyzeAlone: analyzeWith(parseModuleAlone)
}
