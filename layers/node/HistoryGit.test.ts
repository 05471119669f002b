import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as Digest from "effect/crypto/Digest"
import * as NodeChild from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { chunkFile } from "../../src/index/chunk/ChunkFile.ts"
import { History } from "../../src/ports/History.ts"
import { contract, type HistoryRepository } from "../contracts/History.contract.ts"
import * as HistoryGit from "./HistoryGit.ts"
import { git, underGitOf } from "../../test/support/Git.ts"

const write = (root: string, path: string, text: string) => {
  NodeFs.mkdirSync(NodePath.dirname(NodePath.join(root, path)), { recursive: true })
  NodeFs.writeFileSync(NodePath.join(root, path), text)
}

const withRoot = <A, E>(setup: (root: string) => void, use: (root: string) => Effect.Effect<A, E, History>, options?: HistoryGit.HistoryGitOptions) =>
  Effect.gen(function*() {
    const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-"))
    setup(root)
    return yield* use(root).pipe(
      Effect.provide(HistoryGit.layer(root, options)),
      Effect.ensuring(Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true })))
    )
  }).pipe(Effect.provide(NodeServices.layer))

const MODIFIED_SECONDS = Date.parse("2026-02-03T04:05:06Z") / 1000
const MODIFIED = new Date(MODIFIED_SECONDS * 1000)

const V1 = "# Guide\n\nFirst words.\n\n## Later\n\nSecond words.\n"
const V2 = "# Guide\n\nFirst words.\n\n## Later\n\nSecond words, revised.\n"

const repository = (root: string) => {
  git(root, ["init", "-q"])
  write(root, "docs/guide.md", V1)
  git(root, ["add", "."])
  git(root, ["commit", "-q", "-m", "first"], "2021-03-04T05:06:07Z")
  write(root, "docs/guide.md", V2)
  git(root, ["commit", "-q", "-am", "second"], "2024-11-12T13:14:15Z")
}

/** A temporary root holding `repository`, made with git, for as long as the layer lives. */
const gitRepository = (repository: HistoryRepository, options?: HistoryGit.HistoryGitOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-contract-"))
      if (repository.workTree) git(root, ["init", "-q", "-b", "main"])
      for (const commit of repository.commits) {
        for (const [path, text] of Object.entries(commit.files)) write(root, path, text)
        NodeChild.spawnSync("git", ["add", "."], { cwd: root })
        const date = new Date(commit.time * 1000).toISOString()
        const env = {
          ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: commit.author, GIT_AUTHOR_EMAIL: commit.mail,
          GIT_COMMITTER_NAME: commit.author, GIT_COMMITTER_EMAIL: commit.mail, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date
        }
        const result = NodeChild.spawnSync("git", ["commit", "-q", "-m", "commit"], { cwd: root, env, encoding: "utf8" })
        if (result.status !== 0) throw new Error(`git commit: ${result.stderr}`)
      }
      for (const [path, { text, modified }] of Object.entries(repository.untracked)) {
        write(root, path, text)
        NodeFs.utimesSync(NodePath.join(root, path), modified, modified)
      }
      return root
    }),
    (root) => Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true }))
  ).pipe(Effect.map((root) => HistoryGit.layer(root, options)), Layer.unwrap, Layer.provide(NodeServices.layer))

// Every case makes a repository with a handful of git processes: seconds on a loaded machine.
contract("git", (repository) => gitRepository(repository), { timeout: 60_000 })
contract("git, one log pass", (repository) => gitRepository(repository, { batchFrom: 1 }), { timeout: 60_000 })

