/** The staged writer: whole files written aside and renamed into place, and temporaries that outlive their writer cleared. */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, FileSystem } from "effect"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { stageWhole } from "./StagedFile.ts"

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
