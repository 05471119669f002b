/**
 * Commands that cannot or need not write leave the repository as they found it: `status` of a
 * repository never indexed creates nothing, and `index` on a root it cannot use fails before
 * creating anything. Permissions bind only a user other than root, so when the tests run as root
 * the command runs as `nobody`.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")
const asRoot = process.getuid?.() === 0
// Root ignores permissions, so its run takes the identity of an ordinary user.
const identity = asRoot ? { uid: 65534, gid: 65534 } : {}

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

  it("index - a root that cannot be written or cannot be listed fails before anything is created", () => {
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
