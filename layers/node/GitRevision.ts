/**
 * The commit a checkout is at, read from the `.git` directory (or the `gitdir:` file of a worktree)
 * of the root or its nearest ancestor, without running git; and the branch it is on. None when
 * there is no repository.
 */
import { Effect, FileSystem, Option } from "effect"
import * as NodePath from "node:path"

const readText = (fs: FileSystem.FileSystem, path: string): Effect.Effect<Option.Option<string>> =>
  fs.readFileString(path).pipe(Effect.map(Option.some), Effect.orElseSucceed(() => Option.none()))

const isSha = (text: string): boolean => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text)

/** The git directory for `start` or the nearest ancestor holding a `.git`. */
const gitDirectory = Effect.fnUntraced(function*(fs: FileSystem.FileSystem, start: string) {
  for (let directory = start;; directory = NodePath.dirname(directory)) {
    const dotGit = NodePath.join(directory, ".git")
    const info = yield* fs.stat(dotGit).pipe(Effect.option)
    if (Option.isSome(info)) {
      if (info.value.type === "Directory") return Option.some(dotGit)
      const pointer = yield* readText(fs, dotGit)
      const match = Option.getOrUndefined(pointer)?.match(/^gitdir:\s*(.+)\s*$/m)
      return match ? Option.some(NodePath.resolve(directory, match[1]!)) : Option.none()
    }
    if (NodePath.dirname(directory) === directory) return Option.none<string>()
  }
})

export const headRevision = Effect.fnUntraced(function*(fs: FileSystem.FileSystem, root: string) {
  const gitDir = yield* gitDirectory(fs, root)
  if (Option.isNone(gitDir)) return Option.none<string>()
  const head = Option.getOrUndefined(yield* readText(fs, NodePath.join(gitDir.value, "HEAD")))?.trim()
  if (head === undefined) return Option.none<string>()
  if (isSha(head)) return Option.some(head)
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1]
  if (ref === undefined) return Option.none<string>()
  // A worktree keeps its HEAD locally but its refs in the common directory.
  const common = Option.getOrUndefined(yield* readText(fs, NodePath.join(gitDir.value, "commondir")))?.trim()
  const refsDir = common === undefined ? gitDir.value : NodePath.resolve(gitDir.value, common)
  for (const directory of [gitDir.value, refsDir]) {
    const loose = Option.getOrUndefined(yield* readText(fs, NodePath.join(directory, ref)))?.trim()
    if (loose !== undefined && isSha(loose)) return Option.some(loose)
  }
  const packed = Option.getOrUndefined(yield* readText(fs, NodePath.join(refsDir, "packed-refs"))) ?? ""
  for (const line of packed.split("\n")) {
    const [sha, name] = line.trim().split(" ")
    if (name === ref && sha !== undefined && isSha(sha)) return Option.some(sha)
  }
  return Option.none<string>()
})

/**
 * The branch a checkout is on (`main` for `refs/heads/main`), or its commit when HEAD is detached;
 * none when there is no repository.
 */
export const headBranch = Effect.fnUntraced(function*(fs: FileSystem.FileSystem, root: string) {
  const gitDir = yield* gitDirectory(fs, root)
  if (Option.isNone(gitDir)) return Option.none<string>()
  const head = Option.getOrUndefined(yield* readText(fs, NodePath.join(gitDir.value, "HEAD")))?.trim()
  if (head === undefined) return Option.none<string>()
  const ref = /^ref:\s*refs\/heads\/(\S+)$/.exec(head)?.[1]
  return Option.some(ref ?? head)
})
