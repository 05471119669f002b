/**
 * Co-change history from git, kept in the root's `.cairn/cochange.json`. Each read lists the
 * window's commit ids (`git rev-list`, cheap: no diffs) and logs the changed paths of only those
 * the file does not hold yet, so after the first read a new commit costs one short log, and what
 * falls out of the window is dropped. The window is the same whichever way it was reached: a
 * rewritten history, a merged side branch of older commits or a deeper window than before all
 * come out as a fresh read would give them. Merges are skipped (their changes are their
 * parents'), renames are not followed, and paths are the root's own, so a root inside a larger
 * work tree counts the commits that touched it. Nothing of this fails a query: no
 * git, no work tree, no commit or an unreadable log answers none, and a file that cannot be
 * written leaves the history in this process alone.
 */
import { Effect, FileSystem, Layer, Option, Stream } from "effect"
import * as NodePath from "node:path"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { CoChange } from "../../src/ports/CoChange.ts"
import type { ChangeHistory } from "../../src/domain/ChangeHistory.ts"
import { gitEnvironment } from "./gitEnvironment.ts"
import { stageWhole } from "./StagedFile.ts"

const FORMAT = "cairn/cochange@1"
/** The deepest window kept: a configuration asking for more is read to this. */
export const MAX_COMMITS = 10_000
/** A commit changing more files than this is kept without its paths: no sensible window counts it. */
export const MAX_KEPT_FILES = 100

/**
 * Each commit's id and changed paths, newest first, paths as the root sees them (`--relative`, with
 * the root as the pathspec, so a root inside a larger work tree counts only commits that touched
 * it; `--full-history`, so a pathspec drops no side-branch commit). A signature shown by the
 * user's configuration would break the records.
 */
export const LOG_ARGUMENTS = [
  "-c", "log.showSignature=false", "log", "--no-merges", "--no-renames", "--relative", "--full-history", "-z", "--no-color", "--name-only", "--format=%x01%H"
] as const
/** The same commits, ids alone, in the same order. */
export const REV_LIST_ARGUMENTS = ["rev-list", "--no-merges", "--full-history"] as const
const PATHSPEC = ["--", "."] as const
/** Missing commits named to `git log` at most; beyond, the window is logged whole. */
const MAX_NAMED_COMMITS = 500

export interface LoggedCommit {
  readonly id: string
  readonly paths: ReadonlyArray<string>
}

/** The commits of `LOG_ARGUMENTS` output, in its order; undefined for output it cannot read. */
export const parseLog = (output: string): Array<LoggedCommit> | undefined => {
  const out: Array<LoggedCommit> = []
  for (const record of output.split("\u0001")) {
    if (record === "") continue
    const end = record.indexOf("\u0000")
    const id = end < 0 ? record.trim() : record.slice(0, end)
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id)) return undefined
    const paths = end < 0 ? [] : record.slice(end + 1).replace(/^\n/, "").split("\u0000").filter((path) => path !== "")
    out.push({ id, paths: [...new Set(paths)].sort() })
  }
  return out
}

/** What `.cairn/cochange.json` holds. */
interface Stored {
  readonly head: string
  /** Commits asked for when it was read: the history holds that many, or the whole log if shorter. */
  readonly depth: number
  /** The id of each commit, newest first, to trim and to continue from. */
  readonly ids: ReadonlyArray<string>
  readonly history: ChangeHistory
}

/** Commits as a history over one table of paths, each commit's paths sorted, a large commit's dropped. */
export const historyOf = (head: string, commits: ReadonlyArray<LoggedCommit>): ChangeHistory => {
  const paths = [...new Set(commits.flatMap((commit) => commit.paths.length > MAX_KEPT_FILES ? [] : commit.paths))].sort()
  const idOf = new Map(paths.map((path, id) => [path, id]))
  return {
    head,
    paths,
    commits: commits.map((commit) => commit.paths.length > MAX_KEPT_FILES ? [] : commit.paths.map((path) => idOf.get(path)!))
  }
}

const commitsOf = (stored: Stored): Array<LoggedCommit> =>
  stored.history.commits.map((ids, i) => ({ id: stored.ids[i]!, paths: ids.map((id) => stored.history.paths[id]!) }))

const encode = (stored: Stored): string =>
  JSON.stringify({ format: FORMAT, head: stored.head, depth: stored.depth, ids: stored.ids, paths: stored.history.paths, commits: stored.history.commits })

const isIntList = (value: unknown, below: number): value is Array<number> =>
  Array.isArray(value) && value.every((n) => Number.isSafeInteger(n) && n >= 0 && n < below)

/** The file's history, or undefined when it is absent, foreign or damaged: then the log is read again. */
export const decode = (text: string): Stored | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed !== "object" || parsed === null) return undefined
  const { format, head, depth, ids, paths, commits } = parsed as Record<string, unknown>
  if (format !== FORMAT || typeof head !== "string" || !Number.isSafeInteger(depth) || !Array.isArray(ids) || !Array.isArray(paths)) return undefined
  if (!ids.every((id) => typeof id === "string") || !paths.every((path) => typeof path === "string") || !Array.isArray(commits)) return undefined
  if (commits.length !== ids.length || !commits.every((commit) => isIntList(commit, paths.length))) return undefined
  return { head, depth: depth as number, ids: ids as Array<string>, history: { head, paths: paths as Array<string>, commits: commits as Array<Array<number>> } }
}

export interface CoChangeGitOptions {
  /** The git executable; `git` on the PATH by default. */
  readonly git?: string
  /** Where the history is kept; `<root>/.cairn/cochange.json` by default. Nothing is written when false. */
  readonly file?: string | false
}

