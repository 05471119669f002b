/**
 * Resolves an import specifier to an endpoint: `module:<path>` for a scanned module, `package:<…>`
 * for a workspace package whose entry file is not in the scan, `external:<name>` for a bare package,
 * or `unresolved:<reference>` when the specifier names nothing the scan models. Nothing is guessed:
 * every step is one TypeScript or Node itself would take.
 */
import type { CompilerOptions, EntryPoint, PathMapping } from "../domain/Snapshot.ts"
import { configLookup } from "./CompilerOptions.ts"
import { languageResolver } from "./LanguageResolution.ts"
import { ancestors, dirname, extname, join, resolve } from "../source/Paths.ts"

export interface WorkspacePackage {
  readonly id: string
  readonly name: string | null
  readonly directory: string
  /** Targets root-relative, `*` kept in patterns. */
  readonly entryPoints: ReadonlyArray<EntryPoint>
  /** Subpath imports (`#` patterns) to root-relative targets, tried in order; absent when none. */
  readonly imports?: ReadonlyArray<PathMapping> | undefined
}

/** Everything a module's imports resolve against; equal universes resolve every specifier alike. */
export interface ModuleUniverse {
  readonly modules: ReadonlySet<string>
  readonly packages: ReadonlyArray<WorkspacePackage>
  readonly compilerOptions: ReadonlyArray<CompilerOptions>
}

/** The endpoint a specifier names, or several (a Go import names every file of its package). */
export type Resolver = (from: string, specifier: string) => string | ReadonlyArray<string>

/** TypeScript's mapping from a written JavaScript extension to the files it may mean, in its order. */
const MAPPED_EXTENSIONS: Readonly<Record<string, ReadonlyArray<string>>> = {
  ".js": [".ts", ".tsx", ".d.ts", ".js", ".jsx"],
  ".jsx": [".tsx", ".d.ts", ".jsx"],
  ".mjs": [".mts", ".d.mts", ".mjs"],
  ".cjs": [".cts", ".d.cts", ".cjs"]
}
const PROBED_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"]

/** The bare package a specifier names: `@scope/name` or `name`, subpath dropped. */
export const packageName = (specifier: string): string => {
  const segments = specifier.split("/")
  return specifier.startsWith("@") && segments.length > 1 ? `${segments[0]}/${segments[1]}` : segments[0]!
}

const isRelative = (specifier: string): boolean =>
  specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../")

/** The capture of `*` when `pattern` matches, `""` for an exact match, else undefined. */
const capture = (pattern: string, value: string): string | undefined => {
  const star = pattern.indexOf("*")
  if (star < 0) return pattern === value ? "" : undefined
  const prefix = pattern.slice(0, star)
  const suffix = pattern.slice(star + 1)
  return value.length >= prefix.length + suffix.length && value.startsWith(prefix) && value.endsWith(suffix)
    ? value.slice(prefix.length, value.length - suffix.length)
    : undefined
}

/** Exact patterns beat wildcard ones; among wildcards the longest prefix wins, then the first written. */
const bestMatch = <A extends { readonly pattern: string }>(
  entries: ReadonlyArray<A>,
  value: string
): { entry: A; star: string } | undefined => {
  let best: { entry: A; star: string; rank: number } | undefined
  for (const entry of entries) {
    const star = capture(entry.pattern, value)
    if (star === undefined) continue
    const rank = entry.pattern.includes("*") ? entry.pattern.indexOf("*") : Number.MAX_SAFE_INTEGER
    if (best === undefined || rank > best.rank) best = { entry, star, rank }
  }
  return best
}

