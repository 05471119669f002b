/** Configuration and other text: a module of no declarations or imports, so the index keeps it and chunks it by lines. */
import { TEXT } from "./AnalyzerKinds.ts"
import type { Analyzer } from "./FileAnalysis.ts"

export const TextAnalyzer: Analyzer = {
  ...TEXT,
  analyze: () => ({ facts: { _tag: "module", language: "text", exports: [], declarations: [], references: [] }, notes: [] })
}
