import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { CoChange } from "../../src/ports/CoChange.ts"
import type { ChangeHistory } from "../../src/domain/ChangeHistory.ts"
import { contract } from "../contracts/CoChange.contract.ts"
import * as CoChangeGit from "./CoChangeGit.ts"
import { git, underGitOf } from "../../test/support/Git.ts"

let edits = 0
/** A commit changing `paths` (each gets a new line) with message `message`. */
const commit = (root: string, paths: ReadonlyArray<string>, message = "change", date?: string) => {
  for (const path of paths) {
    NodeFs.mkdirSync(NodePath.dirname(NodePath.join(root, path)), { recursive: true })
    NodeFs.appendFileSync(NodePath.join(root, path), `edit ${edits++}\n`)
  }
  git(root, ["add", "-A"])
  git(root, ["commit", "-q", "-m", message], date)
}

/** Each commit as its sorted path list, newest first. */
const listed = (history: ChangeHistory) => history.commits.map((ids) => ids.map((id) => history.paths[id]!))

const historyAt = (root: string, window: number, options?: CoChangeGit.CoChangeGitOptions) =>
  Effect.gen(function*() {
    const source = yield* CoChange
    return yield* source.history(window)
  }).pipe(Effect.provide(CoChangeGit.layer(root, options)), Effect.provide(NodeServices.layer))

const scratch = (name: string) => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `cairn-cochange-${name}-`))

/** cairn's folder as the index makes it, ignored by git. */
const makeCairnDir = (root: string) => {
  NodeFs.mkdirSync(NodePath.join(root, ".cairn"))
  NodeFs.writeFileSync(NodePath.join(root, ".cairn", ".gitignore"), "*\n")
}

