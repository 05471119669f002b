/**
 * The rules that turn a repository's history into commit-localization items. Each rejection has a
 * reason, so a mining run can say how many commits each rule removed. docs/commit-localization.md
 * states the same rules in prose; a change here changes the set, and the set is mined again.
 */
import { createHash } from "node:crypto"
import { compareIds } from "../../src/domain/Ranking.ts"
import type { CommitItem } from "./CommitItem.ts"

/** One commit as `git log --name-status` reports it. */
export interface LoggedCommit {
  readonly commit: string
  readonly parents: ReadonlyArray<string>
  readonly committedAt: number
  readonly author: string
  readonly subject: string
  readonly changes: ReadonlyArray<FileChange>
}

/** A name-status line: `M`, `A`, `D`, `T`, or `R`/`C` with the path before and after. */
export interface FileChange {
  readonly status: string
  readonly path: string
  /** The path at the parent, for a rename or copy. */
  readonly from?: string
}

/** A commit that touches more files than this is a sweep (a rename, a format, a migration), not a change one question names. */
export const MAX_CHANGED_FILES = 20
/** Most relevant files an item may have. */
export const MAX_RELEVANT_FILES = 10
/** A query needs this many words of letters to say what changed. */
export const MIN_QUERY_WORDS = 3

/** Which files of a language are source, and which of them are tests by their name. */
export interface SourceRules {
  readonly source: RegExp
  readonly testFile: RegExp
}

/** The rules the TypeScript set (items.jsonl) was mined by. */
export const TYPESCRIPT: SourceRules = { source: /\.(?:[cm]?[jt]sx?)$/, testFile: /\.(?:test|spec|bench|e2e|test-d|spec-d)\.[cm]?[jt]sx?$/ }
/** pytest's and unittest's conventions: `test_x.py`, `x_test.py`, `conftest.py`. */
export const PYTHON: SourceRules = { source: /\.py$/, testFile: /(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/ }
/** `go test`'s conventions: `x_test.go`, and `testdata/`, which the go tool ignores. */
export const GO: SourceRules = { source: /\.go$/, testFile: /_test\.go$|(?:^|\/)testdata\// }

export const SOURCE_RULES: Readonly<Record<string, SourceRules>> = { typescript: TYPESCRIPT, python: PYTHON, go: GO }

const TEST_DIRECTORY = /(?:^|\/)(?:tests?|__tests__|__test__|specs?|e2e|__snapshots__|__mocks__|fixtures?|__fixtures__|test-utils?|testing)\//
const NOT_SOURCE_DIRECTORY = /(?:^|\/)(?:docs?|examples?|playgrounds?|benchmarks?|\.github|\.vscode|node_modules|dist)\//

/** A file a test suite, fixture or snapshot lives in, by its path. */
export const isTestPath = (path: string, rules: SourceRules = TYPESCRIPT): boolean => TEST_DIRECTORY.test(path) || rules.testFile.test(path)

/** Source that ships: not a test, not documentation, an example or a playground. */
export const isSourcePath = (path: string, rules: SourceRules = TYPESCRIPT): boolean =>
  rules.source.test(path) && !isTestPath(path, rules) && !NOT_SOURCE_DIRECTORY.test(path)

const BOT_AUTHOR = /\[bot\]|renovate|dependabot|github-actions/i
const RELEASE = /^(?:release|publish|v?\d+\.\d+\.\d+)\b|^(?:chore|build)(?:\([^)]*\))?!?:\s*(?:release|publish|v?\d+\.\d+\.\d+)|\bprepare (?:the )?release\b|^bump version/i
const DEPENDENCIES = /^(?:chore|build|fix|deps)\((?:deps|deps-dev|dependencies)\)|\b(?:bump|upgrade|update)\b.*\b(?:deps|dependencies|dependency|version|to v?\d)|^deps?:/i
const NON_SOURCE_TYPE = /^(?:docs?|tests?|ci|style|release|wip)(?:\([^)]*\))?!?:/i
const REVERT = /^revert\b/i

