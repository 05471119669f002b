/** git run in a test's scratch repository: no user or system configuration, a fixed author, dates when given. */
import { Effect } from "effect"
import * as NodeChild from "node:child_process"
import * as NodePath from "node:path"

/** Runs git in `root` with the author and committer dates set when `date` is given; its stdout. */
export const git = (root: string, args: ReadonlyArray<string>, date?: string): string => {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Ada",
    GIT_AUTHOR_EMAIL: "ada@example.com",
    GIT_COMMITTER_NAME: "Ada",
    GIT_COMMITTER_EMAIL: "ada@example.com",
    ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date })
  }
  const result = NodeChild.spawnSync("git", [...args], { cwd: root, env, encoding: "utf8" })
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`)
  return result.stdout
}

/**
 * `effect` run as under a git hook of the repository at `other`: `GIT_DIR` and `GIT_WORK_TREE` name
 * it in this process's environment until `effect` ends, then are put back as they were.
 */
export const underGitOf = <A, E, R>(other: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const names = ["GIT_DIR", "GIT_WORK_TREE"] as const
  return Effect.acquireUseRelease(
    Effect.sync(() => {
      const saved = names.map((name) => process.env[name])
      process.env.GIT_DIR = NodePath.join(other, ".git")
      process.env.GIT_WORK_TREE = other
      return saved
    }),
    () => effect,
    (saved) => Effect.sync(() => names.forEach((name, i) => {
      const value = saved[i]
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }))
  )
}
