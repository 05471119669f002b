import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Sink, Stdio } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { IndexProgress } from "../indexRepository.ts"
import { runIndex } from "./IndexAction.ts"
import { indexProgressView } from "./IndexProgressView.ts"

const scanning = (done: number, total: number): IndexProgress => ({ _tag: "Scanning", phase: "modules", done, total })

const run = (terminal: boolean, events: ReadonlyArray<IndexProgress>): Array<string> => {
  const view = indexProgressView(terminal)
  const out = events.map(view.next).filter((text) => text !== undefined)
  const end = view.finish()
  return end === undefined ? out : [...out, end]
}

const longScan = Array.from({ length: 12_001 }, (_, done) => scanning(done, 12_000))

describe("indexProgressView", () => {
  it("in a log: a line as each step starts and at each tenth of a long step, never one per file", () => {
    const lines = run(false, [
      ...longScan,
      { _tag: "Discovered", files: 12_000 },
      ...Array.from({ length: 61 }, (_, i) => ({ _tag: "Chunked", done: i * 200, total: 12_000 }) as const),
      { _tag: "Training", chunks: 20_000 },
      { _tag: "Embedding", chunks: 75_000 },
      { _tag: "Written" }
    ])
    assert.deepStrictEqual(lines.slice(0, 3), [
      "cairn: scanning modules, 0/12000 files\n",
      "cairn: scanning modules, 1200/12000 files\n",
      "cairn: scanning modules, 2400/12000 files\n"
    ])
    assert.strictEqual(lines.filter((line) => line.includes("scanning modules")).length, 11)
    assert.strictEqual(lines.filter((line) => line.includes("chunked")).length, 11)
    assert.deepStrictEqual(lines.slice(-4), [
      "cairn: chunked 12000/12000 changed files\n",
      "cairn: training the embedder on 20000 chunks\n",
      "cairn: embedding 75000 chunks\n",
      "cairn: written\n"
    ])
    assert.isTrue(lines.every((line) => !line.includes("\r")))
  })

  it("on a terminal: one line redrawn in place with a bar, at most once a percent, ended by a newline", () => {
    const lines = run(true, [...longScan, { _tag: "Written" }])
    assert.strictEqual(lines.length, 101 + 1 + 1)
    assert.strictEqual(lines[0], `\rcairn: scanning modules, 0/12000 files [${"-".repeat(24)}] 0%\u001b[K`)
    assert.strictEqual(lines[50], `\rcairn: scanning modules, 6000/12000 files [${"#".repeat(12)}${"-".repeat(12)}] 50%\u001b[K`)
    assert.strictEqual(lines.at(-2), "\rcairn: written\u001b[K")
    assert.strictEqual(lines.at(-1), "\n")
  })

  it("a short scan says nothing of itself; the index steps still show", () => {
    const lines = run(false, [scanning(0, 20), scanning(20, 20), { _tag: "Discovered", files: 20 }, { _tag: "Written" }])
    assert.deepStrictEqual(lines, ["cairn: 20 files to index\n", "cairn: written\n"])
  })
})

describe("runIndex", () => {
  it.effect("writes progress while the run goes, before the index commits", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-progress-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      mkdirSync(join(root, "docs"))
      for (let i = 0; i < 30; i++) writeFileSync(join(root, `docs/page-${i}.md`), `# Page ${i}\n\nThe dispatcher retries page ${i} twice.\n`)
      // The scan cache is written only once the index has committed.
      const committed = () => existsSync(join(root, ".cairn", "scan-cache.json"))
      const written: Array<{ readonly text: string; readonly committed: boolean }> = []
      const stdio = Stdio.layerTest({
        stderrIsTerminal: Effect.succeed(false),
        stderr: () => Sink.forEach((text: string | Uint8Array) => Effect.sync(() => void written.push({ text: String(text), committed: committed() })))
      })
      const report = yield* runIndex(root, false).pipe(Effect.provide(stdio))
      assert.strictEqual(report.notesIndexed, 30)
      const lines = written.map(({ text }) => text)
      assert.deepStrictEqual(lines, [
        "cairn: 30 files to index\n",
        "cairn: chunked 30/30 changed files\n",
        "cairn: training the embedder on 30 chunks\n",
        "cairn: embedding 30 chunks\n",
        "cairn: written\n"
      ])
      assert.isFalse(written[0]!.committed)
      assert.isTrue(committed())

      // A refresh embeds the one moved file with the stored model, then writes it.
      written.length = 0
      writeFileSync(join(root, "docs/page-7.md"), "# Page 7\n\nThe dispatcher now retries page 7 three times.\n")
      yield* runIndex(root, false).pipe(Effect.provide(stdio))
      assert.deepStrictEqual(written.map(({ text }) => text), [
        "cairn: 30 files to index\n",
        "cairn: chunked 1/1 changed files\n",
        "cairn: embedding 1 chunks\n",
        "cairn: writing 1 chunks\n",
        "cairn: written\n"
      ])
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), 60_000)
})
