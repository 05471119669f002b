/**
 * History from git: `git blame --line-porcelain` run in the root, one process per file; for many
 * files at once, one pass over the log first answers every file whose lines all come from the one
 * commit that added it (most files of a young repository), the index listing answers every file
 * git does not track (its words uncommitted, aged by the file's modification time), and only the
 * rest are blamed. A root
 * outside any work tree, a machine without git, and a file git does not track all answer none; only
 * a blame that fails for another reason is a `HistoryError`.
 */
import { Effect, Layer, Option, Stream } from "effect"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { type BlameLine, blameEach, History, HistoryError } from "../../src/ports/History.ts"
import { gitEnvironment } from "./gitEnvironment.ts"

export interface HistoryGitOptions {
  /** The git executable; `git` on the PATH by default. */
  readonly git?: string
  /**
   * `blameAll` reads the history once, rather than blaming file by file, from this many paths up
   * (default 50), when the history holds at most `maxLogCommits` commits (default 1,000,000: one
   * log pass costs about what one blame of a file costs in a long history, so it pays off early).
   */
  readonly batchFrom?: number
  readonly maxLogCommits?: number
}

/** Blames running at once: each is a git process of its own. */
const BLAME_CONCURRENCY = Math.max(2, 2 * NodeOs.availableParallelism())

/** Who made a commit and when, as blame reports it (with the mailmap applied, as blame applies it). */
interface Commit {
  readonly authorTime: number
  readonly author: string
  readonly authorMail: string
}

/**
 * The arguments of the one log pass: each commit's author (through the mailmap) and, per parent,
 * the paths it added, modified or deleted, with rename detection off and paths from the top of
 * the work tree whatever the user's configuration says.
 */
export const LOG_ARGUMENTS = [
  "log", "-m", "-z", "--no-color", "--no-renames", "--no-relative", "--format=%x01%H %at%x02%aN%x02%aE", "--name-status", "HEAD"
] as const

/**
 * From the output of `LOG_ARGUMENTS`: the paths whose every line `git blame` would give to one
 * commit, with that commit. Such a path was added by the only commit that touches it, and that
 * commit deleted nothing (a deletion beside an addition may be a rename or a split that blame
 * follows). Anything in the output it cannot read answers no path at all, so everything is blamed.
 */
export const singleCommitPaths = (log: string): Map<string, Commit> => {
  const touched = new Map<string, { count: number; commit: Commit; added: boolean; deletes: boolean }>()
  for (const record of log.split("\u0001")) {
    if (record === "") continue
    const headerEnd = record.indexOf("\u0000")
    const header = (headerEnd < 0 ? record : record.slice(0, headerEnd)).split("\u0002")
    const [hashAndTime, author, authorMail] = header
    const authorTime = Number(hashAndTime?.slice(hashAndTime.indexOf(" ") + 1))
    if (header.length !== 3 || author === undefined || authorMail === undefined || !Number.isSafeInteger(authorTime)) return new Map()
    const commit: Commit = { authorTime, author, authorMail }
    const tokens = headerEnd < 0 ? [] : record.slice(headerEnd + 1).replace(/^\n/, "").split("\u0000")
    const changes: Array<readonly [string, string]> = []
    for (let i = 0; i < tokens.length; i++) {
      const status = tokens[i]!
      if (status === "") continue
      const path = tokens[++i]
      // With renames off every entry is a status and one path; anything else is not understood.
      if (!/^[ADMTUX]$/.test(status) || path === undefined) return new Map()
      changes.push([status, path])
    }
    const deletes = changes.some(([status]) => status === "D")
    for (const [status, path] of changes) {
      const entry = touched.get(path) ?? { count: 0, commit, added: false, deletes }
      entry.count++
      entry.commit = commit
      entry.added = status === "A"
      entry.deletes = deletes
      touched.set(path, entry)
    }
  }
  const out = new Map<string, Commit>()
  for (const [path, entry] of touched) if (entry.count === 1 && entry.added && !entry.deletes) out.set(path, entry.commit)
  return out
}

/**
 * The blob id git would give `bytes` (SHA-1, or SHA-256 in a repository of that format), to
 * compare the file on disk with the blob the index holds: `git status` trusts stat data and flags
 * (assume-unchanged, skip-worktree) and applies filters, blame reads the bytes.
 */
export const blobId = (bytes: Uint8Array, hexLength: number): string =>
  NodeCrypto.createHash(hexLength === 64 ? "sha256" : "sha1").update(`blob ${bytes.length}\u0000`).update(bytes).digest("hex")

