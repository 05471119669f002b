/**
 * The file backend of SnapshotStore: every backend's contract over a temporary folder, and what only
 * a file can show, a memo refused once the file is rewritten under it.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, FileSystem, Layer, Option, type Scope } from "effect"
import { systemError } from "effect/PlatformError"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { serializedUnits, unitDigests } from "../../src/discovery/Assemble.ts"
import { snapshotKeys } from "../../src/discovery/Fingerprints.ts"
import * as ScanCache from "../../src/discovery/ScanCache.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { type MemoUse, SnapshotStoreError } from "../../src/ports/SnapshotStore.ts"
import { scanMemory } from "../../test/discovery/support.ts"
import { contract } from "../contracts/SnapshotStore.contract.ts"
import * as SnapshotStoreFile from "./SnapshotStoreFile.ts"

contract(
  "file",
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const directory = yield* fs.makeTempDirectoryScoped({ prefix: "cairn-snapshot-store-" })
    return SnapshotStoreFile.layer(join(directory, "snapshot.json"))
  }).pipe(Layer.unwrap, Layer.provide(NodeServices.layer))
)

/** The snapshot in `file`, read through a store over it. */
const read = (file: string, cache: ScanCache.ScanCache, memo?: MemoUse) =>
  Effect.flatMap(SnapshotStoreFile.make(file), (store) => store.read(cache, memo))

/** `snapshot` staged as `file` for as long as the scope is open. */
const stage = (file: string, snapshot: Snapshot, cache: ScanCache.ScanCache) =>
  Effect.flatMap(SnapshotStoreFile.make(file), (store) => store.stage(snapshot, cache))

const inTemp = <A>(use: (directory: string) => Effect.Effect<A, unknown, FileSystem.FileSystem | Scope.Scope>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "cairn-write-"))),
    (directory) => Effect.scoped(use(directory)),
    (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
  ).pipe(Effect.provide(NodeServices.layer))

/** A file's stamp as the memo takes it. */
const stampNow = (file: string) => {
  const info = statSync(file)
  return `${info.size}:${info.mtimeMs}:${info.ino}`
}

describe("snapshot memo", () => {
  const REPO = {
    "package.json": JSON.stringify({ name: "demo" }),
    "src/main.ts": `import { helper } from "./helper.ts"\nexport const main = helper + "é字😀"\n`,
    "src/helper.ts": `export const helper = 1\n`,
    "docs/guide.md": "# Guide\n\nUses \`helper\` from \`src/helper.ts\` and [[notes]].\n",
    "docs/notes.md": "# Notes\n"
  }

  /** REPO scanned on a cache of its own, its snapshot staged and committed as `snapshot.json` in `directory`. */
  const scannedAndStaged = (directory: string) =>
    Effect.gen(function*() {
      const file = join(directory, "snapshot.json")
      const cache = ScanCache.make()
      const snapshot = yield* scanMemory(REPO, { cache })
      const staged = yield* stage(file, snapshot, cache)
      yield* staged.commit
      return { cache, file, snapshot, staged }
    })

  it.effect("hands a fresh cache the digests, JSON and keys of the snapshot its file holds, and nothing once the file is rewritten", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const { cache, file, snapshot, staged } = yield* scannedAndStaged(directory)
        const memo = staged.memo
        assert.isDefined(memo)
        if (memo === undefined) return

        const fresh = ScanCache.make()
        const adopted = Option.getOrThrow(yield* read(file, fresh, { memo, json: true }))
        assert.deepStrictEqual(unitDigests(adopted, fresh), unitDigests(snapshot, cache))
        assert.deepStrictEqual(serializedUnits(adopted, fresh), serializedUnits(snapshot, cache))
        assert.deepStrictEqual(snapshotKeys(fresh).get(adopted), snapshotKeys(cache).get(snapshot))
        // Digests and keys without the JSON, for a cache that outlives the run.
        const kept = ScanCache.make()
        const digestsOnly = Option.getOrThrow(yield* read(file, kept, { memo, json: false }))
        assert.deepStrictEqual(unitDigests(digestsOnly, kept), unitDigests(snapshot, cache))

        // Without the memo nothing is known.
        const bare = ScanCache.make()
        assert.isUndefined(unitDigests(Option.getOrThrow(yield* read(file, bare)), bare))
        // A rewrite that keeps every length, and so every piece where the memo puts it, is still refused.
        const text = readFileSync(file, "utf8")
        assert.include(text, `"name":"helper"`)
        writeFileSync(file, text.replace(`"name":"helper"`, `"name":"helpex"`))
        const rewritten = ScanCache.make()
        const edited = Option.getOrThrow(yield* read(file, rewritten, { memo, json: true }))
        assert.isUndefined(unitDigests(edited, rewritten))
        assert.isUndefined(snapshotKeys(rewritten).get(edited))
        // As is a memo of another snapshot.
        const other = ScanCache.make()
        const again = Option.getOrThrow(yield* read(file, other, { memo: { ...memo, stamp: stampNow(file), snapshotHash: "0".repeat(64) }, json: true }))
        assert.isUndefined(unitDigests(again, other))
        // And one whose pieces do not fit the text, even with the stamp and hash right.
        const shifted = ScanCache.make()
        writeFileSync(file, text)
        const lengths = Buffer.from(memo.lengths, "base64")
        lengths.writeUInt32LE(lengths.readUInt32LE(4) + 1, 4)
        const misplaced = Option.getOrThrow(yield* read(file, shifted, { memo: { ...memo, stamp: stampNow(file), lengths: lengths.toString("base64") }, json: true }))
        assert.isUndefined(unitDigests(misplaced, shifted))
        // The same memo with its true lengths is taken for the file as it now is.
        const restored = ScanCache.make()
        const intact = Option.getOrThrow(yield* read(file, restored, { memo: { ...memo, stamp: stampNow(file) }, json: true }))
        assert.deepStrictEqual(unitDigests(intact, restored), unitDigests(snapshot, cache))
      })
    ), 30_000) // scans a fixture tree and stages its snapshot file

  it.effect("a scan offered the adopted snapshot gives the same bytes and hash as one on the cache that wrote it", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const { cache, file, snapshot, staged } = yield* scannedAndStaged(directory)
        const edited = { ...REPO, "src/helper.ts": `export const helper = 2\nexport const other = 3\n` }
        const expected = yield* scanMemory(edited, { previous: snapshot, cache })
        const fresh = ScanCache.make()
        const adopted = Option.getOrThrow(yield* read(file, fresh, staged.memo && { memo: staged.memo, json: true }))
        const actual = yield* scanMemory(edited, { previous: adopted, cache: fresh })
        assert.strictEqual(actual.contentHash, expected.contentHash)
        const restaged = yield* stage(join(directory, "again.json"), actual, fresh)
        yield* restaged.commit
        const reference = yield* stage(join(directory, "reference.json"), expected, cache)
        yield* reference.commit
        assert.strictEqual(readFileSync(join(directory, "again.json"), "utf8"), readFileSync(join(directory, "reference.json"), "utf8"))
        assert.deepStrictEqual({ ...restaged.memo, stamp: "" }, { ...reference.memo, stamp: "" })
      })
    ))
})