export const makeResolver = (universe: ModuleUniverse): Resolver => {
  const { modules } = universe
  const configFor = configLookup(universe.compilerOptions)
  const byName = new Map<string, WorkspacePackage>()
  const byDirectory = new Map<string, WorkspacePackage>()
  for (const workspace of universe.packages) {
    if (workspace.name !== null && workspace.id === `package:${workspace.name}`) byName.set(workspace.name, workspace)
    byDirectory.set(workspace.directory, workspace)
  }
  /** Node's package scope of a module: the nearest package.json above it, whatever it declares. */
  const scopeOf = (from: string): WorkspacePackage | undefined => {
    for (const directory of ancestors(from)) {
      const scope = byDirectory.get(directory)
      if (scope !== undefined) return scope
    }
    return undefined
  }

  const findModule = (base: string): string | undefined => {
    const extension = extname(base)
    const mapped = MAPPED_EXTENSIONS[extension]
    if (mapped !== undefined) {
      const stem = base.slice(0, -extension.length)
      for (const candidate of mapped) if (modules.has(stem + candidate)) return stem + candidate
    }
    if (modules.has(base)) return base
    for (const candidate of PROBED_EXTENSIONS) if (modules.has(base + candidate)) return base + candidate
    for (const candidate of PROBED_EXTENSIONS) {
      const index = join(base, `index${candidate}`)
      if (modules.has(index)) return index
    }
    return undefined
  }

  /** The first target of a matched `paths` or `imports` pattern that names a module; none is `unresolved`. */
  const mappedTarget = (match: { entry: PathMapping; star: string }, specifier: string): string => {
    for (const target of match.entry.targets) {
      const found = findModule(target.replace("*", match.star))
      if (found !== undefined) return `module:${found}`
    }
    return `unresolved:${specifier}`
  }

  const workspaceTarget = (workspace: WorkspacePackage, specifier: string): string => {
    const subpath = `.${specifier.slice(workspace.name!.length)}`
    const entries = workspace.entryPoints.map((entry) => ({ pattern: entry.subpath, target: entry.target }))
    const match = bestMatch(entries, subpath)
    const candidate = match !== undefined
      ? match.entry.target.replace("*", match.star)
      : entries.length === 0
      ? join(workspace.directory, subpath.slice(2))
      : undefined
    const found = candidate === undefined ? undefined : findModule(candidate)
    return found === undefined ? workspace.id : `module:${found}`
  }

  const resolveUncached = (from: string, specifier: string): string => {
    if (isRelative(specifier)) {
      const base = resolve(dirname(from), specifier)
      const found = base === undefined ? undefined : findModule(base)
      return found !== undefined ? `module:${found}` : `unresolved:${base ?? specifier}`
    }
    if (specifier === "" || specifier.startsWith("/") || /\s/.test(specifier)) return `unresolved:${specifier}`
    const options = configFor(from)
    if (options !== undefined && options.paths.length > 0) {
      const match = bestMatch(options.paths, specifier)
      if (match !== undefined) return mappedTarget(match, specifier)
    }
    if (options?.baseUrl !== undefined && options.baseUrl !== null) {
      const found = findModule(join(options.baseUrl, specifier))
      if (found !== undefined) return `module:${found}`
    }
    // Subpath imports, after `paths` and `baseUrl` as TypeScript tries them; a `#` name no
    // `imports` entry matches stays the external it always was.
    if (specifier.startsWith("#")) {
      const imports = scopeOf(from)?.imports
      const match = imports === undefined ? undefined : bestMatch(imports, specifier)
      if (match !== undefined) return mappedTarget(match, specifier)
    }
    const name = packageName(specifier)
    const workspace = byName.get(name)
    if (workspace !== undefined) return workspaceTarget(workspace, specifier)
    return `external:${name}`
  }

  // A relative specifier depends on the importing directory, any other on the governing tsconfig
  // (and a `#` import on the package scope too): modules share answers, and a bare name is
  // resolved once per config.
  const memo = new Map<string, string>()
  const ofLanguage = languageResolver(universe)
  return (from, specifier) => {
    const inLanguage = ofLanguage(from, specifier)
    if (inLanguage !== undefined) return inLanguage
    const key = isRelative(specifier)
      ? `${dirname(from)}\u0000${specifier}`
      : specifier.startsWith("#")
      ? `\u0002${configFor(from)?.path ?? ""}\u0000${scopeOf(from)?.id ?? ""}\u0000${specifier}`
      : `\u0001${configFor(from)?.path ?? ""}\u0000${specifier}`
    let endpoint = memo.get(key)
    if (endpoint === undefined) {
      endpoint = resolveUncached(from, specifier)
      memo.set(key, endpoint)
    }
    return endpoint
  }
}
