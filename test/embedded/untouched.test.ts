/**
 * Commands that cannot or need not write leave the repository as they found it: `status` of a
 * repository never indexed creates nothing, and `index` on a root it cannot use fails before
 * creating anything. The refusal is checked in process, over a file system that denies listing or
 * writing the root; and end to end, where permissions bind: they bind only a user other than root,
 * so when the tests run as root the command runs as `nobody`, which needs a checkout `nobody` can
 * reach (a checkout under a private home folder is not one).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, FileSystem, Layer } from "effect"
import { systemError } from "effect/PlatformError"
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { indexLayer } from "../../pipelines/indexRepository.ts"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")
const asRoot = process.getuid?.() === 0
// Root ignores permissions, so its run takes the identity of an ordinary user.
const identity = asRoot ? { uid: 65534, gid: 65534 } : {}

// Whether `nobody` can run this checkout's command at all: it must reach Node and the sources.
const identityCanRun = !asRoot || spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8", input: "", timeout: 60_000, ...identity }).status === 0

const run = (args: ReadonlyArray<string>, as: { readonly uid?: number; readonly gid?: number } = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: "", timeout: 60_000, ...as })

/** A repository of one note, readable by everyone (the command may run as another user). */
const makeRepository = (prefix: string): string => {
  const root = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(root, "docs"))
  writeFileSync(join(root, "docs/guide.md"), "# Guide\n\nDeploys roll back with `deployctl rollback`.\n")
  chmodSync(join(root, "docs"), 0o755)
  chmodSync(join(root, "docs/guide.md"), 0o644)
  chmodSync(root, 0o755)
  return root
}

describe("commands that leave no trace", () => {
  it("status - of a repository never indexed creates nothing and says so", () => {
    const root = makeRepository("cairn-status-")
    try {
      const shown = run(["status", "--root", root])
      assert.strictEqual(shown.status, 0, shown.stderr)
      assert.match(shown.stdout, /never built/)
      const json = run(["status", "--root", root, "--json"])
      assert.strictEqual(json.status, 0, json.stderr)
      const status = JSON.parse(json.stdout) as { built: boolean; stale: { added: Array<string> } }
      assert.strictEqual(status.built, false)
      assert.deepStrictEqual(status.stale.added, ["docs/guide.md"])
      assert.deepStrictEqual(readdirSync(root).sort(), ["docs"])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it.effect("index - the root is refused before anything is made when it cannot be listed or written", () =>
    Effect.gen(function*() {
      const root = makeRepository("cairn-refused-")
      try {
        const real = yield* FileSystem.FileSystem
        const denied = (method: string) => systemError({ _tag: "PermissionDenied", module: "FileSystem", method, pathOrDescriptor: root })
        const refusing = (refuse: "list" | "write") =>
          Layer.succeed(FileSystem.FileSystem, {
            ...real,
            readDirectory: (path, options) => refuse === "list" && path === root ? Effect.fail(denied("readDirectory")) : real.readDirectory(path, options),
            access: (path, options) =>
              refuse === "write" && path === root && options?.writable === true ? Effect.fail(denied("access")) : real.access(path, options)
          })
        const build = (refuse: "list" | "write") =>
          Effect.scoped(Layer.build(indexLayer(root))).pipe(Effect.provide(refusing(refuse)), Effect.exit)

        const unlistable = yield* build("list")
        assert.isTrue(Exit.isFailure(unlistable))
        assert.match(String(Exit.isFailure(unlistable) ? unlistable.cause : ""), /cannot be listed/)
        assert.deepStrictEqual(readdirSync(root).sort(), ["docs"])

        const unwritable = yield* build("write")
        assert.isTrue(Exit.isFailure(unwritable))
        assert.match(String(Exit.isFailure(unwritable) ? unwritable.cause : ""), /not writable/)
        assert.deepStrictEqual(readdirSync(root).sort(), ["docs"])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)), 60_000)

  it.runIf(identityCanRun)("index - a root that cannot be written or cannot be listed fails before anything is created", () => {
    const root = makeRepository("cairn-unusable-")
    try {
      // Listable, not writable: no `.cairn` folder can be made.
      chmodSync(root, 0o555)
      const unwritable = run(["index", "--root", root], identity)
      assert.strictEqual(unwritable.status, 1, unwritable.stdout)
      assert.match(unwritable.stderr, /not writable/)
      assert.notMatch(unwritable.stderr, /\n\s+at /)
      assert.deepStrictEqual(readdirSync(root).sort(), ["docs"])

      // Writable, not listable: the scan could never run, so nothing may be made for it.
      chmodSync(root, 0o333)
      const unlistable = run(["index", "--root", root], identity)
      assert.strictEqual(unlistable.status, 1, unlistable.stdout)
      assert.match(unlistable.stderr, /cannot be listed/)
      chmodSync(root, 0o755)
      assert.deepStrictEqual(readdirSync(root).sort(), ["docs"])
    } finally {
      chmodSync(root, 0o755)
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
