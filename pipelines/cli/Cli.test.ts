import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestConsole } from "effect/testing"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { decodeSnapshotJson } from "../../src/domain/Snapshot.ts"
import { runWith } from "./Cli.ts"

const fixture = (name: string) => NodePath.join(import.meta.dirname, "..", "..", "test", "fixtures", name)

describe("cairn snapshot", () => {
  it.effect("snapshot --json - prints a snapshot that decodes", () =>
    Effect.gen(function*() {
      yield* runWith(["snapshot", "--root", fixture("cycles"), "--json"])
      const lines = yield* TestConsole.logLines
      const snapshot = yield* decodeSnapshotJson(String(lines[lines.length - 1]))
      assert.deepStrictEqual(snapshot.entities.filter((e) => e.kind === "module").map((e) => e.id), [
        "module:src/a.ts",
        "module:src/b.ts",
        "module:src/c.ts",
        "module:src/self.ts"
      ])
    }).pipe(Effect.provide(NodeServices.layer)), 30_000) // the first scan in this file loads the analyzers

  it.effect("snapshot --out --previous - writes the file, and a second run reuses it", () =>
    Effect.gen(function*() {
      const directory = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-cli-"))
      const first = NodePath.join(directory, "first.json")
      const second = NodePath.join(directory, "second.json")
      yield* runWith(["snapshot", "--root", fixture("barrels"), "--out", first])
      yield* runWith(["snapshot", "--root", fixture("barrels"), "--out", second, "--previous", first])
      const lines = (yield* TestConsole.logLines).map(String)
      NodeFs.rmSync(directory, { recursive: true, force: true })
      assert.include(lines[0], `wrote ${first}`)
      assert.include(lines[1], "complete: reused 7 entities (6 modules, 1 documents)")
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect("snapshot --previous - an unreadable previous snapshot is a PreviousInvalid error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(runWith(["snapshot", "--root", fixture("cycles"), "--previous", "/nonexistent/snap.json"]))
      assert.strictEqual(error._tag, "DiscoveryError")
      assert.strictEqual(error._tag === "DiscoveryError" ? error.reason._tag : "", "PreviousInvalid")
    }).pipe(Effect.provide(NodeServices.layer)))
})
