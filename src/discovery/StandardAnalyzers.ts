/** The analyzers a scan runs by default, with their parsers: loaded by what reads files, not by what only lists them. */
import { LANGUAGES } from "../languages/Languages.ts"
import { GoModAnalyzer } from "./GoModAnalyzer.ts"
import { grammarAnalyzer } from "./GrammarAnalyzer.ts"
import { ManifestAnalyzer } from "./ManifestAnalyzer.ts"
import { MarkdownAnalyzer } from "./MarkdownAnalyzer.ts"
import { make, type Registry } from "./Registry.ts"
import { TextAnalyzer } from "./TextAnalyzer.ts"
import { TsConfigAnalyzer } from "./TsConfigAnalyzer.ts"
import { TypeScriptAnalyzer } from "./TypeScriptAnalyzer.ts"

export const standard: Registry = make([TextAnalyzer, TypeScriptAnalyzer, ...LANGUAGES.map(grammarAnalyzer), MarkdownAnalyzer, ManifestAnalyzer, GoModAnalyzer, TsConfigAnalyzer])