/** Path → blob id, from `git ls-files -s -z` (stage 0 entries). */
export const indexBlobs = (listing: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const entry of listing.split("\u0000")) {
    const match = /^\d+ ([0-9a-f]+) 0\t([\s\S]*)$/.exec(entry)
    if (match !== null) out.set(match[2]!, match[1]!)
  }
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

const readBytes = (file: string): Uint8Array | undefined => {
  try {
    return NodeFs.readFileSync(file)
  } catch {
    return undefined
  }
}

/** A file's modification time in whole seconds, or undefined when it cannot be read. */
const modifiedSeconds = (file: string): number | undefined => {
  const stats = NodeFs.statSync(file, { throwIfNoEntry: false })
  return stats === undefined ? undefined : Math.floor(stats.mtimeMs / 1000)
}

/** Every line of a file git has no commit for (untracked, or no commit yet), aged by its modification time. */
const uncommittedFile = (file: string): Option.Option<ReadonlyArray<BlameLine>> => {
  const seconds = modifiedSeconds(file)
  const bytes = seconds === undefined ? undefined : readBytes(file)
  if (seconds === undefined || bytes === undefined) return Option.none()
  return Option.some(Array.from({ length: lineCount(bytes) }, (_, i) => ({ line: i + 1, authorTime: seconds, author: "", authorMail: "", uncommitted: true })))
}

/** Git's lines of a file: one per newline, and the last one even without its newline. */
const lineCount = (bytes: Uint8Array): number => {
  let count = 0
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? count + 1 : count
}

// The object id of the working tree's uncommitted lines.
const UNCOMMITTED = /^0+$/
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$/

/**
 * The lines of `git blame --line-porcelain` output, in line order. Git stamps uncommitted lines
 * with the current time; they are aged `modifiedSeconds` instead (the file's modification time),
 * marked `uncommitted`, or left out without it. Every line of the format repeats its commit's
 * headers, so each record is read on its own.
 */