/** The commit's subject with its conventional prefix, issue and pull request numbers, and bracketed tags removed. */
export const cleanSubject = (subject: string): string =>
  subject
    .replace(/^\s*(?::[a-z_]+:\s*)+/i, "")
    .replace(/^\s*[a-z]+(?:\([^)]*\))?!?:\s*/i, "")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\((?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see)\s+)?(?:[\w.-]+\/[\w.-]+)?#\d+(?:\s*,\s*#\d+)*\)/gi, " ")
    .replace(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#\d+/gi, " ")
    .replace(/(?:[\w.-]+\/[\w.-]+)?#\d+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[\s,;:.-]+$/, "")
    .trim()

const wordsOf = (text: string): number => text.match(/\p{L}{2,}/gu)?.length ?? 0

/** The non-test source files a commit changed, named as they were at its parent: an added file was not there to be found. */
export const relevantAtParent = (changes: ReadonlyArray<FileChange>, rules: SourceRules = TYPESCRIPT): Array<string> => {
  const paths = new Set<string>()
  for (const change of changes) {
    const kind = change.status[0]
    if (kind === "A") continue
    const before = (kind === "R" || kind === "C") && change.from !== undefined ? change.from : change.path
    if (isSourcePath(before, rules)) paths.add(before)
  }
  return [...paths].sort(compareIds)
}

/** Half the items are held back, decided by a hash of the id, so the split never depends on what was mined beside an item. */
export const splitOf = (id: string): "dev" | "heldout" =>
  (createHash("sha256").update(id).digest()[0]! & 1) === 0 ? "dev" : "heldout"

export type Rejection =
  | "merge"
  | "bot"
  | "revert"
  | "release"
  | "dependencies"
  | "non-source type"
  | "too many files"
  | "no source file at the parent"
  | "too many source files"
  | "query too short"

export type Verdict =
  | { readonly _tag: "Item"; readonly item: CommitItem }
  | { readonly _tag: "Rejected"; readonly reason: Rejection }

const rejected = (reason: Rejection): Verdict => ({ _tag: "Rejected", reason })

/** The item a commit makes, or the first rule that rejects it. */
export const judge = (repository: string, commit: LoggedCommit, rules: SourceRules = TYPESCRIPT): Verdict => {
  if (commit.parents.length !== 1) return rejected("merge")
  if (BOT_AUTHOR.test(commit.author)) return rejected("bot")
  const subject = commit.subject.trim()
  if (REVERT.test(subject)) return rejected("revert")
  if (RELEASE.test(subject)) return rejected("release")
  if (DEPENDENCIES.test(subject)) return rejected("dependencies")
  if (NON_SOURCE_TYPE.test(subject)) return rejected("non-source type")
  if (commit.changes.length > MAX_CHANGED_FILES) return rejected("too many files")
  const relevant = relevantAtParent(commit.changes, rules)
  if (relevant.length === 0) return rejected("no source file at the parent")
  if (relevant.length > MAX_RELEVANT_FILES) return rejected("too many source files")
  const query = cleanSubject(subject)
  if (wordsOf(query) < MIN_QUERY_WORDS) return rejected("query too short")
  const id = `${repository}@${commit.commit.slice(0, 12)}`
  return {
    _tag: "Item",
    item: {
      id,
      repository,
      commit: commit.commit,
      parent: commit.parents[0]!,
      committedAt: commit.committedAt,
      subject,
      query,
      relevant,
      split: splitOf(id)
    }
  }
}

const RECORD = "\u001e"
const FIELD = "\u001f"

/** The `git log` format `parseLog` reads. */
export const LOG_FORMAT = `${RECORD}%H${FIELD}%P${FIELD}%ct${FIELD}%an${FIELD}%s`

/** Commits from `git log --format=LOG_FORMAT --name-status -M`, newest first as git gives them. */
export const parseLog = (output: string): Array<LoggedCommit> =>
  output.split(RECORD).filter((record) => record.trim() !== "").map((record) => {
    const [header = "", ...lines] = record.split("\n")
    const [commit = "", parents = "", committedAt = "0", author = "", subject = ""] = header.split(FIELD)
    const changes: Array<FileChange> = []
    for (const line of lines) {
      if (line.trim() === "") continue
      const [status = "", first = "", second] = line.split("\t")
      changes.push(second === undefined ? { status, path: first } : { status, path: second, from: first })
    }
    return { commit, parents: parents.split(" ").filter((p) => p !== ""), committedAt: Number(committedAt), author, subject, changes }
  })
