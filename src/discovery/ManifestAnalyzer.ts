/**
 * package.json analyzer: the package's name and version, its dependencies with the line each is
 * declared on, its workspace globs, its entry points (`exports`, else `main`/`module`) and its
 * subpath imports (`imports`).
 */
import { MANIFEST } from "./AnalyzerKinds.ts"
import type { Analysis, Analyzer, Dependency } from "./FileAnalysis.ts"
import { lineIndex } from "../source/Lines.ts"

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const

/** Conditions tried for an `exports` target, most source-like first. */
const CONDITIONS = ["source", "import", "module", "default", "require", "node", "types"] as const

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The first string a conditional export resolves to, or undefined (`null` blocks a subpath). */
const pickTarget = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = pickTarget(item)
      if (target !== undefined) return target
    }
    return undefined
  }
  if (!isRecord(value)) return undefined
  for (const condition of CONDITIONS) {
    if (condition in value) {
      const target = pickTarget(value[condition])
      if (target !== undefined) return target
    }
  }
  return undefined
}

const entryPointsOf = (manifest: Record<string, unknown>): Array<{ subpath: string; target: string }> => {
  const exports = manifest["exports"]
  const out: Array<{ subpath: string; target: string }> = []
  if (exports !== undefined && exports !== null) {
    const subpaths = isRecord(exports) && Object.keys(exports).some((key) => key.startsWith("."))
      ? Object.entries(exports)
      : [[".", exports] as const]
    for (const [subpath, value] of subpaths) {
      const target = pickTarget(value)
      if (target !== undefined) out.push({ subpath, target })
    }
    return out
  }
  const main = [manifest["main"], manifest["module"]].find((value): value is string => typeof value === "string")
  return main === undefined ? [] : [{ subpath: ".", target: main }]
}

/**
 * Every file an `imports` target may name, in condition order: each is tried until one is in the
 * scan, as TypeScript tries them. A bare package target is no file, and `null` blocks the pattern.
 */
const fileTargets = (value: unknown): Array<string> => {
  if (typeof value === "string") return value.startsWith("./") ? [value] : []
  if (Array.isArray(value)) return value.flatMap(fileTargets)
  if (!isRecord(value)) return []
  return CONDITIONS.flatMap((condition) => (condition in value ? fileTargets(value[condition]) : []))
}

/** Node's subpath imports: `#` patterns with a file target, in the order written. */
const importsOf = (value: unknown): Array<{ pattern: string; targets: Array<string> }> =>
  isRecord(value)
    ? Object.entries(value).flatMap(([pattern, target]) => {
      const targets = [...new Set(fileTargets(target))]
      return pattern.startsWith("#") && pattern !== "#" && targets.length > 0 ? [{ pattern, targets }] : []
    })
    : []

const workspacesOf = (value: unknown): Array<string> => {
  const list = isRecord(value) ? value["packages"] : value
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []
}

const analyze = (_path: string, text: string): Analysis => {
  let manifest: unknown
  try {
    manifest = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { facts: undefined, notes: [{ status: "failed", reason: `package.json is not valid JSON: ${message}` }] }
  }
  if (!isRecord(manifest)) {
    return { facts: undefined, notes: [{ status: "failed", reason: "package.json is not a JSON object" }] }
  }
  const lineOf = lineIndex(text)
  const dependencies: Array<Dependency> = []
  for (const field of DEPENDENCY_FIELDS) {
    const block = manifest[field]
    if (!isRecord(block)) continue
    const fieldAt = Math.max(text.indexOf(`"${field}"`), 0)
    for (const name of Object.keys(block)) {
      const at = text.indexOf(`"${name}"`, fieldAt)
      dependencies.push({ name, line: lineOf(at < 0 ? fieldAt : at) })
    }
  }
  return {
    facts: {
      _tag: "manifest",
      name: typeof manifest["name"] === "string" && manifest["name"] !== "" ? manifest["name"] : null,
      version: typeof manifest["version"] === "string" ? manifest["version"] : null,
      dependencies,
      workspaces: workspacesOf(manifest["workspaces"]),
      entryPoints: entryPointsOf(manifest),
      imports: importsOf(manifest["imports"])
    },
    notes: []
  }
}

export const ManifestAnalyzer: Analyzer = { ...MANIFEST, analyze }
