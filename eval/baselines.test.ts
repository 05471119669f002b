import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { corpus } from "../test/support/Corpus.ts"
import { makeBaselines, optionalPackages } from "./baselines.ts"
import { CONDITIONS } from "./conditions.ts"
import type { EvalCorpus } from "./Corpus.ts"
import { reportMarkdown, resultsJson } from "./report.ts"
import { runBench } from "./run.ts"

const evalCorpus: EvalCorpus = {
  name: "fixture",
  chunks: corpus.chunks,
  edges: corpus.edges,
  documents: new Map(corpus.chunks.map((c) => [c.noteId, c.text])),
  anchor: Date.UTC(2026, 9, 1),
  conflicts: [],
  gapPremises: [],
  staleNotes: new Set()
}

const questions = [{
  file: "fixture.json",
  question: { id: "pos-1", question: "how do I roll back a deploy?", intent: "reference", difficulty: "easy", relevant: ["runbooks/rollback.md"], split: "dev" }
}] as const

/** The error Node itself throws for a package that is not installed, as if `name` were the one missing. */
const missing = (name: string) =>
  import("cairn-no-such-package" as string).then(
    () => assert.fail("cairn-no-such-package resolved"),
    (error: Error & { code?: string }) =>
      Promise.reject(Object.assign(new Error(error.message.replace("cairn-no-such-package", name)), { code: error.code }))
  )

const bench = (packages: typeof optionalPackages) =>
  runBench({ corpus: evalCorpus, questions, conditions: CONDITIONS.slice(0, 1), baselines: makeBaselines(packages) })

describe("baselines (optional packages)", () => {
  it.effect("runBench - a baseline whose package is missing is skipped, named with its package, and the rest run", () =>
    Effect.gen(function*() {
      const result = yield* bench({ ...optionalPackages, minisearch: () => missing("minisearch") })
      assert.deepStrictEqual(result.skippedBaselines, [{ name: "minisearch", packageName: "minisearch" }])
      assert.deepStrictEqual(result.baselines.map((b) => b.name), ["grep", "random", "whole-file-bm25", "orama"])
      assert.include(reportMarkdown(result, undefined, { command: "test", split: "dev" }), "minisearch needs minisearch (`npm install minisearch`)")
      const json = JSON.parse(resultsJson(result, undefined, {})) as { skippedBaselines: unknown }
      assert.deepStrictEqual(json.skippedBaselines, [{ name: "minisearch", packageName: "minisearch" }])
    }), { timeout: 60_000 })

  it.effect("runBench - with neither package every other baseline still runs", () =>
    Effect.gen(function*() {
      const result = yield* bench({ minisearch: () => missing("minisearch"), "@orama/orama": () => missing("@orama/orama") })
      assert.deepStrictEqual(result.skippedBaselines.map((s) => [s.name, s.packageName]), [["minisearch", "minisearch"], ["orama", "@orama/orama"]])
      assert.deepStrictEqual(result.baselines.map((b) => b.name), ["grep", "random", "whole-file-bm25"])
      assert.include(reportMarkdown(result, undefined, { command: "test", split: "dev" }), "orama needs @orama/orama (`npm install @orama/orama`)")
    }), { timeout: 60_000 })

  it.effect("runBench - with both packages installed nothing is skipped", () =>
    Effect.gen(function*() {
      const result = yield* bench(optionalPackages)
      assert.deepStrictEqual(result.skippedBaselines, [])
      assert.strictEqual(result.baselines.length, 5)
      assert.notInclude(reportMarkdown(result, undefined, { command: "test", split: "dev" }), "Not run")
    }), { timeout: 60_000 })

  it.effect("runBench - a package missing under an installed one is a broken install, not a skip", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(bench({ ...optionalPackages, minisearch: () => missing("some-dependency-of-minisearch") }))
      assert.isTrue(Exit.hasDies(exit))
    }), { timeout: 60_000 })
})
