import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { TestConsole } from "effect/testing"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { graph } from "./GraphCommand.ts"
import { runWith as runCairn } from "./Cli.ts"

const fixture = (name: string) => NodePath.join(import.meta.dirname, "..", "..", "test", "fixtures", name)
const run = Command.runWith(graph, { version: "0.0.0" })

describe("cairn graph", () => {
  it.effect("text - the four sections; the self-importing module is the one cycle, with its line", () =>
    Effect.gen(function*() {
      yield* run(["--root", fixture("cycles")])
      const text = (yield* TestConsole.logLines).map(String).join("\n")
      assert.include(text, "Most canonical documents")
      assert.include(text, "none: the snapshot holds no documents")
      assert.include(text, "a change here reaches further than its diff; not a claim about runtime behaviour")
      assert.include(text, "Import cycles: 1\n  src/self.ts -> src/self.ts\n    src/self.ts:1 imports src/self.ts")
      assert.include(text, "Area suggestions: 0")
    }).pipe(Effect.provide(NodeServices.layer)), 30_000) // the first scan in this file loads the analyzers

  it.effect("--json - the exact centrality of a chain: b sits between a and c", () =>
    Effect.gen(function*() {
      yield* run(["--root", fixture("cycles"), "--json"])
      const report = JSON.parse((yield* TestConsole.logLines).map(String).join("\n"))
      // a → b → c (c's import of a is type-only): b lies on the one path a → c, out of the
      // (n - 1)(n - 2) = 6 ordered pairs of the other modules.
      assert.deepStrictEqual(report.centrality, {
        method: "exact",
        nodes: 4,
        sources: 4,
        note: "a review signal: a change here reaches further than its diff; not a claim about runtime behaviour",
        top: [{ id: "module:src/b.ts", score: Number((1 / 6).toPrecision(6)) }]
      })
      assert.strictEqual(report.cycles.cycles.length, 1)
      assert.isFalse(report.cycles.truncated)
    }).pipe(Effect.provide(NodeServices.layer)), 30_000) // scans a fixture tree

  it.effect("--dot - areas and the imports between them; --snapshot reads a written snapshot instead of scanning", () =>
    Effect.gen(function*() {
      const directory = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-graph-"))
      const file = NodePath.join(directory, "snapshot.json")
      yield* runCairn(["snapshot", "--root", fixture("barrels"), "--out", file])
      yield* run(["--snapshot", file, "--dot"])
      const lines = (yield* TestConsole.logLines).map(String)
      NodeFs.rmSync(directory, { recursive: true, force: true })
      const dot = lines[lines.length - 1]!
      assert.match(dot, /^digraph areas \{/)
      assert.include(dot, "\"src/shapes\" [label=\"src/shapes\\n4 modules\"];")
      assert.include(dot, "\"src\" -> \"src/shapes\"")
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect("--snapshot - an unreadable file is a GraphSnapshotInvalid naming the flag", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run(["--snapshot", "/nonexistent/snap.json"]))
      assert.strictEqual(error._tag, "GraphSnapshotInvalid")
      assert.include(error.message, "--snapshot /nonexistent/snap.json")
    }).pipe(Effect.provide(NodeServices.layer)))
})