export const parsePorcelain = (output: string, modifiedSeconds?: number): Array<BlameLine> => {
  const out: Array<BlameLine> = []
  let line = 0
  let committed = false
  let author = ""
  let authorMail = ""
  let authorTime: number | undefined
  for (const row of output.split("\n")) {
    if (row.startsWith("\t")) {
      if (committed && authorTime !== undefined) out.push({ line, authorTime, author, authorMail })
      else if (!committed && modifiedSeconds !== undefined) out.push({ line, authorTime: modifiedSeconds, author: "", authorMail: "", uncommitted: true })
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
// Of those, the ones that say the file has no commit (untracked, or none yet): its words are uncommitted.
const NOT_COMMITTED = /no such path .* in HEAD|does not have any commits|no such ref|bad revision|bad object HEAD/i

export const make = Effect.fnUntraced(function*(root: string, options: HistoryGitOptions = {}) {
  const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
  const git = options.git ?? "git"
  const collect = <E>(stream: Stream.Stream<Uint8Array, E>) => stream.pipe(Stream.decodeText(), Stream.mkString)
  // None when git cannot be started at all.
  const run = (args: ReadonlyArray<string>): Effect.Effect<Option.Option<Ran>> =>
    Effect.scoped(
      Effect.gen(function*() {
        const handle = yield* spawner.spawn(
          ChildProcess.make(git, [...args], { cwd: root, env: gitEnvironment, extendEnv: true })
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

  const blame = Effect.fnUntraced(function*(path: string): Effect.fn.Return<Option.Option<ReadonlyArray<BlameLine>>, HistoryError> {
      if (!(yield* isRepository)) return Option.none()
      // Taken before blame reads the file: an edit meanwhile makes the lines newer, never older.
      const modified = modifiedSeconds(NodePath.join(root, path))
      const ran = yield* run(["blame", "--line-porcelain", "--", path])
      if (Option.isNone(ran)) return Option.none()
      const { code, stdout, stderr } = ran.value
      if (code === 0) return Option.some(parsePorcelain(stdout, modified))
      if (NOT_COMMITTED.test(stderr)) return uncommittedFile(NodePath.join(root, path))
      if (ABSENT.test(stderr)) return Option.none()
      return yield* new HistoryError({ path, detail: stderr.trim().split("\n")[0] || `git blame exited with ${code}` })
    })

  const batchFrom = options.batchFrom ?? 50
  const maxLogCommits = options.maxLogCommits ?? 1_000_000
  /**
   * What the log pass found, for the commit it read: an index run blames its notes a part at a
   * time, and each part would otherwise count and read the whole history again. Keyed by the
   * commit, so a process that lives while commits land reads the history anew after each.
   */
  let logged: { readonly head: string; readonly commits: Option.Option<Ran>; readonly single: ReturnType<typeof singleCommitPaths> } | undefined
  const blameAll = Effect.fnUntraced(function*(paths: ReadonlyArray<string>) {
      if (paths.length < batchFrom || !(yield* isRepository)) return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      const head = yield* run(["rev-parse", "--verify", "-q", "HEAD"])
      const headId = Option.isSome(head) && head.value.code === 0 ? head.value.stdout.trim() : undefined
      const remembered = headId !== undefined && logged?.head === headId ? logged : undefined
      const commits = remembered?.commits ?? (yield* run(["rev-list", "--count", "HEAD"]))
      // A repository without a commit yet (a new one): every word is uncommitted, no blame needed.
      if (Option.isSome(commits) && commits.value.code !== 0 && /ambiguous argument 'HEAD'|unknown revision/.test(commits.value.stderr)) {
        return new Map(paths.map((path) => [path, uncommittedFile(NodePath.join(root, path))] as const))
      }
      if (Option.isNone(commits) || commits.value.code !== 0 || !(Number(commits.value.stdout.trim()) <= maxLogCommits)) {
        return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      }
      const ok = (ran: Option.Option<Ran>) => Option.isSome(ran) && ran.value.code === 0
      const logPass = remembered !== undefined
        ? Effect.succeed(Option.some(remembered.single))
        : Effect.map(run(LOG_ARGUMENTS), (ran) => ok(ran) ? Option.some(singleCommitPaths(Option.getOrThrow(ran).stdout)) : Option.none())
      const [singles, status, prefix, staged, blameConfig] = yield* Effect.all([
        logPass,
        run(["status", "--porcelain", "-z", "--untracked-files=no"]),
        // Log, status and the index name paths from the top of the work tree; the root may be inside it.
        run(["rev-parse", "--show-prefix"]),
        run(["ls-files", "-s", "-z", "--full-name"]),
        // Blame's own settings (revisions to ignore) change its answers; then only blame answers.
        run(["config", "--get-regexp", "^blame\\."])
      ], { concurrency: 5 })
      if (Option.isNone(singles) || !ok(status) || !ok(prefix) || !ok(staged) || (Option.isSome(blameConfig) && blameConfig.value.stdout.trim() !== "")) {
        return yield* blameEach(blame, paths, BLAME_CONCURRENCY)
      }
      const single = singles.value
      if (headId !== undefined && remembered === undefined) logged = { head: headId, commits, single }
      const dirty = dirtyPaths(Option.getOrThrow(status).stdout)
      const blobs = indexBlobs(Option.getOrThrow(staged).stdout)
      const top = Option.getOrThrow(prefix).stdout.replace(/\n$/, "")
      const known = new Map<string, Option.Option<ReadonlyArray<BlameLine>>>()
      const rest: Array<string> = []
      for (const path of paths) {
        const key = `${top}${path}`
        // Not in git's index: untracked, so nothing to blame (20,000 of them took 353 s one by one).
        if (!blobs.has(key)) {
          known.set(path, uncommittedFile(NodePath.join(root, path)))
          continue
        }
        const commit = dirty.has(key) ? undefined : single.get(key)
        const blob = blobs.get(key)
        const bytes = commit === undefined || blob === undefined ? undefined : readBytes(NodePath.join(root, path))
        // The bytes on disk must be the blob's: blame reads the file, status may not have.
        if (commit === undefined || blob === undefined || bytes === undefined || blobId(bytes, blob.length) !== blob) {
          rest.push(path)
          continue
        }
        known.set(path, Option.some(Array.from({ length: lineCount(bytes) }, (_, i) => ({ line: i + 1, ...commit }))))
      }
      const blamed = yield* blameEach(blame, rest, BLAME_CONCURRENCY)
      return new Map(paths.map((path) => [path, known.get(path) ?? blamed.get(path) ?? Option.none()] as const))
    })

  return History.of({ isRepository, blame, blameAll })
})

/** History for the work tree at `root` (an absolute directory), through the platform's process spawner. */
export const layer = (root: string, options?: HistoryGitOptions): Layer.Layer<History, never, ChildProcessSpawner.ChildProcessSpawner> =>
  Layer.effect(History, make(root, options))
