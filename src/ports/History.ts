/**
 * The authorship history of a file's lines, bound to one root: who last wrote each line and when.
 * Chunking reads it for the age of the words. A root that is not a git work tree, a file git does
 * not track and a machine without git all answer none, never an error: history is an enrichment.
 */
import { Context, Effect, Option, Schema } from "effect"

/** The last change to one line, as blame reports it. */
export const BlameLine = Schema.Struct({
  /** 1-based line number in the file as it is on disk. */
  line: Schema.Int,
  /** When the author wrote the line, in seconds since the epoch. */
  authorTime: Schema.Int,
  author: Schema.String,
  /** The author's e-mail without angle brackets. */
  authorMail: Schema.String,
  /**
   * Not committed yet (an edit in the work tree, or a file git does not track): `authorTime` is the
   * file's modification time, the nearest the tree has to when the words were written, and there
   * is no author (`author` and `authorMail` are empty).
   */
  uncommitted: Schema.optionalKey(Schema.Boolean)
})
export type BlameLine = typeof BlameLine.Type

/** History exists but could not be read: blame failed for a reason other than absence. */
export class HistoryError extends Schema.TaggedError<HistoryError>()("HistoryError", {
  path: Schema.String,
  detail: Schema.String
}) {
  /** One line naming the file and what to check. */
  override get message(): string {
    return `history of ${this.path}: ${this.detail} (check that git can run \`git blame\` in the root)`
  }
}

export class History extends Context.Service<History, {
  /** True when the root is inside a work tree whose history can be read. */
  readonly isRepository: Effect.Effect<boolean>
  /**
   * Per-line authorship of a root-relative file, in line order. None when there is no history for
   * it (no repository, no git, no such file). Lines not yet committed, and every line of a file git
   * does not track, are `uncommitted`, aged by the file's modification time: stamping them with
   * the clock would make the same tree index differently on every run.
   */
  readonly blame: (path: string) => Effect.Effect<Option.Option<ReadonlyArray<BlameLine>>, HistoryError>
  /**
   * `blame` of every path, by path, possibly cheaper than one at a time. A path whose blame fails
   * is none here: a whole index run should not fail on one file's history.
   */
  readonly blameAll: (paths: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Option.Option<ReadonlyArray<BlameLine>>>>
}>()("cairn/ports/History") {}

/** `blameAll` through `blame`, `concurrency` at a time: what a backend with no cheaper way answers. */
export const blameEach = (
  blame: (path: string) => Effect.Effect<Option.Option<ReadonlyArray<BlameLine>>, HistoryError>,
  paths: ReadonlyArray<string>,
  concurrency: number
): Effect.Effect<ReadonlyMap<string, Option.Option<ReadonlyArray<BlameLine>>>> =>
  Effect.map(
    Effect.forEach(paths, (path) => Effect.map(blame(path).pipe(Effect.orElseSucceed(() => Option.none())), (lines) => [path, lines] as const), {
      concurrency
    }),
    (entries) => new Map(entries)
  )
