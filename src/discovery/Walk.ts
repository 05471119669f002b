/**
 * Lists the files a scan may read: every `.gitignore` honoured at its own level and
 * `.git/info/exclude` at the root, the configuration's include and exclude applied, secrets,
 * symbolic links, names that are not UTF-8 and directories that cannot be read reported as
 * coverage instead of listed.
 * Listing order is whatever the tree gives; everything downstream sorts.
 */
import { Effect, Option, Result } from "effect"
import ignore from "ignore"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { Coverage } from "../domain/Snapshot.ts"
import type { LinkTarget } from "../ports/SourceTree.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import type { DiscoveryConfig } from "./DiscoveryConfig.ts"
import { join } from "../source/Paths.ts"
import * as ScanCache from "./ScanCache.ts"
import type { ScanCache as Cache } from "./ScanCache.ts"
import { isSensitive } from "./Sensitive.ts"

export interface ListedFile {
  readonly path: string
  readonly size: number
  readonly stamp: string
}

export interface Listing {
  readonly files: ReadonlyArray<ListedFile>
  readonly coverage: ReadonlyArray<Coverage>
}

/** Never part of a repository's content, whatever its ignore files say. */
const SKIPPED_DIRECTORIES = new Set([".git", "node_modules", ".cairn"])

type Matcher = ReturnType<typeof ignore>

interface IgnoreFile {
  readonly directory: string
  readonly matcher: Matcher
}

const newMatcher = (patterns: ReadonlyArray<string>): Matcher => ignore({ ignorecase: false }).add(patterns)

/** Git's precedence: the deepest ignore file with a matching rule decides, its last matching rule wins. */
const isIgnored = (path: string, isDirectory: boolean, files: ReadonlyArray<IgnoreFile>): boolean => {
  for (let index = files.length - 1; index >= 0; index--) {
    const { directory, matcher } = files[index]!
    const relative = directory === "" ? path : path.slice(directory.length + 1)
    const result = matcher.test(isDirectory ? `${relative}/` : relative)
    if (result.ignored) return true
    if (result.unignored) return false
  }
  return false
}

const hasWildcard = (pattern: string): boolean => /[*?[\]!]/.test(pattern)

const decoder = new TextDecoder()

/** The coverage note of a symbolic link: where it leads, and that it is not followed. */
const linkReason = (target: LinkTarget): string => {
  switch (target._tag) {
    case "Inside":
      return `symbolic link to ${target.path}; not followed, the target is scanned where it lives`
    case "Outside":
      return "symbolic link leaving the root; never followed"
    case "Loop":
      return "symbolic link loop (it never reaches a file); never followed"
    case "Dangling":
      return "symbolic link to a missing target; never followed"
  }
}

/**
 * `cache` keeps matchers by their rules' text, so a later scan reuses them and the answers they
 * memoise per path (the matcher's own cache), which is most of the cost of ignore checks.
 */
export const walk = Effect.fnUntraced(function*(config: DiscoveryConfig, cache: Cache = ScanCache.make()) {
  const tree = yield* SourceTree
  const matchers = cache.textTable<Matcher>("ignore-matchers")
  const matcher = (patterns: ReadonlyArray<string>): Matcher =>
    ScanCache.memo(matchers, patterns.join("\n"), () => newMatcher(patterns))
  const ignoreFile = (directory: string, bytes: Uint8Array): IgnoreFile => {
    const text = decoder.decode(bytes)
    return { directory, matcher: ScanCache.memo(matchers, `${directory}\u0000${text}`, () => newMatcher(text.split(/\r?\n/))) }
  }
  const exclude = matcher(config.exclude)
  const include = config.include.length > 0 ? matcher(config.include) : undefined
  const namedExplicitly = new Set(config.include.filter((p) => !hasWildcard(p)).map((p) => p.replace(/^\//, "")))
  const files: Array<ListedFile> = []
  const coverage: Array<Coverage> = []

  const failed = (scope: string, detail: string, consequence: string): Coverage => ({
    analyzer: "source-tree",
    scope,
    status: "failed",
    reason: `cannot read: ${detail}; ${consequence}`
  })

  const visit = Effect.fnUntraced(function*(directory: string, ignoreFiles: ReadonlyArray<IgnoreFile>): Effect.fn.Return<void, DiscoveryError> {
      // The root must be readable; a directory below it that is not costs its own files alone.
      const listed = yield* Effect.result(tree.list(directory))
      if (Result.isFailure(listed)) {
        if (directory === "") return yield* Effect.fail(listed.failure)
        coverage.push(failed(directory, listed.failure.reason.detail, "the files below it are not listed"))
        return
      }
      const entries = listed.success
      let scoped = ignoreFiles
      if (entries.some((entry) => entry.name === ".gitignore" && entry.type === "file")) {
        const path = join(directory, ".gitignore")
        const rules = yield* Effect.result(tree.read(path))
        // As git does: an ignore file it cannot read is passed over, with a warning.
        if (Result.isSuccess(rules)) scoped = [...ignoreFiles, ignoreFile(directory, rules.success)]
        else coverage.push(failed(path, rules.failure.reason.detail, "its rules are not applied"))
      }
      const subdirectories: Array<string> = []
      for (const entry of entries) {
        const path = join(directory, entry.name)
        if (entry.type === "undecodable") {
          if (isIgnored(path, false, scoped) || exclude.ignores(path)) continue
          coverage.push({
            analyzer: "source-tree",
            scope: path,
            status: "failed",
            reason: "name is not valid UTF-8 (shown with \\xNN for its other bytes); not read, rename it to index it"
          })
          continue
        }
        if (entry.type === "directory") {
          if (SKIPPED_DIRECTORIES.has(entry.name)) continue
          if (isIgnored(path, true, scoped) || exclude.ignores(`${path}/`)) continue
          subdirectories.push(path)
          continue
        }
        if (isIgnored(path, false, scoped) || exclude.ignores(path)) continue
        if (include !== undefined && !include.ignores(path)) continue
        if (entry.type === "symlink") {
          const target = yield* tree.linkTarget(path)
          coverage.push({
            analyzer: "source-tree",
            scope: path,
            status: "skipped-symlink",
            reason: linkReason(target)
          })
          continue
        }
        if (entry.type !== "file") continue
        if (isSensitive(path) && !namedExplicitly.has(path)) {
          coverage.push({
            analyzer: "source-tree",
            scope: path,
            status: "excluded-sensitive",
            reason: "file name suggests secrets; never read unless config.include names this exact path"
          })
          continue
        }
        files.push({ path, size: entry.size, stamp: entry.stamp })
      }
      // One directory at a time: the listing is cheap next to a fiber per directory.
      for (const sub of subdirectories) yield* visit(sub, scoped)
    })

  // Git's own excludes apply from the root, below every .gitignore in precedence. None to read (no
  // repository, or a `.git` file naming a git directory elsewhere) means none to apply.
  const excludes = yield* Effect.option(tree.read(".git/info/exclude"))
  yield* visit("", Option.isSome(excludes) ? [ignoreFile("", excludes.value)] : [])
  return { files, coverage } satisfies Listing
})