export const make = Effect.fnUntraced(function*(root: string, options: CoChangeGitOptions = {}) {
  const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
  const fs = yield* FileSystem.FileSystem
  const git = options.git ?? "git"
  const file = options.file === false ? undefined : options.file ?? NodePath.join(root, ".cairn", "cochange.json")
  const collect = <E>(stream: Stream.Stream<Uint8Array, E>) => stream.pipe(Stream.decodeText(), Stream.mkString)
  // The output when git ran and succeeded; none otherwise.
  const run = (args: ReadonlyArray<string>): Effect.Effect<Option.Option<string>> =>
    Effect.scoped(Effect.gen(function*() {
      const handle = yield* spawner.spawn(ChildProcess.make(git, [...args], { cwd: root, env: gitEnvironment, extendEnv: true }))
      const [stdout, , code] = yield* Effect.all([collect(handle.stdout), collect(handle.stderr), handle.exitCode], { concurrency: "unbounded" })
      return Number(code) === 0 ? Option.some(stdout) : Option.none<string>()
    })).pipe(Effect.orElseSucceed(() => Option.none<string>()))

  const parsed = (out: Option.Option<string>) => Option.flatMap(out, (text) => Option.fromNullishOr(parseLog(text)))
  /** The window's commit ids, newest first, in the order a whole log lists them. */
  const windowIds = (head: string, depth: number) =>
    Effect.map(run([...REV_LIST_ARGUMENTS, `--max-count=${depth}`, head, ...PATHSPEC]), Option.map((out) => out.split("\n").filter((id) => id !== "")))
  // Each commit named once, with its changes, in the order given.
  const logOfIds = (ids: ReadonlyArray<string>) => Effect.map(run([...LOG_ARGUMENTS, "--no-walk=unsorted", ...ids, ...PATHSPEC]), parsed)
  const logOfWindow = (head: string, depth: number) => Effect.map(run([...LOG_ARGUMENTS, `--max-count=${depth}`, head, ...PATHSPEC]), parsed)

  const readStored = fs.readFileString(file ?? "").pipe(
    Effect.map((text) => (file === undefined ? undefined : decode(text))),
    Effect.orElseSucceed(() => undefined)
  )

  // Written only where the index already made cairn's folder: a query never creates it. Not
  // interruptible, so a question cut short by its deadline leaves no temporary behind.
  const save = (stored: Stored) =>
    file === undefined
      ? Effect.void
      : Effect.uninterruptible(Effect.gen(function*() {
        if (!(yield* fs.exists(NodePath.dirname(file)).pipe(Effect.orElseSucceed(() => false)))) return
        const staged = yield* stageWhole(fs, file, encode(stored))
        yield* staged.commit.pipe(Effect.catch(() => staged.discard))
      })).pipe(Effect.ignore)

  /**
   * `known` (if any) brought to `head`, at least `depth` deep. The window is what `git rev-list`
   * lists, so it is the same commits in the same order however it was reached, whatever was stored
   * before and whichever windows were asked for since; only commits the file lacks are logged.
   */
  const update = Effect.fnUntraced(function*(known: Stored | undefined, head: string, depth: number) {
    if (known !== undefined && known.head === head && known.depth >= depth) return Option.some(known)
    const kept = Math.max(depth, known?.depth ?? 0)
    const ids = yield* windowIds(head, kept)
    if (Option.isNone(ids)) return Option.none<Stored>()
    const stored = new Map((known === undefined ? [] : commitsOf(known)).map((commit) => [commit.id, commit]))
    const missing = ids.value.filter((id) => !stored.has(id))
    // Many missing (a first read, a rewritten history): one pass over the log reads them all.
    const logged = missing.length === 0
      ? Option.some<ReadonlyArray<LoggedCommit>>([])
      : missing.length > MAX_NAMED_COMMITS || missing.length * 2 > ids.value.length
      ? yield* logOfWindow(head, kept)
      : yield* logOfIds(missing)
    if (Option.isNone(logged)) return Option.none<Stored>()
    for (const commit of logged.value) stored.set(commit.id, commit)
    const commits = ids.value.map((id) => stored.get(id))
    // A commit the log did not answer for: nothing is trusted.
    if (commits.some((commit) => commit === undefined)) return Option.none<Stored>()
    const listed = commits as Array<LoggedCommit>
    const next: Stored = { head, depth: kept, ids: ids.value, history: historyOf(head, listed) }
    yield* save(next)
    return Option.some(next)
  })

  // What this process read last: many questions are asked of one commit.
  let latest: Stored | undefined
  const history = Effect.fnUntraced(function*(window: number) {
    if (window <= 0) return Option.none<ChangeHistory>()
    const depth = Math.min(window, MAX_COMMITS)
    const head = yield* Effect.map(run(["rev-parse", "--verify", "-q", "HEAD"]), Option.map((out) => out.trim()))
    if (Option.isNone(head) || head.value === "") return Option.none<ChangeHistory>()
    const known = latest !== undefined && latest.head === head.value && latest.depth >= depth ? latest : (yield* readStored) ?? latest
    const updated = yield* update(known, head.value, depth)
    if (Option.isSome(updated)) latest = updated.value
    return Option.map(updated, (stored) => stored.history)
  })

  return CoChange.of({ history })
})

/** Co-change history for the work tree at `root` (an absolute directory). */
export const layer = (root: string, options?: CoChangeGitOptions): Layer.Layer<CoChange, never, ChildProcessSpawner.ChildProcessSpawner | FileSystem.FileSystem> =>
  Layer.effect(CoChange, make(root, options))
