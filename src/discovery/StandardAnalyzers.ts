/** The analyzers a scan runs by default, with their parsers: loaded by what reads files, not by what only lists them. */
import { ManifestAnalyzer } from "./ManifestAnalyzer.ts"
import { MarkdownAnalyzer } from "./MarkdownAnalyzer.ts"
import { make, type Registry } from "./Registry.ts"
import { TsConfigAnalyzer } from "./TsConfigAnalyzer.ts"
import { TypeScriptAnalyzer } from "./TypeScriptAnalyzer.ts"

export const standard: Registry = make([TypeScriptAnalyzer, MarkdownAnalyzer, ManifestAnalyzer, TsConfigAnalyzer])
