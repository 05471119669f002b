/**
 * Applies `extends` chains to the tree's tsconfig files and resolves `baseUrl` and `paths` to
 * root-relative form, the way TypeScript reads them: the nearest config in the chain that sets an
 * option wins, and `paths` targets are relative to `baseUrl` when one is set, else to the config
 * file that declares them.
 */
import type { CompilerOptions, PathMapping } from "../domain/Snapshot.ts"
import type { Note, TsConfigFacts } from "./FileAnalysis.ts"
import { basename, dirname, resolve } from "../source/Paths.ts"
import { isProjectConfig } from "./TsConfigAnalyzer.ts"
import { compareIds } from "../domain/Ranking.ts"

export interface ConfigFile {
  readonly path: string
  readonly contentHash: string
  readonly facts: TsConfigFacts
}

export interface ResolvedOptions {
  readonly options: ReadonlyArray<CompilerOptions>
  /** Notes per config path, for chains that leave the scan. */
  readonly notes: ReadonlyMap<string, ReadonlyArray<Note>>
}

const MAX_CHAIN = 16

const extendsPath = (from: string, reference: string): string | undefined => {
  if (!reference.startsWith(".") && !reference.startsWith("/")) return undefined
  const target = resolve(dirname(from), reference)
  return target === undefined ? undefined : target.endsWith(".json") ? target : `${target}.json`
}

/** Project configs (tsconfig.json, jsconfig.json) with their chains applied, sorted by path. */
export const resolveCompilerOptions = (files: ReadonlyArray<ConfigFile>): ResolvedOptions => {
  const byPath = new Map(files.map((file) => [file.path, file]))
  const notes = new Map<string, Array<Note>>()
  const options: Array<CompilerOptions> = []
  const projects = files.filter((file) => isProjectConfig(basename(file.path)))
    .sort((a, b) => compareIds(a.path, b.path))
  for (const project of projects) {
    const chain: Array<ConfigFile> = []
    const pending: Array<ConfigFile> = [project]
    const own: Array<Note> = []
    // Depth-first, child before parents: the first config in `chain` that sets an option wins.
    while (pending.length > 0 && chain.length < MAX_CHAIN) {
      const current = pending.shift()!
      if (chain.includes(current)) continue
      chain.push(current)
      const parents: Array<ConfigFile> = []
      for (const reference of current.facts.extends) {
        const target = extendsPath(current.path, reference)
        const parent = target === undefined ? undefined : byPath.get(target)
        if (parent === undefined) {
          own.push({ status: "partial", reason: `extends ${reference} is outside the scan; its options are not applied` })
        } else {
          parents.push(parent)
        }
      }
      // Later entries of an `extends` array override earlier ones, so they are consulted first.
      pending.unshift(...parents.reverse())
    }
    const baseSetter = chain.find((config) => config.facts.baseUrl !== undefined)
    const baseUrl = baseSetter === undefined
      ? null
      : (resolve(dirname(baseSetter.path), baseSetter.facts.baseUrl!) ?? null)
    const pathsSetter = chain.find((config) => config.facts.paths !== undefined)
    const pathsBase = baseUrl ?? (pathsSetter === undefined ? "" : dirname(pathsSetter.path))
    const paths: Array<PathMapping> = (pathsSetter?.facts.paths ?? []).map((mapping) => ({
      pattern: mapping.pattern,
      targets: mapping.targets
        .map((target) => (target.startsWith("/") ? undefined : resolve(pathsBase, target)))
        .filter((target): target is string => target !== undefined)
    }))
    options.push({ path: project.path, contentHash: project.contentHash, baseUrl, paths })
    if (own.length > 0) notes.set(project.path, own)
  }
  return { options, notes }
}

/** The project config governing a file: the nearest tsconfig.json or jsconfig.json above it. */
export const configLookup = (
  options: ReadonlyArray<CompilerOptions>
): (path: string) => CompilerOptions | undefined => {
  const byDirectory = new Map<string, CompilerOptions>()
  // tsconfig.json wins over jsconfig.json in the same directory; both sort by path.
  for (const option of options) {
    const directory = dirname(option.path)
    const held = byDirectory.get(directory)
    if (held === undefined || basename(option.path) === "tsconfig.json") byDirectory.set(directory, option)
  }
  const cache = new Map<string, CompilerOptions | undefined>()
  const lookup = (directory: string): CompilerOptions | undefined => {
    if (cache.has(directory)) return cache.get(directory)
    const found = byDirectory.get(directory) ?? (directory === "" ? undefined : lookup(dirname(directory)))
    cache.set(directory, found)
    return found
  }
  return (path) => lookup(dirname(path))
}
