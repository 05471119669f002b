/**
 * go.mod analyzer: the module path (a Go import of a package of this module resolves through it, see
 * src/languages/specs/Go.ts) and the modules it requires, each with its line, read as a manifest.
 */
import { GOMOD } from "./AnalyzerKinds.ts"
import type { Analysis, Analyzer, Dependency } from "./FileAnalysis.ts"

const MODULE = /^module\s+("?)([^\s"]+)\1\s*(\/\/.*)?$/
const REQUIRE_LINE = /^require\s+([^\s(]+)\s+\S+/
const REQUIRED = /^([^\s)]+)\s+\S+/

export const analyzeGoMod = (_path: string, text: string): Analysis => {
  let name: string | null = null
  const dependencies: Array<Dependency> = []
  let inRequire = false
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\/\/.*$/, "").trim()
    if (inRequire) {
      if (line.startsWith(")")) inRequire = false
      else {
        const found = REQUIRED.exec(line)
        if (found !== null) dependencies.push({ name: found[1]!, line: index + 1 })
      }
      return
    }
    const module = MODULE.exec(line)
    if (module !== null && name === null) name = module[2]!
    if (/^require\s*\($/.test(line)) inRequire = true
    const single = REQUIRE_LINE.exec(line)
    if (single !== null) dependencies.push({ name: single[1]!, line: index + 1 })
  })
  return {
    facts: { _tag: "manifest", name, version: null, dependencies, workspaces: [], entryPoints: [], imports: [] },
    notes: name === null ? [{ status: "partial", reason: "no module directive; imports of this module cannot be resolved" }] : []
  }
}

export const GoModAnalyzer: Analyzer = { ...GOMOD, analyze: analyzeGoMod }