/** A git that writes each command line it runs to `log`. */
const loggingGit = (root: string) => {
  const log = `${root}.log`
  const wrapper = `${root}.git.sh`
  NodeFs.writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec git "$@"\n`, { mode: 0o755 })
  const commands = () => (NodeFs.existsSync(log) ? NodeFs.readFileSync(log, "utf8").split("\n").filter((line) => line !== "") : [])
  const clear = () => NodeFs.rmSync(log, { force: true })
  const remove = () => (clear(), NodeFs.rmSync(wrapper, { force: true }))
  return { wrapper, commands, clear, remove }
}

/** A scratch root holding `commits` (oldest first), made with git, for as long as the layer lives. */
const gitHistory = (commits: ReadonlyArray<ReadonlyArray<string>> | undefined) =>
  Layer.unwrap(Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => {
        const root = scratch("contract")
        if (commits !== undefined) {
          git(root, ["init", "-q", "-b", "main"])
          for (const paths of commits) commit(root, paths)
        }
        return root
      }),
      (root) => Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true }))
    ),
    (root) => CoChangeGit.layer(root)
  )).pipe(Layer.provide(NodeServices.layer))

contract("git", gitHistory)

describe("CoChangeGit", () => {
  it.effect("reads each commit's changed paths newest first, without merges, relative to a root inside the work tree", () =>
    Effect.gen(function*() {
      const top = scratch("subdir")
      try {
        git(top, ["init", "-q", "-b", "main"])
        commit(top, ["pkg/src/a.ts", "pkg/src/b.ts", "other/x.ts"], "one")
        git(top, ["checkout", "-q", "-b", "side"])
        commit(top, ["pkg/src/c.ts"], "side")
        git(top, ["checkout", "-q", "main"])
        commit(top, ["pkg/src/a.ts", "pkg/README.md"], "two")
        git(top, ["merge", "-q", "--no-ff", "-m", "merge side", "side"])
        const history = Option.getOrThrow(yield* historyAt(NodePath.join(top, "pkg"), 100))
        assert.deepStrictEqual(listed(history), [["README.md", "src/a.ts"], ["src/c.ts"], ["src/a.ts", "src/b.ts"]])
        assert.strictEqual(history.head, git(top, ["rev-parse", "HEAD"]).trim())
      } finally {
        NodeFs.rmSync(top, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("answers none outside a work tree and before the first commit, and writes nothing there", () =>
    Effect.gen(function*() {
      const root = scratch("none")
      try {
        makeCairnDir(root)
        assert.isTrue(Option.isNone(yield* historyAt(root, 100)))
        git(root, ["init", "-q", "-b", "main"])
        assert.isTrue(Option.isNone(yield* historyAt(root, 100)))
        assert.isFalse(NodeFs.existsSync(NodePath.join(root, ".cairn", "cochange.json")))
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("keeps the history in .cairn and reads only the commits since it on the next run; a rewritten history is read afresh", () =>
    Effect.gen(function*() {
      const root = scratch("incremental")
      const logged = loggingGit(root)
      try {
        git(root, ["init", "-q", "-b", "main"])
        commit(root, ["a.ts", "b.ts"], "one")
        commit(root, ["a.ts", "c.ts"], "two")
        // No .cairn folder: nothing is written, and a query never makes one.
        assert.strictEqual(listed(Option.getOrThrow(yield* historyAt(root, 100, { git: logged.wrapper }))).length, 2)
        assert.isFalse(NodeFs.existsSync(NodePath.join(root, ".cairn")))
        makeCairnDir(root)
        yield* historyAt(root, 100, { git: logged.wrapper })
        const file = NodePath.join(root, ".cairn", "cochange.json")
        const first = git(root, ["rev-parse", "HEAD"]).trim()
        assert.include(NodeFs.readFileSync(file, "utf8"), first)

        commit(root, ["b.ts", "d.ts"], "three")
        logged.clear()
        const next = Option.getOrThrow(yield* historyAt(root, 100, { git: logged.wrapper }))
        assert.deepStrictEqual(listed(next), [["b.ts", "d.ts"], ["a.ts", "c.ts"], ["a.ts", "b.ts"]])
        const logs = () => logged.commands().filter((line) => / log /.test(` ${line}`))
        // The one new commit is logged by name; the two stored are not read again.
        assert.deepStrictEqual(logs().map((line) => line.split(" ").slice(-4)), [["--no-walk=unsorted", next.head, "--", "."]])

        // Unchanged HEAD: the file answers, no log is read.
        logged.clear()
        assert.deepStrictEqual(Option.getOrThrow(yield* historyAt(root, 100, { git: logged.wrapper })), next)
        assert.deepStrictEqual(logs(), [])

        // Amended: the rewritten commit is logged, and the history is what a fresh read gives.
        git(root, ["commit", "-q", "--amend", "-m", "three, reworded"])
        logged.clear()
        const rewritten = Option.getOrThrow(yield* historyAt(root, 100, { git: logged.wrapper }))
        assert.deepStrictEqual(listed(rewritten), listed(next))
        assert.deepStrictEqual(logs().map((line) => line.split(" ").slice(-4)), [["--no-walk=unsorted", rewritten.head, "--", "."]])
        assert.deepStrictEqual(rewritten, Option.getOrThrow(yield* historyAt(root, 100, { file: false })))
      } finally {
        logged.remove()
        NodeFs.rmSync(root, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("holds the window's newest commits, drops what falls out of it, and a damaged file is read again", () =>
    Effect.gen(function*() {
      const root = scratch("window")
      try {
        git(root, ["init", "-q", "-b", "main"])
        makeCairnDir(root)
        for (let i = 0; i < 4; i++) commit(root, [`f${i}.ts`, "shared.ts"])
        assert.deepStrictEqual(listed(Option.getOrThrow(yield* historyAt(root, 3))), [["f3.ts", "shared.ts"], ["f2.ts", "shared.ts"], ["f1.ts", "shared.ts"]])
        commit(root, ["f4.ts", "shared.ts"])
        assert.deepStrictEqual(listed(Option.getOrThrow(yield* historyAt(root, 3))).map((paths) => paths[0]), ["f4.ts", "f3.ts", "f2.ts"])
        // A deeper window than the file holds reads the log to that depth.
        assert.strictEqual(listed(Option.getOrThrow(yield* historyAt(root, 10))).length, 5)
        NodeFs.writeFileSync(NodePath.join(root, ".cairn", "cochange.json"), "{\"format\":\"cairn/cochange@1\",\"head\":")
        assert.strictEqual(listed(Option.getOrThrow(yield* historyAt(root, 10))).length, 5)
        assert.isDefined(CoChangeGit.decode(NodeFs.readFileSync(NodePath.join(root, ".cairn", "cochange.json"), "utf8")))
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("a merged side branch of older commits, and windows that shrink and grow, give what a fresh read gives", () =>
    Effect.gen(function*() {
      const root = scratch("order")
      try {
        git(root, ["init", "-q", "-b", "main"])
        makeCairnDir(root)
        const dated = (date: string, paths: ReadonlyArray<string>, message: string) => commit(root, paths, message, date)
        dated("2024-01-01T00:00:00Z", ["base.ts"], "base")
        git(root, ["checkout", "-q", "-b", "side"])
        dated("2024-01-02T00:00:00Z", ["side-1.ts"], "side one")
        dated("2024-01-03T00:00:00Z", ["side-2.ts"], "side two")
        git(root, ["checkout", "-q", "main"])
        for (let i = 0; i < 3; i++) dated(`2024-02-0${i + 1}T00:00:00Z`, [`main-${i}.ts`], `main ${i}`)
        // Stored at main's head, then the older side branch merged in.
        yield* historyAt(root, 3)
        git(root, ["merge", "-q", "--no-ff", "-m", "merge side", "side"], "2024-03-01T00:00:00Z")
        const fresh = (window: number) => Effect.map(historyAt(root, window, { file: false }), (found) => listed(Option.getOrThrow(found)))
        assert.deepStrictEqual(listed(Option.getOrThrow(yield* historyAt(root, 3))), yield* fresh(3))
        assert.deepStrictEqual(yield* fresh(3), [["main-2.ts"], ["main-1.ts"], ["main-0.ts"]])
        // A small window asked in between loses nothing a deeper one holds.
        yield* historyAt(root, 6)
        for (let i = 3; i < 6; i++) dated(`2024-04-0${i + 1}T00:00:00Z`, [`late-${i}.ts`], `late ${i}`)
        assert.strictEqual(listed(Option.getOrThrow(yield* historyAt(root, 1))).length, 6)
        assert.deepStrictEqual(listed(Option.getOrThrow(yield* historyAt(root, 6))).slice(0, 6), (yield* fresh(6)))
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("a root inside a larger work tree counts only the commits that touched it", () =>
    Effect.gen(function*() {
      const top = scratch("outside")
      try {
        git(top, ["init", "-q", "-b", "main"])
        commit(top, ["pkg/a.ts", "pkg/b.ts"], "in")
        for (let i = 0; i < 4; i++) commit(top, [`elsewhere/x${i}.ts`], "out")
        git(top, ["commit", "-q", "--allow-empty", "-m", "empty"])
        assert.deepStrictEqual(listed(Option.getOrThrow(yield* historyAt(NodePath.join(top, "pkg"), 2))), [["a.ts", "b.ts"]])
      } finally {
        NodeFs.rmSync(top, { recursive: true, force: true })
      }
    }), 30_000)

  it.effect("reads the root's repository when run under another's GIT_DIR, as from a git hook", () =>
    Effect.gen(function*() {
      const root = scratch("hooked")
      const other = scratch("hook-owner")
      try {
        git(root, ["init", "-q", "-b", "main"])
        commit(root, ["a.ts", "b.ts"])
        git(other, ["init", "-q", "-b", "main"])
        commit(other, ["elsewhere.ts"])
        const history = Option.getOrThrow(yield* underGitOf(other, historyAt(root, 10, { file: false })))
        assert.deepStrictEqual(listed(history), [["a.ts", "b.ts"]])
      } finally {
        for (const dir of [root, other]) NodeFs.rmSync(dir, { recursive: true, force: true })
      }
    }), 30_000)

  it("parseLog reads git's -z records and refuses output it does not understand", () => {
    const a = "a".repeat(40)
    const b = "b".repeat(40)
    assert.deepStrictEqual(CoChangeGit.parseLog(`\u0001${a}\u0000\nz.ts\u0000y.ts\u0000\u0001${b}\u0000`), [
      { id: a, paths: ["y.ts", "z.ts"] },
      { id: b, paths: [] }
    ])
    assert.isUndefined(CoChangeGit.parseLog("\u0001not-a-hash\u0000\nx.ts\u0000"))
  })

  it("historyOf keeps a commit over the file bound without its paths", () => {
    const huge = Array.from({ length: CoChangeGit.MAX_KEPT_FILES + 1 }, (_, i) => `g${i}.ts`)
    const history = CoChangeGit.historyOf("h", [{ id: "1", paths: ["a.ts", "b.ts"] }, { id: "2", paths: huge }])
    assert.deepStrictEqual(history.paths, ["a.ts", "b.ts"])
    assert.deepStrictEqual(history.commits, [[0, 1], []])
  })
})