// The cases below make repositories with git as well.
describe("HistoryGit", { timeout: 30_000 }, () => {
  it.effect("blame - each line's author time from commits with set dates", () =>
    withRoot(repository, () =>
      Effect.gen(function*() {
        const history = yield* History
        assert.isTrue(yield* history.isRepository)
        const lines = Option.getOrThrow(yield* history.blame("docs/guide.md"))
        assert.deepStrictEqual(lines.map((l) => [l.line, new Date(l.authorTime * 1000).toISOString()]), [
          [1, "2021-03-04T05:06:07.000Z"],
          [2, "2021-03-04T05:06:07.000Z"],
          [3, "2021-03-04T05:06:07.000Z"],
          [4, "2021-03-04T05:06:07.000Z"],
          [5, "2021-03-04T05:06:07.000Z"],
          [6, "2021-03-04T05:06:07.000Z"],
          [7, "2024-11-12T13:14:15.000Z"]
        ])
        assert.deepStrictEqual([lines[0]!.author, lines[0]!.authorMail], ["Ada", "ada@example.com"])
      })))

  it.effect("blame - feeds chunk ages: each chunk carries its newest line's time", () =>
    withRoot(repository, () =>
      Effect.gen(function*() {
        const history = yield* History
        const lines = Option.getOrThrow(yield* history.blame("docs/guide.md"))
        const chunks = yield* chunkFile({ path: "docs/guide.md", text: V2, history: lines }).pipe(Effect.provide(Digest.layerWebCrypto))
        assert.deepStrictEqual(chunks.map((c) => [c.headingPath, c.provenance.createdAt]), [
          [[], "2021-03-04T05:06:07Z"],
          [["Later"], "2024-11-12T13:14:15Z"]
        ])
      })))

  it.effect("blame - words not yet committed, and an untracked file's, are aged by the file's mtime and marked uncommitted", () =>
    withRoot((root) => {
      repository(root)
      write(root, "docs/guide.md", `${V2}\nAn uncommitted line.\n`)
      write(root, "docs/new.md", "Not added.\nStill not.\n")
      for (const path of ["docs/guide.md", "docs/new.md"]) NodeFs.utimesSync(NodePath.join(root, path), MODIFIED, MODIFIED)
    }, () =>
      Effect.gen(function*() {
        const history = yield* History
        const lines = Option.getOrThrow(yield* history.blame("docs/guide.md"))
        assert.deepStrictEqual(lines.map((l) => [l.line, l.uncommitted === true]), [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [n, n >= 8]))
        assert.deepStrictEqual(lines.at(-1), { line: 9, authorTime: MODIFIED_SECONDS, author: "", authorMail: "", uncommitted: true })
        assert.deepStrictEqual(Option.getOrThrow(yield* history.blame("docs/new.md")), [1, 2].map((line) => ({ line, authorTime: MODIFIED_SECONDS, author: "", authorMail: "", uncommitted: true })))
        assert.isTrue(Option.isNone(yield* history.blame("docs/missing.md")))
        // The age of uncommitted words is the file's, with no author claimed for them.
        const chunks = yield* chunkFile({ path: "docs/new.md", text: "Not added.\nStill not.\n", history: Option.getOrThrow(yield* history.blame("docs/new.md")) })
          .pipe(Effect.provide(Digest.layerWebCrypto))
        assert.deepStrictEqual(chunks.map((c) => [c.provenance.createdAt, c.provenance.author]), [["2026-02-03T04:05:06Z", null]])
      })))

  it.effect("blame - reads the root's repository when run under another's GIT_DIR, as from a git hook", () => {
    const other = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-hook-owner-"))
    git(other, ["init", "-q"])
    write(other, "docs/guide.md", "# Elsewhere\n")
    git(other, ["add", "."])
    git(other, ["commit", "-q", "-m", "other"], "2019-01-02T03:04:05Z")
    return withRoot(repository, () =>
      underGitOf(other, Effect.gen(function*() {
        const history = yield* History
        const lines = Option.getOrThrow(yield* history.blame("docs/guide.md"))
        assert.deepStrictEqual(lines.map((l) => new Date(l.authorTime * 1000).getUTCFullYear()), [2021, 2021, 2021, 2021, 2021, 2021, 2024])
      }))).pipe(Effect.ensuring(Effect.sync(() => NodeFs.rmSync(other, { recursive: true, force: true }))))
  })

  it.effect("blame - a root outside any work tree has no history", () =>
    withRoot((root) => write(root, "a.md", "x\n"), () =>
      Effect.gen(function*() {
        const history = yield* History
        assert.isFalse(yield* history.isRepository)
        assert.isTrue(Option.isNone(yield* history.blame("a.md")))
      })))
})

describe("HistoryGit without git", () => {
  it.effect("blame - a missing git executable means no history, not a failure", () =>
    withRoot((root) => write(root, "a.md", "x\n"), () =>
      Effect.gen(function*() {
        const history = yield* History
        assert.isFalse(yield* history.isRepository)
        assert.isTrue(Option.isNone(yield* history.blame("a.md")))
      }), { git: "/nonexistent/cairn-test/git" }))
})

