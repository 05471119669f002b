/**
 * Imports of the languages read with tree-sitter, resolved by their language's rules (see each spec
 * in src/languages/specs) against the modules the scan holds: `module:<path>` for each file an import
 * names (a Go import names every file of its package), else `external:<specifier>` for a package
 * outside the repository, `unresolved:<specifier>` for a file that is not there.
 */
import { languageOfPath } from "../languages/Languages.ts"
import type { ResolveContext } from "../languages/LanguageSpec.ts"
import { compareIds } from "../domain/Ranking.ts"
import { dirname } from "../source/Paths.ts"
import type { ModuleUniverse } from "./ModuleResolution.ts"

/** Every suffix of a path that starts at a segment: `a/b/c.py`, `b/c.py`, `c.py`. */
const suffixes = (path: string): Array<string> => {
  const out = [path]
  for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", slash + 1)) out.push(path.slice(slash + 1))
  return out
}

const indexBy = (paths: Iterable<string>, keys: (path: string) => ReadonlyArray<string>): Map<string, Array<string>> => {
  const index = new Map<string, Array<string>>()
  for (const path of paths) {
    for (const key of keys(path)) {
      const list = index.get(key)
      if (list === undefined) index.set(key, [path])
      else if (list[list.length - 1] !== path) list.push(path)
    }
  }
  for (const list of index.values()) list.sort(compareIds)
  return index
}

/** The context every language resolves against, indexed once per universe and only when a file of such a language asks. */
const contextOf = (universe: ModuleUniverse): ResolveContext => {
  let byDirectory: Map<string, Array<string>> | undefined
  let bySuffix: Map<string, Array<string>> | undefined
  let directories: Map<string, Array<string>> | undefined
  return {
    modules: universe.modules,
    inDirectory: (directory) => (byDirectory ??= indexBy(universe.modules, (path) => [dirname(path)])).get(directory) ?? [],
    endingWith: (suffix) => (bySuffix ??= indexBy(universe.modules, suffixes)).get(suffix) ?? [],
    directoriesEndingWith: (suffix) =>
      (directories ??= indexBy(new Set([...universe.modules].map(dirname).filter((directory) => directory !== "")), suffixes)).get(suffix) ?? [],
    packages: universe.packages.flatMap((workspace) => workspace.name === null ? [] : [{ name: workspace.name, directory: workspace.directory }])
  }
}

/**
 * A resolver for the files of tree-sitter languages, or undefined for a file of another (TypeScript's
 * resolver answers those). Answers are memoised by importing directory and specifier, which is all a
 * language's rules read of the importing file but for Rust's `mod`, keyed by the file.
 */
export const languageResolver = (universe: ModuleUniverse) => {
  const context = contextOf(universe)
  const memo = new Map<string, string | ReadonlyArray<string>>()
  return (from: string, specifier: string): string | ReadonlyArray<string> | undefined => {
    const language = languageOfPath(from)
    if (language === undefined) return undefined
    const key = `${language.id}\u0000${language.id === "rust" ? from : dirname(from)}\u0000${specifier}`
    let endpoint = memo.get(key)
    if (endpoint === undefined) {
      const files = language.resolve?.(from, specifier, context) ?? []
      endpoint = files.length > 0
        ? files.map((file) => `module:${file}`)
        : language.external?.(specifier) === true ? `external:${specifier}` : `unresolved:${specifier}`
      memo.set(key, endpoint)
    }
    return endpoint
  }
}
