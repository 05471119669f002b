import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, FileSystem, Option } from "effect"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { serializedUnits, unitDigests } from "../src/discovery/Assemble.ts"
import { snapshotKeys } from "../src/discovery/Fingerprints.ts"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import { scanMemory } from "../test/discovery/support.ts"
import { read, stage, stageWhole } from "./snapshotFile.ts"

const writeWhole = (fs: FileSystem.FileSystem, file: string, text: string | ReadonlyArray<string>) =>
  Effect.flatMap(stageWhole(fs, file, text), (staged) => staged.commit)

const inTemp = <A>(use: (directory: string) => Effect.Effect<A, unknown, FileSystem.FileSystem>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "cairn-write-"))),
    use,
    (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
  ).pipe(Effect.provide(NodeServices.layer))

describe("stageWhole", () => {
  it.effect("writes parts spanning several batches as the bytes of their concatenation, and leaves no temporary", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const file = join(directory, "snapshot.json")
        // About 3 MB of parts, with two- and four-byte UTF-8 characters on both sides of batch edges.
        const parts = Array.from({ length: 30_000 }, (_, i) => `{"n":${i},"t":"é字😀${"x".repeat(i % 200)}"},`)
        yield* writeWhole(fs, file, parts)
        assert.strictEqual(readFileSync(file, "utf8"), parts.join(""))
        yield* writeWhole(fs, file, "short")
        assert.strictEqual(readFileSync(file, "utf8"), "short")
        yield* writeWhole(fs, file, [])
        assert.strictEqual(readFileSync(file, "utf8"), "")
        assert.deepStrictEqual(readdirSync(directory), ["snapshot.json"])
      })
    ), 30_000) // writes and reads back a file of several batches

  // Live: leftovers are told by their age on the real clock.
  it.live("stages written aside: two in one process do not share a temporary, and a discarded one leaves nothing", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const file = join(directory, "snapshot.json")
        yield* writeWhole(fs, file, "old")
        const first = yield* stageWhole(fs, file, "first")
        const second = yield* stageWhole(fs, file, ["sec", "ond"])
        assert.strictEqual(readFileSync(file, "utf8"), "old")
        yield* second.commit
        yield* first.discard
        assert.strictEqual(readFileSync(file, "utf8"), "second")
        assert.deepStrictEqual(readdirSync(directory), ["snapshot.json"])
        // An hour-old temporary of a process that is gone is cleared by the next staging; a recent one
        // may be a live writer's in another pid namespace, and stays.
        const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000)
        writeFileSync(join(directory, "snapshot.json.999999999.0.tmp"), "stale")
        writeFileSync(join(directory, "snapshot.json.999999998.tmp"), "stale, older naming")
        writeFileSync(join(directory, "snapshot.json.999999997.0.tmp"), "recent")
        utimesSync(join(directory, "snapshot.json.999999999.0.tmp"), hoursAgo(2), hoursAgo(2))
        utimesSync(join(directory, "snapshot.json.999999998.tmp"), hoursAgo(2), hoursAgo(2))
        const third = yield* stageWhole(fs, file, "third")
        assert.deepStrictEqual(readdirSync(directory).filter((name) => name.endsWith(".tmp")).length, 2)
        yield* third.commit
        assert.deepStrictEqual(readdirSync(directory).sort(), ["snapshot.json", "snapshot.json.999999997.0.tmp"])
      })
    ))

  it.live("a temporary left by a kill -9 on this machine goes with the next staging; a live writer's stays", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const file = join(directory, "snapshot.json")
        // This machine's temporaries carry its namespace tag: read it off one staged here.
        const own = yield* stageWhole(fs, file, "own")
        const tag = /^snapshot\.json\.\d+\.\d+\.([0-9a-f]{8})\.tmp$/.exec(readdirSync(directory)[0]!)![1]!
        yield* own.discard
        const writer = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })
        try {
          const leftover = `snapshot.json.${writer.pid}.0.${tag}.tmp`
          writeFileSync(join(directory, leftover), "half a snapshot, seconds old")
          yield* writeWhole(fs, file, "while the writer lives")
          assert.deepStrictEqual(readdirSync(directory).sort(), ["snapshot.json", leftover])
          writer.kill("SIGKILL")
          yield* Effect.promise(() => once(writer, "exit"))
          yield* writeWhole(fs, file, "after the kill")
          assert.deepStrictEqual(readdirSync(directory), ["snapshot.json"])
        } finally {
          writer.kill("SIGKILL")
        }
      })
    ), 20_000)
})

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
      const fs = yield* FileSystem.FileSystem
      const file = join(directory, "snapshot.json")
      const cache = ScanCache.make()
      const snapshot = yield* scanMemory(REPO, { cache })
      const staged = yield* stage(fs, file, snapshot, cache)
      yield* staged.commit
      return { cache, file, fs, snapshot, staged }
    })

  it.effect("hands a fresh cache the digests, JSON and keys of the snapshot its file holds, and nothing once the file is rewritten", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const { cache, file, fs, snapshot, staged } = yield* scannedAndStaged(directory)
        const memo = staged.memo
        assert.isDefined(memo)
        if (memo === undefined) return

        const fresh = ScanCache.make()
        const adopted = Option.getOrThrow(yield* read(fs, file, fresh, { memo, json: true }))
        assert.deepStrictEqual(unitDigests(adopted, fresh), unitDigests(snapshot, cache))
        assert.deepStrictEqual(serializedUnits(adopted, fresh), serializedUnits(snapshot, cache))
        assert.deepStrictEqual(snapshotKeys(fresh).get(adopted), snapshotKeys(cache).get(snapshot))
        // Digests and keys without the JSON, for a cache that outlives the run.
        const kept = ScanCache.make()
        const digestsOnly = Option.getOrThrow(yield* read(fs, file, kept, { memo, json: false }))
        assert.deepStrictEqual(unitDigests(digestsOnly, kept), unitDigests(snapshot, cache))

        // Without the memo nothing is known.
        const bare = ScanCache.make()
        assert.isUndefined(unitDigests(Option.getOrThrow(yield* read(fs, file, bare)), bare))
        // A rewrite that keeps every length, and so every piece where the memo puts it, is still refused.
        const text = readFileSync(file, "utf8")
        assert.include(text, `"name":"helper"`)
        writeFileSync(file, text.replace(`"name":"helper"`, `"name":"helpex"`))
        const rewritten = ScanCache.make()
        const edited = Option.getOrThrow(yield* read(fs, file, rewritten, { memo, json: true }))
        assert.isUndefined(unitDigests(edited, rewritten))
        assert.isUndefined(snapshotKeys(rewritten).get(edited))
        // As is a memo of another snapshot.
        const other = ScanCache.make()
        const again = Option.getOrThrow(yield* read(fs, file, other, { memo: { ...memo, stamp: stampNow(file), snapshotHash: "0".repeat(64) }, json: true }))
        assert.isUndefined(unitDigests(again, other))
        // And one whose pieces do not fit the text, even with the stamp and hash right.
        const shifted = ScanCache.make()
        writeFileSync(file, text)
        const lengths = Buffer.from(memo.lengths, "base64")
        lengths.writeUInt32LE(lengths.readUInt32LE(4) + 1, 4)
        const misplaced = Option.getOrThrow(yield* read(fs, file, shifted, { memo: { ...memo, stamp: stampNow(file), lengths: lengths.toString("base64") }, json: true }))
        assert.isUndefined(unitDigests(misplaced, shifted))
        // The same memo with its true lengths is taken for the file as it now is.
        const restored = ScanCache.make()
        const intact = Option.getOrThrow(yield* read(fs, file, restored, { memo: { ...memo, stamp: stampNow(file) }, json: true }))
        assert.deepStrictEqual(unitDigests(intact, restored), unitDigests(snapshot, cache))
      })
    ), 30_000) // scans a fixture tree and stages its snapshot file

  it.effect("a scan offered the adopted snapshot gives the same bytes and hash as one on the cache that wrote it", () =>
    inTemp((directory) =>
      Effect.gen(function*() {
        const { cache, file, fs, snapshot, staged } = yield* scannedAndStaged(directory)
        const edited = { ...REPO, "src/helper.ts": `export const helper = 2\nexport const other = 3\n` }
        const expected = yield* scanMemory(edited, { previous: snapshot, cache })
        const fresh = ScanCache.make()
        const adopted = Option.getOrThrow(yield* read(fs, file, fresh, staged.memo && { memo: staged.memo, json: true }))
        const actual = yield* scanMemory(edited, { previous: adopted, cache: fresh })
        assert.strictEqual(actual.contentHash, expected.contentHash)
        const restaged = yield* stage(fs, join(directory, "again.json"), actual, fresh)
        yield* restaged.commit
        const reference = yield* stage(fs, join(directory, "reference.json"), expected, cache)
        yield* reference.commit
        assert.strictEqual(readFileSync(join(directory, "again.json"), "utf8"), readFileSync(join(directory, "reference.json"), "utf8"))
        assert.deepStrictEqual({ ...restaged.memo, stamp: "" }, { ...reference.memo, stamp: "" })
      })
    ))
})
