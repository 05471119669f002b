/** git run in a test's scratch repository: no user or system configuration, a fixed author, dates when given. */
import * as NodeChild from "node:child_process"

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