describe("parsePorcelain", () => {
  it("parsePorcelain - reads each record, drops uncommitted lines, keeps line order", () => {
    const sha = "a".repeat(40)
    const output = [
      `${sha} 3 2 1`,
      "author Grace",
      "author-mail <grace@example.com>",
      "author-time 1700000000",
      "summary x",
      "filename f.md",
      "\tsecond line",
      `${sha} 1 1 1`,
      "author Ada",
      "author-mail <ada@example.com>",
      "author-time 1600000000",
      "filename f.md",
      "\tauthor fake-header-in-content",
      `${"0".repeat(40)} 3 3 1`,
      "author Not Committed Yet",
      "author-mail <not.committed.yet>",
      "author-time 1900000000",
      "filename f.md",
      "\tnew",
      ""
    ].join("\n")
    assert.deepStrictEqual(HistoryGit.parsePorcelain(output), [
      { line: 1, authorTime: 1600000000, author: "Ada", authorMail: "ada@example.com" },
      { line: 2, authorTime: 1700000000, author: "Grace", authorMail: "grace@example.com" }
    ])
  })

})

describe("HistoryGit.singleCommitPaths", () => {
  const record = (time: string, files: string) => `\u0001${"a".repeat(40)} ${time}\u0002Ada\u0002ada@example.com\u0000\n${files}`
  it("answers a file its only commit added in a commit that deleted nothing", () => {
    const log = record("1700000000", "A\u0000a.md\u0000") + record("1600000000", "A\u0000b.md\u0000D\u0000old.md\u0000") +
      record("1500000000", "A\u0000c.md\u0000") + record("1400000000", "M\u0000c.md\u0000")
    assert.deepStrictEqual([...HistoryGit.singleCommitPaths(log).keys()], ["a.md"])
  })
  it("answers nothing when any record does not read as the log was asked to print it", () => {
    const good = record("1700000000", "A\u0000a.md\u0000")
    for (const odd of [record("99999999999999999999", "A\u0000b.md\u0000"), record("1600000000", "R100\u0000old.md\u0000b.md\u0000"), `${good}\u0001broken`]) {
      assert.strictEqual(HistoryGit.singleCommitPaths(good + odd).size, 0)
    }
  })
})

