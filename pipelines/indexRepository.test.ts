import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import * as SnapshotStoreFile from "../layers/node/SnapshotStoreFile.ts"
import { scanMemory } from "../test/discovery/support.ts"
import { stageScan } from "./indexRepository.ts"

setFlagsFromString("--expose-gc")
const collect = runInNewContext("gc") as () => void

describe("stageScan", () => {
  // A weak reference, to see whether anything the staging leaves behind still holds the snapshot.
  const scannedAndStaged = (root: string) =>
    Effect.gen(function*() {
      const cache = ScanCache.make()
      const snapshot = yield* scanMemory({ "src/a.ts": "export const a = 1\n", "docs/a.md": "# A\n\nSee `a`.\n" }, { cache })
      const staged = yield* stageScan(root, snapshot, cache, "fingerprint").pipe(Effect.provide(SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root))))
      return { staged, snapshot: new WeakRef(snapshot), cache: new WeakRef(cache) }
    })

  it.live("lets the snapshot and its cache go once their files are written aside, and removes the files with the scope", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-stage-"))
      try {
        yield* Effect.scoped(Effect.gen(function*() {
          const { cache, snapshot, staged } = yield* scannedAndStaged(root)
          assert.strictEqual(readdirSync(join(root, ".cairn")).filter((name) => name.endsWith(".tmp")).length, 2)
          // Collection runs between turns of the event loop, where the weak references are cleared.
          yield* Effect.sleep("10 millis")
          collect()
          assert.isUndefined(snapshot.deref())
          assert.isUndefined(cache.deref())
          assert.isDefined(staged)
        }))
        // Never committed: the scope took the temporaries away, and left the folder's .gitignore.
        assert.deepStrictEqual(readdirSync(join(root, ".cairn")), [".gitignore"])
        yield* Effect.scoped(Effect.flatMap(scannedAndStaged(root), ({ staged }) => staged.commit))
        assert.isTrue(existsSync(join(root, ".cairn", "snapshot.json")) && existsSync(join(root, ".cairn", "scan-cache.json")))
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)), 30_000) // scans a tree and commits its snapshot files, three times

  it.live("gives .cairn a .gitignore of everything, and keeps one the user wrote", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-stage-"))
      const ignore = join(root, ".cairn", ".gitignore")
      try {
        yield* Effect.scoped(Effect.flatMap(scannedAndStaged(root), ({ staged }) => staged.commit))
        assert.strictEqual(readFileSync(ignore, "utf8"), "*\n")
        writeFileSync(ignore, "snapshot.json\n")
        yield* Effect.scoped(Effect.flatMap(scannedAndStaged(root), ({ staged }) => staged.commit))
        assert.strictEqual(readFileSync(ignore, "utf8"), "snapshot.json\n")
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)))
})
