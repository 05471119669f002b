/**
 * History from git: `git blame --line-porcelain` run in the root, one process per file; for many
 * files at once, one pass over the log first answers every file whose lines all come from the one
 * commit that added it (most files of a young repository), and only the rest are blamed. A root
 * outside any work tree, a machine without git, and a file git does not track all answer none; only
 * a blame that fails for another reason is a `HistoryError`.
 */
import { Effect, Layer, Option, Stream } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { type BlameLine, blameEach, History, HistoryError } from "../../src/ports/History.ts"

export interface HistoryGitOptions {
  /** The git executable; `git` on the PATH by default. */
  readonly git?: string
  /**
   * `blameAll` reads the history once, rather than blaming file by file, from this many paths up
   * (default 50), when the history holds at most `maxLogCommits` commits (default 20,000).
   */
  readonly batchFrom?: number
  readonly maxLogCommits?: number
}

/** Blames running at once: each is a git process of its own. */
const BLAME_CONCURRENCY = 8

/** Who made a commit and when, as blame reports it (with the mailmap applied, as blame applies it). */
interface Commit {
  readonly authorTime: number
  readonly author: string
  readonly authorMail: string
}

/**
 * Per path, the commits of `git log -m -z --name-status` that touched it, and whether it was ever
 * the target of a rename or copy. A path added by its only commit, not renamed into and clean in
 * the work tree, has every line from that commit: what `git blame` would say, without running it.
 */
export const singleCommitPaths = (log: string): Map<string, Commit> => {
  const touched = new Map<string, { count: number; commit: Commit; added: boolean; moved: boolean }>()
  for (const record of log.split("\u0001")) {
    if (record === "") continue
    const headerEnd = record.indexOf("\u0000")
    const [time, author, authorMail] = record.slice(0, headerEnd).split("\u0002")
    const authorTime = Number(time?.slice(time.indexOf(" ") + 1))
    if (author === undefined || authorMail === undefined || !Number.isSafeInteger(authorTime)) continue
    const commit: Commit = { authorTime, author, authorMail }
    const tokens = record.slice(headerEnd + 1).replace(/^\n/, "").split("\u0000")
    for (let i = 0; i < tokens.length;) {
      const status = tokens[i]!
      if (status === "") {
        i++
        continue
      }
      const paths = status.startsWith("R") || status.startsWith("C") ? [tokens[i + 1]!, tokens[i + 2]!] : [tokens[i + 1]!]
      i += 1 + paths.length
      paths.forEach((path, index) => {
        const entry = touched.get(path) ?? { count: 0, commit, added: false, moved: false }
        entry.count++
        entry.commit = commit
        entry.added = status === "A"
        // The target of a rename or copy has lines older than this commit.
        if (index === 1) entry.moved = true
        touched.set(path, entry)
      })
    }
  }
  const out = new Map<string, Commit>()
  for (const [path, entry] of touched) if (entry.count === 1 && entry.added && !entry.moved) out.set(path, entry.commit)
  return out
}

/** The paths `git status --porcelain -z` lists: anything staged or changed against HEAD. */
export const dirtyPaths = (status: string): Set<string> => {
  const out = new Set<string>()
  const tokens = status.split("\u0000")
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.length < 4) continue
    out.add(token.slice(3))
    // A rename or copy names its source next.
    if (token[0] === "R" || token[0] === "C") out.add(tokens[++i] ?? "")
  }
  return out
}

const readText = (file: string): string | undefined => {
  try {
    return NodeFs.readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

/** Git's lines of a text: one per newline, and the last one even without its newline. */
const lineCount = (text: string): number => {
  let count = 0
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++
  return text.length > 0 && !text.endsWith("\n") ? count + 1 : count
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

  const batchFrom = options.batchFrom ?? 50
  const maxLogCommits = options.maxLogCommits ?? 20_000
  const blameAll = (paths: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      if (paths.length < batchFrom || !(yield* isRepository)) return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      const commits = yield* run(["rev-list", "--count", "HEAD"])
      if (Option.isNone(commits) || commits.value.code !== 0 || !(Number(commits.value.stdout.trim()) <= maxLogCommits)) {
        return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      }
      const [log, status, prefix] = yield* Effect.all([
        run(["log", "-m", "-z", "--no-color", "--format=%x01%H %at%x02%aN%x02%aE", "--name-status", "HEAD"]),
        run(["status", "--porcelain", "-z", "--untracked-files=no"]),
        // Both name paths from the top of the work tree; the root may be a folder inside it.
        run(["rev-parse", "--show-prefix"])
      ], { concurrency: 3 })
      if (
        Option.isNone(log) || log.value.code !== 0 || Option.isNone(status) || status.value.code !== 0 ||
        Option.isNone(prefix) || prefix.value.code !== 0
      ) {
        return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      }
      const single = singleCommitPaths(log.value.stdout)
      const dirty = dirtyPaths(status.value.stdout)
      const top = prefix.value.stdout.replace(/\n$/, "")
      const known = new Map<string, Option.Option<ReadonlyArray<BlameLine>>>()
      const rest: Array<string> = []
      for (const path of paths) {
        const commit = dirty.has(`${top}${path}`) ? undefined : single.get(`${top}${path}`)
        const text = commit === undefined ? undefined : readText(NodePath.join(root, path))
        if (commit === undefined || text === undefined) {
          rest.push(path)
          continue
        }
        known.set(path, Option.some(Array.from({ length: lineCount(text) }, (_, i) => ({ line: i + 1, ...commit }))))
      }
      const blamed = yield* blameEach(blame, rest, BLAME_CONCURRENCY)
      return new Map(paths.map((path) => [path, known.get(path) ?? blamed.get(path) ?? Option.none()] as const))
    })

  return History.of({ isRepository, blame, blameAll })
})

/** History for the work tree at `root` (an absolute directory), through the platform's process spawner. */
export const layer = (root: string, options?: HistoryGitOptions): Layer.Layer<History, never, ChildProcessSpawner.ChildProcessSpawner> =>
  Layer.effect(History, make(root, options))