describe("HistoryGit.blameAll", { timeout: 30_000 }, () => {
  it.effect("blameAll - reading the log once answers every file exactly as blaming it does", () => {
    const other = (root: string, args: ReadonlyArray<string>, date: string, name: string) =>
      NodeChild.spawnSync("git", [...args], {
        cwd: root,
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.com`, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.com`, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        encoding: "utf8"
      })
    const paths = [
      "once.md", "twice.md", "renamed.md", "dirty.md", "staged.md", "untracked.md", "empty.md", "no newline.md", "branch.md", "ünïcode/ö.md",
      "split-a.md", "split-b.md", "assumed.md", "filtered.md"
    ]
    const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n") + "\n"
    return withRoot((root) => {
      git(root, ["init", "-q", "-b", "main"])
      // Rename detection off in the user's configuration: the log is read with its own settings.
      git(root, ["config", "diff.renames", "false"])
      // A clean filter: the committed blob lacks a line the file on disk has, yet status is clean.
      git(root, ["config", "filter.strip.clean", "grep -v '^#secret'"])
      git(root, ["config", "filter.strip.smudge", "cat"])
      write(root, ".gitattributes", "filtered.md filter=strip\n")
      // The mailmap renames the first author, as blame shows it.
      write(root, ".mailmap", "Grace Hopper <grace@example.com> <ada@example.com>\n")
      for (const path of ["once.md", "twice.md", "old.md", "dirty.md", "staged.md", "empty.md", "no newline.md", "ünïcode/ö.md", "assumed.md"]) {
        write(root, path, path === "empty.md" ? "" : path === "no newline.md" ? "one\ntwo" : `# ${path}\n\nfirst\nsecond\n`)
      }
      write(root, "whole.md", long)
      write(root, "filtered.md", "# filtered\n#secret kept out of the blob\nfirst\n")
      git(root, ["add", "."])
      git(root, ["commit", "-q", "-m", "first"], "2025-01-02T03:04:05Z")
      write(root, "twice.md", "# twice.md\n\nfirst\nsecond, changed\n")
      git(root, ["mv", "old.md", "renamed.md"])
      write(root, "renamed.md", "# old.md\n\nfirst\nsecond\nthird, after the move\n")
      other(root, ["commit", "-q", "-am", "second"], "2025-06-01T00:00:00Z", "Bob")
      // One file split in two: the log pairs it with at most one half; blame follows both.
      git(root, ["rm", "-q", "whole.md"])
      write(root, "split-a.md", `${long}extra a\n`)
      write(root, "split-b.md", `${long}extra b\n`)
      git(root, ["add", "."])
      other(root, ["commit", "-q", "-m", "split"], "2025-06-15T00:00:00Z", "Bob")
      // Marked unchanged, then changed: status trusts the mark, blame reads the file.
      git(root, ["update-index", "--assume-unchanged", "assumed.md"])
      write(root, "assumed.md", "# assumed.md\n\nfirst\nsecond\nthird, unseen by status\n")
      git(root, ["checkout", "-q", "-b", "side"])
      write(root, "branch.md", "# branch\n\nfrom a branch\n")
      git(root, ["add", "."])
      git(root, ["commit", "-q", "-m", "side"], "2025-07-01T00:00:00Z")
      git(root, ["checkout", "-q", "main"])
      git(root, ["merge", "-q", "--no-ff", "-m", "merge", "side"], "2025-08-01T00:00:00Z")
      write(root, "dirty.md", "# dirty.md\n\nfirst\nsecond\nthird, not committed\n")
      write(root, "staged.md", "# staged.md\n\nfirst, staged\nsecond\n")
      git(root, ["add", "staged.md"])
      write(root, "untracked.md", "# untracked\n")
    }, (root) =>
      Effect.gen(function*() {
        // The log answers for the files its one adding commit wrote whole, and leaves the rest to blame.
        const log = NodeChild.spawnSync("git", [...HistoryGit.LOG_ARGUMENTS], { cwd: root, encoding: "utf8" }).stdout
        const status = NodeChild.spawnSync("git", ["status", "--porcelain", "-z", "--untracked-files=no"], { cwd: root, encoding: "utf8" }).stdout
        const dirty = HistoryGit.dirtyPaths(status)
        assert.deepStrictEqual(
          [...HistoryGit.singleCommitPaths(log).keys()].filter((path) => !dirty.has(path)).sort(),
          [".gitattributes", ".mailmap", "assumed.md", "empty.md", "filtered.md", "no newline.md", "once.md", "ünïcode/ö.md"]
        )
        const history = yield* History
        const all = yield* history.blameAll(paths)
        for (const path of paths) assert.deepStrictEqual(all.get(path), yield* history.blame(path), path)
        // The files the log answered for, and one it could not: the file is the commit's alone.
        assert.strictEqual(Option.getOrThrow(all.get("once.md")!)[0]?.author, "Grace Hopper")
        assert.deepStrictEqual(Option.getOrThrow(all.get("empty.md")!), [])
        assert.strictEqual(Option.getOrThrow(all.get("no newline.md")!).length, 2)
        assert.isTrue(Option.getOrThrow(all.get("untracked.md")!).every((line) => line.uncommitted === true))
        // Blame gives the split halves the old file's lines, and the filtered and assumed files their true lines.
        assert.strictEqual(Option.getOrThrow(all.get("split-a.md")!)[0]?.author, "Grace Hopper")
        assert.strictEqual(Option.getOrThrow(all.get("filtered.md")!).length, 2)
        assert.deepStrictEqual(Option.getOrThrow(all.get("assumed.md")!).map((line) => line.uncommitted === true), [false, false, false, false, true])
      }), { batchFrom: 1 })
  }, 60_000) // a repository of five commits and a merge, then a blame per file: seconds on a loaded machine

  it.effect("blameAll - untracked files, and every file of a repository without a commit, are answered without one blame each", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-untracked-"))
      // A git that logs each command it runs, to count the blames.
      const log = NodePath.join(root, "..", `${NodePath.basename(root)}.log`)
      const wrapper = NodePath.join(root, "..", `${NodePath.basename(root)}.git.sh`)
      NodeFs.writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec git "$@"\n`, { mode: 0o755 })
      const paths = Array.from({ length: 60 }, (_, i) => `gen/file-${i}.md`)
      const blames = () => (NodeFs.existsSync(log) ? NodeFs.readFileSync(log, "utf8").split("\n").filter((command) => command === "blame").length : 0)
      const answers = Effect.gen(function*() {
        const history = yield* History
        return yield* history.blameAll(paths)
      }).pipe(Effect.provide(HistoryGit.layer(root, { git: wrapper })))
      try {
        git(root, ["init", "-q", "-b", "main"])
        for (const path of paths) write(root, path, "# Generated\n\nwords\n")
        for (const path of paths) NodeFs.utimesSync(NodePath.join(root, path), MODIFIED, MODIFIED)
        // No commit yet: every word is uncommitted.
        const fresh = yield* answers
        assert.strictEqual(blames(), 0)
        assert.deepStrictEqual(Option.getOrThrow(fresh.get("gen/file-7.md")!).map((line) => [line.authorTime, line.uncommitted]), [[MODIFIED_SECONDS, true], [MODIFIED_SECONDS, true], [MODIFIED_SECONDS, true]])
        write(root, "README.md", "committed\n")
        git(root, ["add", "README.md"])
        git(root, ["commit", "-q", "-m", "first"], "2025-01-02T03:04:05Z")
        // Committed history, the generated files never added.
        const untracked = yield* answers
        assert.strictEqual(blames(), 0)
        assert.deepStrictEqual(untracked, fresh)
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
        NodeFs.rmSync(log, { force: true })
        NodeFs.rmSync(wrapper, { force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)), 30_000)

  it.effect("blameAll - batch after batch at one commit reads the history once, and again once a commit lands", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-parts-"))
      const log = NodePath.join(root, "..", `${NodePath.basename(root)}.log`)
      const wrapper = NodePath.join(root, "..", `${NodePath.basename(root)}.git.sh`)
      NodeFs.writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec git "$@"\n`, { mode: 0o755 })
      const passes = () => (NodeFs.existsSync(log) ? NodeFs.readFileSync(log, "utf8").split("\n").filter((command) => command === "log").length : 0)
      const paths = Array.from({ length: 6 }, (_, i) => `docs/page-${i}.md`)
      try {
        git(root, ["init", "-q", "-b", "main"])
        for (const path of paths) write(root, path, `# Page\n\n${path}\n`)
        git(root, ["add", "."])
        git(root, ["commit", "-q", "-m", "one"], "2025-01-02T03:04:05Z")
        const { first, second, third, each } = yield* Effect.gen(function*() {
          const history = yield* History
          const first = yield* history.blameAll(paths.slice(0, 3))
          const second = yield* history.blameAll(paths.slice(3))
          assert.strictEqual(passes(), 1)
          write(root, "docs/page-0.md", "# Page\n\nrewritten\n")
          git(root, ["commit", "-q", "-am", "two"], "2025-06-01T00:00:00Z")
          const third = yield* history.blameAll(paths.slice(0, 3))
          return { first, second, third, each: yield* Effect.forEach(paths, (path) => history.blame(path)) }
        }).pipe(Effect.provide(HistoryGit.layer(root, { git: wrapper, batchFrom: 1 })))
        assert.strictEqual(passes(), 2)
        assert.deepStrictEqual([...second.values()], each.slice(3))
        assert.deepStrictEqual([...third.values()], each.slice(0, 3))
        assert.notDeepEqual(first.get("docs/page-0.md"), third.get("docs/page-0.md"))
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
        NodeFs.rmSync(log, { force: true })
        NodeFs.rmSync(wrapper, { force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)), 30_000)

  it.effect("blameAll - a root inside the work tree is answered for its own files, not the top's of the same name", () =>
    Effect.gen(function*() {
      const top = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-history-top-"))
      try {
        git(top, ["init", "-q", "-b", "main"])
        // `a.md` at the top is one commit's; `pkg/a.md` has lines from two.
        write(top, "a.md", "top\n")
        write(top, "pkg/a.md", "first\n")
        write(top, "pkg/b.md", "only once\n")
        git(top, ["add", "."])
        git(top, ["commit", "-q", "-m", "one"], "2025-01-02T03:04:05Z")
        write(top, "pkg/a.md", "first\nsecond\n")
        git(top, ["commit", "-q", "-am", "two"], "2025-06-01T00:00:00Z")
        const root = NodePath.join(top, "pkg")
        const { all, each } = yield* Effect.gen(function*() {
          const history = yield* History
          return { all: yield* history.blameAll(["a.md", "b.md"]), each: [yield* history.blame("a.md"), yield* history.blame("b.md")] }
        }).pipe(Effect.provide(HistoryGit.layer(root, { batchFrom: 1 })))
        assert.deepStrictEqual([all.get("a.md"), all.get("b.md")], each)
        assert.deepStrictEqual(Option.getOrThrow(all.get("a.md")!).map((line) => line.authorTime), [1735787045, 1748736000])
      } finally {
        NodeFs.rmSync(top, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)))
})
