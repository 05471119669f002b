import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import { groupsOf, shareBatch } from "./SharedBatch.ts"
import { resetWarnings, WORKER_WARNING_CODE, workerEntry } from "./WorkerEntry.ts"

/** The process warnings given while `run` runs. */
const warningsOf = async (run: () => unknown): Promise<Array<Error & { code?: string }>> => {
  const seen: Array<Error & { code?: string }> = []
  const listener = (warning: Error & { code?: string }) => seen.push(warning)
  process.on("warning", listener)
  try {
    await run()
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off("warning", listener)
  }
  return seen.filter((warning) => warning.code === WORKER_WARNING_CODE)
}

const scratch = () => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-worker-entry-"))

describe("WorkerEntry", () => {
  it("workerEntry - the sibling with the caller's extension: .ts from sources, .js from a build", () => {
    const directory = scratch()
    NodeFs.writeFileSync(NodePath.join(directory, "chunkerWorker.ts"), "")
    NodeFs.writeFileSync(NodePath.join(directory, "chunkerWorker.js"), "")
    const base = pathToFileURL(`${directory}/`)
    assert.strictEqual(workerEntry("chunker", new URL("ChunkerPoolNode.ts", base).href)?.href, new URL("chunkerWorker.ts", base).href)
    assert.strictEqual(workerEntry("chunker", new URL("ChunkerPoolNode.js", base).href)?.href, new URL("chunkerWorker.js", base).href)
    NodeFs.rmSync(directory, { recursive: true, force: true })
  })

  it("workerEntry - from a bundle without the sibling, the installed package's export stands in", () => {
    const bundle = scratch()
    const installed = scratch()
    const exportedEntry = NodePath.join(installed, "trainingWorker.js")
    NodeFs.writeFileSync(exportedEntry, "")
    const resolve = (specifier: string) => {
      assert.strictEqual(specifier, "cairn/workers/training")
      return pathToFileURL(exportedEntry).href
    }
    assert.strictEqual(workerEntry("training", pathToFileURL(NodePath.join(bundle, "app.js")).href, resolve)?.href, pathToFileURL(exportedEntry).href)
    NodeFs.rmSync(bundle, { recursive: true, force: true })
    NodeFs.rmSync(installed, { recursive: true, force: true })
  })

  it("workerEntry - with no entry anywhere: undefined, and one warning however often it is asked", async () => {
    resetWarnings()
    const bundle = scratch()
    const from = pathToFileURL(NodePath.join(bundle, "app.js")).href
    const unresolvable = () => {
      throw new Error("Cannot find package 'cairn'")
    }
    const warnings = await warningsOf(() => {
      assert.isUndefined(workerEntry("analyzer", from, unresolvable))
      assert.isUndefined(workerEntry("analyzer", from, unresolvable))
    })
    assert.strictEqual(warnings.length, 1)
    assert.include(warnings[0]!.message, "analyzer worker's entry file is missing")
    assert.include(warnings[0]!.message, "runs on the calling thread")
    NodeFs.rmSync(bundle, { recursive: true, force: true })
  })

  it.effect("shareBatch - without an entry every group is answered on this thread, in order", () =>
    Effect.gen(function*() {
      const items = Array.from({ length: 50 }, (_, i) => i)
      const answered = yield* shareBatch({
        name: "chunker",
        worker: undefined,
        groups: groupsOf(items, 7),
        context: null,
        local: (group) => Effect.succeed(group.map((n) => n * 2))
      })
      assert.deepStrictEqual(answered, items.map((n) => n * 2))
    }))

  it("shareBatch - a worker that cannot start is said once, and its groups are answered here", async () => {
    resetWarnings()
    const directory = scratch()
    // A module that throws as it loads: the worker fails before it claims anything.
    const broken = NodePath.join(directory, "brokenWorker.mjs")
    NodeFs.writeFileSync(broken, "throw new Error('no parser binding for this platform')\n")
    const items = Array.from({ length: 30 }, (_, i) => i)
    let answered: ReadonlyArray<number> = []
    const warnings = await warningsOf(async () => {
      answered = await Effect.runPromise(shareBatch({
        name: "chunker",
        worker: pathToFileURL(broken),
        groups: groupsOf(items, 5),
        context: null,
        // Slow enough that the workers fail while groups remain.
        local: (group) => Effect.as(Effect.sleep(5), group.map((n) => n + 1))
      }))
    })
    assert.deepStrictEqual(answered, items.map((n) => n + 1))
    assert.strictEqual(warnings.length, 1)
    assert.include(warnings[0]!.message, "no parser binding for this platform")
    NodeFs.rmSync(directory, { recursive: true, force: true })
  }, 30_000)
})
