/**
 * Co-change history from git, kept in `.cairn/cochange.json` beside the index. The first read takes
 * the newest commits of the log up to the window; later reads take only the commits since the one
 * the file ends at (`git log <head>..HEAD`), put them in front and drop what falls out of the
 * window. A history rewritten under it (the file's commit no longer an ancestor of HEAD) or a
 * deeper window than the file holds is read afresh. Merges are skipped (their changes are their
 * parents'), renames are not followed, and paths are the root's own (`--relative`), so a root
 * inside a larger work tree counts the commits that touched it. Nothing of this fails a query: no
 * git, no work tree, no commit or an unreadable log answers none, and a file that cannot be
 * written leaves the history in this process alone.
 */
import { Effect, FileSystem, Layer, Option, Stream } from "effect"
import * as NodePath from "node:path"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { CoChange } from "../../src/ports/CoChange.ts"
import type { ChangeHistory } from "../../src/retrieval/coChange.ts"
import { stageWhole } from "./StagedFile.ts"

const FORMAT = "cairn/cochange@1"
/** The deepest window kept: a configuration asking for more is read to this. */
export const MAX_COMMITS = 10_000
/** A commit changing more files than this is kept without its paths: no sensible window counts it. */
export const MAX_KEPT_FILES = 100

/** Each commit's id and changed paths, newest first, paths as the root sees them. */
export const LOG_ARGUMENTS = ["log", "--no-merges", "--no-renames", "--relative", "-z", "--no-color", "--name-only", "--format=%x01%H"] as const

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
      const handle = yield* spawner.spawn(ChildProcess.make(git, [...args], { cwd: root, env: { LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" }, extendEnv: true }))
      const [stdout, , code] = yield* Effect.all([collect(handle.stdout), collect(handle.stderr), handle.exitCode], { concurrency: "unbounded" })
      return Number(code) === 0 ? Option.some(stdout) : Option.none<string>()
    })).pipe(Effect.orElseSucceed(() => Option.none<string>()))

  const logOf = (range: string, depth: number) =>
    Effect.map(run([...LOG_ARGUMENTS, `--max-count=${depth}`, range, "--"]), (out) => Option.flatMap(out, (text) => Option.fromNullishOr(parseLog(text))))

  const readStored = fs.readFileString(file ?? "").pipe(
    Effect.map((text) => (file === undefined ? undefined : decode(text))),
    Effect.orElseSucceed(() => undefined)
  )

  // Written only where the index already made cairn's folder: a query never creates it.
  const save = (stored: Stored) =>
    file === undefined
      ? Effect.void
      : Effect.gen(function*() {
        if (!(yield* fs.exists(NodePath.dirname(file)).pipe(Effect.orElseSucceed(() => false)))) return
        const staged = yield* stageWhole(fs, file, encode(stored))
        yield* staged.commit.pipe(Effect.catch(() => staged.discard))
      }).pipe(Effect.ignore)

  /** Brings `known` (if any) up to `head` at `depth`, reading only the commits it lacks when it can. */
  const update = Effect.fnUntraced(function*(known: Stored | undefined, head: string, depth: number) {
    if (known !== undefined && known.head === head && known.depth >= depth) return Option.some(known)
    // Continued only from an ancestor of HEAD read at least as deep; anything else is read afresh.
    const continues = known !== undefined && known.depth >= depth &&
      Option.isSome(yield* run(["merge-base", "--is-ancestor", known.head, head]))
    const fresh = yield* logOf(continues ? `${known!.head}..${head}` : head, depth)
    if (Option.isNone(fresh)) return Option.none<Stored>()
    // A continued history keeps the depth it was read at, which may be more than this window's.
    const kept = continues ? known!.depth : depth
    const commits = [...fresh.value, ...(continues ? commitsOf(known!) : [])].slice(0, kept)
    const stored: Stored = { head, depth: kept, ids: commits.map((commit) => commit.id), history: historyOf(head, commits) }
    yield* save(stored)
    return Option.some(stored)
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
