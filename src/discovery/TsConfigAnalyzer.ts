/**
 * tsconfig analyzer: the options module resolution needs (`extends`, `baseUrl`, `paths`), as written.
 * Chains are applied later, when every config file of the tree is known.
 */
import { TSCONFIG } from "./AnalyzerKinds.ts"
import type { Analysis, Analyzer } from "./FileAnalysis.ts"
import { parseJsonc } from "./Jsonc.ts"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const analyze = (_path: string, text: string): Analysis => {
  let config: unknown
  try {
    config = parseJsonc(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { facts: undefined, notes: [{ status: "failed", reason: `tsconfig is not valid JSON: ${message}` }] }
  }
  if (!isRecord(config)) return { facts: undefined, notes: [{ status: "failed", reason: "tsconfig is not a JSON object" }] }
  const extendsField = config["extends"]
  const options = isRecord(config["compilerOptions"]) ? config["compilerOptions"] : {}
  const baseUrl = typeof options["baseUrl"] === "string" ? options["baseUrl"] : undefined
  const paths = isRecord(options["paths"])
    ? Object.entries(options["paths"]).map(([pattern, targets]) => ({
      pattern,
      targets: Array.isArray(targets) ? targets.filter((t): t is string => typeof t === "string") : []
    }))
    : undefined
  return {
    facts: {
      _tag: "tsconfig",
      extends: typeof extendsField === "string"
        ? [extendsField]
        : Array.isArray(extendsField)
        ? extendsField.filter((e): e is string => typeof e === "string")
        : [],
      baseUrl,
      paths
    },
    notes: []
  }
}

/** A project config: it scopes the modules beneath it. Other `tsconfig.*.json` files only serve `extends`. */
export const isProjectConfig = (name: string): boolean => name === "tsconfig.json" || name === "jsconfig.json"

export const TsConfigAnalyzer: Analyzer = { ...TSCONFIG, analyze }
