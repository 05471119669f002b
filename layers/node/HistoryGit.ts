/**
 * History from git: `git blame --line-porcelain` run in the root, one process per file. A root
 * outside any work tree, a machine without git, and a file git does not track all answer none; only
 * a blame that fails for another reason is a `HistoryError`.
 */
import { Effect, Layer, Option, Stream } from "effect"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { type BlameLine, History, HistoryError } from "../../src/ports/History.ts"

export interface HistoryGitOptions {
  /** The git executable; `git` on the PATH by default. */
  readonly git?: string
}

// The object id of the working tree's uncommitted lines.
const UNCOMMITTED = /^0+$/
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$/

/**
 * The lines of `git blame --line-porcelain` output, in line order, uncommitted lines left out (git
 * stamps them with the current time). Every line of the format repeats its commit's headers, so
 * each record is read on its own.
 */
export const parsePorcelain = (output: string): Array<BlameLine> => {
  const out: Array<BlameLine> = []
  let line = 0
  let committed = false
  let author = ""
  let authorMail = ""
  let authorTime: number | undefined
  for (const row of output.split("\n")) {
    if (row.startsWith("\t")) {
      if (committed && authorTime !== undefined) out.push({ line, authorTime, author, authorMail })
      authorTime = undefined
      continue
    }
    const header = HEADER.exec(row)
    if (header !== null) {
      committed = !UNCOMMITTED.test(header[1]!)
      line = Number(header[2])
      author = ""
      authorMail = ""
      authorTime = undefined
    } else if (row.startsWith("author ")) author = row.slice(7)
    else if (row.startsWith("author-mail ")) authorMail = row.slice(12).replace(/^<|>$/g, "")
    else if (row.startsWith("author-time ")) {
      const seconds = Number(row.slice(12))
      authorTime = Number.isSafeInteger(seconds) ? seconds : undefined
    }
  }
  return out.sort((a, b) => a.line - b.line)
}

interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

// Reasons git gives when there is simply no history to read; anything else is an error.
const ABSENT = /no such path|not a git repository|does not have any commits|no such ref|bad revision|bad object HEAD|is outside repository/i

export const make = Effect.fnUntraced(function*(root: string, options: HistoryGitOptions = {}) {
  const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
  const git = options.git ?? "git"
  const collect = <E>(stream: Stream.Stream<Uint8Array, E>) => stream.pipe(Stream.decodeText(), Stream.mkString)
  // None when git cannot be started at all.
  const run = (args: ReadonlyArray<string>): Effect.Effect<Option.Option<Ran>> =>
    Effect.scoped(
      Effect.gen(function*() {
        const handle = yield* spawner.spawn(
          ChildProcess.make(git, [...args], { cwd: root, env: { LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" }, extendEnv: true })
        )
        const [stdout, stderr, code] = yield* Effect.all([collect(handle.stdout), collect(handle.stderr), handle.exitCode], {
          concurrency: "unbounded"
        })
        return Option.some<Ran>({ code: Number(code), stdout, stderr })
      })
    ).pipe(Effect.orElseSucceed(() => Option.none<Ran>()))

  const isRepository = yield* Effect.cached(
    run(["rev-parse", "--is-inside-work-tree"]).pipe(
      Effect.map((ran) => Option.isSome(ran) && ran.value.code === 0 && ran.value.stdout.trim() === "true")
    )
  )

  const blame = (path: string): Effect.Effect<Option.Option<ReadonlyArray<BlameLine>>, HistoryError> =>
    Effect.gen(function*() {
      if (!(yield* isRepository)) return Option.none()
      const ran = yield* run(["blame", "--line-porcelain", "--", path])
      if (Option.isNone(ran)) return Option.none()
      const { code, stdout, stderr } = ran.value
      if (code === 0) return Option.some(parsePorcelain(stdout))
      if (ABSENT.test(stderr)) return Option.none()
      return yield* new HistoryError({ path, detail: stderr.trim().split("\n")[0] || `git blame exited with ${code}` })
    })

  return History.of({ isRepository, blame })
})

/** History for the work tree at `root` (an absolute directory), through the platform's process spawner. */
export const layer = (root: string, options?: HistoryGitOptions): Layer.Layer<History, never, ChildProcessSpawner.ChildProcessSpawner> =>
  Layer.effect(History, make(root, options))
