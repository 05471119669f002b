/**
 * Behaviour every History backend must show, run against each backend by its own test file. A
 * backend is given as a function from a described repository (commits that only ever append
 * lines, so each line's author is known without a diff, and files never committed) to a layer
 * bound to a root holding it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Layer } from "effect"
import { type BlameLine, History } from "../../src/ports/History.ts"

export interface HistoryCommit {
  readonly author: string
  readonly mail: string
  /** Author time, in seconds since the epoch. */
  readonly time: number
  /** Files written by the commit, whole; a file's text extends its text in any earlier commit. */
  readonly files: Readonly<Record<string, string>>
}

export interface HistoryRepository {
  /** False for a plain directory outside any work tree: the commits are then never made. */
  readonly workTree: boolean
  /** Oldest first. */
  readonly commits: ReadonlyArray<HistoryCommit>
  /** Files on disk that were never committed, with their modification time in seconds. */
  readonly untracked: Readonly<Record<string, { readonly text: string; readonly modified: number }>>
}

export type MakeHistoryLayer<E> = (repository: HistoryRepository) => Layer.Layer<History, E>

/** Git's lines of a text: one per newline, and the last one even without its newline. */
const lines = (text: string): Array<string> => {
  const parts = text.split("\n")
  if (parts.at(-1) === "") parts.pop()
  return parts
}

/**
 * The blame git gives each file of `repository`, from its append-only commits: line n belongs to
 * the first commit whose text of the file had n lines. A backend held in memory is seeded with it.
 */
export const blameOf = (repository: HistoryRepository): Map<string, ReadonlyArray<BlameLine>> => {
  const out = new Map<string, Array<BlameLine>>()
  if (!repository.workTree) return out
  for (const commit of repository.commits) {
    for (const [path, text] of Object.entries(commit.files)) {
      const known = out.get(path) ?? []
      const count = lines(text).length
      for (let line = known.length + 1; line <= count; line++) {
        known.push({ line, authorTime: commit.time, author: commit.author, authorMail: commit.mail })
      }
      out.set(path, known)
    }
  }
  for (const [path, { text, modified }] of Object.entries(repository.untracked)) {
    out.set(path, lines(text).map((_, i) => ({ line: i + 1, authorTime: modified, author: "", authorMail: "", uncommitted: true })))
  }
  return out
}

const ADA = { author: "Ada", mail: "ada@example.com" }
const GRACE = { author: "Grace", mail: "grace@example.com" }
const T1 = 1_614_834_367 // 2021-03-04T05:06:07Z
const T2 = 1_731_417_255 // 2024-11-12T13:14:15Z
const MODIFIED = 1_770_091_506 // 2026-02-03T04:05:06Z

const REPOSITORY: HistoryRepository = {
  workTree: true,
  commits: [
    { ...ADA, time: T1, files: { "docs/guide.md": "# Guide\n\nFirst words.\n", "src/a.ts": "export const a = 1\n", "empty.md": "" } },
    { ...GRACE, time: T2, files: { "docs/guide.md": "# Guide\n\nFirst words.\n\nSecond words.\n", "notes/no newline.md": "one\ntwo" } }
  ],
  untracked: { "docs/draft.md": { text: "Not added.\nStill not.\n", modified: MODIFIED } }
}

const PATHS = ["docs/guide.md", "src/a.ts", "empty.md", "notes/no newline.md", "docs/draft.md", "docs/missing.md"]

const summary = (blame: Option.Option<ReadonlyArray<BlameLine>>) =>
  Option.map(blame, (ls) => ls.map((l) => [l.line, l.authorTime, l.author, l.authorMail, l.uncommitted === true]))

export interface HistoryContractOptions {
  /** Per test, in milliseconds: a backend that builds a real repository per test needs more than the default. */
  readonly timeout?: number
}

export const contract = <E>(name: string, makeLayer: MakeHistoryLayer<E>, options: HistoryContractOptions = {}) => {
  const withHistory = <A, E2>(repository: HistoryRepository, f: (history: History["Service"]) => Effect.Effect<A, E2>) =>
    Effect.gen(function*() {
      return yield* f(yield* History)
    }).pipe(Effect.provide(makeLayer(repository)))
  const timeout = options.timeout ?? 10_000

  describe(`History contract (${name})`, () => {
    it.effect("blame - every line in line order, with the author, e-mail and time of the commit that wrote it", () =>
      withHistory(REPOSITORY, (history) =>
        Effect.gen(function*() {
          assert.isTrue(yield* history.isRepository)
          assert.deepStrictEqual(summary(yield* history.blame("docs/guide.md")), Option.some([
            [1, T1, "Ada", "ada@example.com", false],
            [2, T1, "Ada", "ada@example.com", false],
            [3, T1, "Ada", "ada@example.com", false],
            [4, T2, "Grace", "grace@example.com", false],
            [5, T2, "Grace", "grace@example.com", false]
          ]))
          // The last line counts without its newline; an empty file has history and no lines.
          assert.deepStrictEqual(summary(yield* history.blame("notes/no newline.md")), Option.some([[1, T2, "Grace", "grace@example.com", false], [2, T2, "Grace", "grace@example.com", false]]))
          assert.deepStrictEqual(yield* history.blame("empty.md"), Option.some([]))
        })), timeout)

    it.effect("blame - a file never committed is uncommitted throughout, aged by its modification time, with no author", () =>
      withHistory(REPOSITORY, (history) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(
            Option.getOrThrow(yield* history.blame("docs/draft.md")),
            [1, 2].map((line) => ({ line, authorTime: MODIFIED, author: "", authorMail: "", uncommitted: true }))
          )
        })), timeout)

    it.effect("blame - a path with no file has no history, and is no error", () =>
      withHistory(REPOSITORY, (history) =>
        Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* history.blame("docs/missing.md")))
          assert.isTrue(Option.isNone(yield* history.blame("docs")))
        })), timeout)

    it.effect("blameAll - answers every path asked, exactly as blaming it alone does; nothing asked, nothing answered", () =>
      withHistory(REPOSITORY, (history) =>
        Effect.gen(function*() {
          const all = yield* history.blameAll(PATHS)
          assert.deepStrictEqual([...all.keys()].sort(), [...PATHS].sort())
          for (const path of PATHS) assert.deepStrictEqual(all.get(path), yield* history.blame(path), path)
          assert.strictEqual((yield* history.blameAll([])).size, 0)
        })), timeout)

    it.effect("blame - a root outside any work tree has no history at all", () =>
      withHistory({ workTree: false, commits: [], untracked: { "a.md": { text: "x\n", modified: MODIFIED } } }, (history) =>
        Effect.gen(function*() {
          assert.isFalse(yield* history.isRepository)
          assert.isTrue(Option.isNone(yield* history.blame("a.md")))
          assert.deepStrictEqual([...(yield* history.blameAll(["a.md"]))], [["a.md", Option.none()]])
        })), timeout)
  })
}