describe("SnapshotStoreFile", () => {
  const REPO = { "src/a.ts": "export const a = 1\n", "docs/a.md": "# A\n\nSee `a`.\n" }

  it.effect("stage - a write that fails half way is a stage_failed, leaves no temporary and the committed file as it was", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const file = join(directory, "snapshot.json")
        const cache = ScanCache.make()
        const snapshot = yield* scanMemory(REPO, { cache })
        yield* Effect.scoped(Effect.flatMap(stage(file, snapshot, cache), (staged) => staged.commit))
        const committed = readFileSync(file)
        // A disk that fills after the temporary is opened.
        const real = yield* FileSystem.FileSystem
        const full = Layer.succeed(FileSystem.FileSystem, {
          ...real,
          open: (path, options) =>
            Effect.map(real.open(path, options), (handle) => ({
              ...handle,
              writeAll: () => Effect.fail(systemError({ _tag: "Unknown", module: "FileSystem", method: "writeAll", pathOrDescriptor: path, description: "no space left on device" }))
            }))
        })
        const other = yield* scanMemory({ ...REPO, "docs/b.md": "# B\n" }, { cache: ScanCache.make() })
        const error = yield* Effect.flip(Effect.scoped(stage(file, other, cache)).pipe(Effect.provide(full)))
        assert.instanceOf(error, SnapshotStoreError)
        assert.strictEqual(error.reason, "stage_failed")
        assert.deepStrictEqual(readdirSync(directory), ["snapshot.json"])
        assert.deepStrictEqual(readFileSync(file), committed)
      })
    ), 30_000) // scans two small trees

  it.effect("stage - what a scope staged and did not commit, or an interrupted one, leaves no temporary beside the file", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const file = join(directory, "snapshot.json")
        const cache = ScanCache.make()
        const snapshot = yield* scanMemory(REPO, { cache })
        yield* Effect.scoped(Effect.gen(function*() {
          yield* stage(file, snapshot, cache)
          assert.strictEqual(readdirSync(directory).filter((name) => name.endsWith(".tmp")).length, 1)
        }))
        assert.deepStrictEqual(readdirSync(directory), [])
        yield* Effect.exit(Effect.scoped(Effect.andThen(stage(file, snapshot, cache), Effect.interrupt)))
        assert.deepStrictEqual(readdirSync(directory), [])
      })
    ), 30_000) // scans a small tree
})
