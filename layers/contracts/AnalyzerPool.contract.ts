/**
 * Behaviour every AnalyzerPool backend must show, run against each backend by its own test file: a
 * batch gets, request by request and in request order, what the standard registry's analyzer says
 * of that file alone, however the backend spreads the batch. A backend is given as a layer that
 * provides the pool. Batches run from empty to a few hundred files, so a backend that treats small
 * and large ones apart is held to both.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import type { Layer } from "effect"
import { runAnalyzer } from "../../src/discovery/Registry.ts"
import { standard } from "../../src/discovery/StandardAnalyzers.ts"
import { type AnalysisRequest, AnalyzerPool, analyzersOf, readyAll } from "../../src/ports/AnalyzerPool.ts"

const markdown = (i: number): AnalysisRequest => ({
  path: `docs/page-${i}.md`,
  text: `---\ntype: guide\n---\n# Page ${i}\n\nSee [next](./page-${i + 1}.md), \`src/m${i % 7}.ts\` and [[page-${i % 5}]].\n\n## Notes é字\n\nKept ${i} days.\n`
})

const typescript = (i: number): AnalysisRequest => ({
  path: `src/m${i}.ts`,
  text: i % 11 === 0
    ? `export const broken${i} = (\n` // does not parse: the analyzer says so in its notes
    : `import { helper } from "./helper.ts"\nimport type { Shape } from "../types.ts"\n\nexport const double${i} = (n: number): Shape => helper(n * 2)\nexport default class Box${i} {}\n`
})

/** A file of a language read with tree-sitter, each request naming its own analyzer. */
const mixed = (i: number): AnalysisRequest =>
  i % 3 === 0
    ? { path: `py/m${i}.py`, analyzer: "python", text: `import os\nfrom .util import helper\n\n\ndef reconcile_${i}(total):\n    """Sums ${i}."""\n    return helper(total) + ${i}\n\n\nclass Ledger${i}:\n    def post(self):\n        return os.sep\n` }
    : i % 3 === 1
    ? { path: `go/m${i}.go`, analyzer: "go", text: `package ledger\n\nimport "fmt"\n\n// Post${i} prints.\nfunc Post${i}() { fmt.Println(${i}) }\n\ntype entry${i} struct{ n int }\n` }
    : { path: `py/broken${i}.py`, analyzer: "python", text: `def broken_${i}(:\n    pass\n` }

const batch = (make: (i: number) => AnalysisRequest, size: number): ReadonlyArray<AnalysisRequest> => Array.from({ length: size }, (_, i) => make(i))

/** Sizes from none to a batch worth sharing with other threads. */
const SIZES = [0, 1, 9, 240]

/** What the registry's analyzer (the request's own, else `id`) says of each file on its own: the oracle. */
const alone = (id: string, requests: ReadonlyArray<AnalysisRequest>) =>
  requests.map((request) => runAnalyzer(standard.analyzers.find((candidate) => candidate.id === (request.analyzer ?? id))!, request.path, request.text))

export const contract = <E>(name: string, layer: Layer.Layer<never, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F>) => Effect.provide(body, layer)

  describe(`AnalyzerPool contract (${name})`, () => {
    it.effect("analyzeAll - every request gets the registry analyzer's analysis of that file alone, in request order", () =>
      run(Effect.gen(function*() {
        const pool = yield* AnalyzerPool
        for (const [id, make] of [["markdown", markdown], ["typescript", typescript]] as const) {
          for (const size of SIZES) {
            const requests = batch(make, size)
            const analyses = yield* pool.analyzeAll(id, requests)
            assert.strictEqual(analyses.length, size)
            assert.deepStrictEqual(analyses, alone(id, requests), `${id}, a batch of ${size}`)
          }
        }
        // The oracle tells files apart, so an answer given to the wrong request would show.
        const [first, second] = alone("markdown", batch(markdown, 2))
        assert.notDeepEqual(first, second)
      })), 120_000)

    it.effect("analyzeAll - a batch mixing languages read with tree-sitter gets each file's own analyzer, its grammar loaded first", () =>
      run(Effect.gen(function*() {
        const pool = yield* AnalyzerPool
        for (const size of [9, 240]) {
          const requests = batch(mixed, size)
          const analyses = yield* pool.analyzeAll("markdown", requests)
          yield* Effect.promise(() => readyAll(analyzersOf("markdown", requests)))
          assert.deepStrictEqual(analyses, alone("markdown", requests), `a batch of ${size}`)
        }
        // Loaded, each grammar gives facts: a pool that skipped loading would answer `failed` notes.
        const [python, go] = yield* pool.analyzeAll("markdown", batch(mixed, 2))
        assert.deepStrictEqual(python!.facts?._tag === "module" ? python!.facts.declarations.map((d) => d.name) : [], ["reconcile_0", "Ledger0"])
        assert.deepStrictEqual(go!.facts?._tag === "module" ? go!.facts.declarations.map((d) => d.name) : [], ["Post1", "entry1"])
      })), 120_000)

    it.effect("session - batch after batch, the answers are analyzeAll's", () =>
      run(Effect.scoped(Effect.gen(function*() {
        const pool = yield* AnalyzerPool
        const session = yield* pool.session
        for (const size of [240, 9, 240]) {
          const requests = batch(mixed, size)
          assert.deepStrictEqual(yield* session.analyzeAll("markdown", requests), yield* pool.analyzeAll("markdown", requests), `a batch of ${size}`)
        }
      }))), 120_000)

    it.effect("analyzeAll - the answers follow the requests: a batch reversed gives the analyses reversed", () =>
      run(Effect.gen(function*() {
        const pool = yield* AnalyzerPool
        const requests = batch(markdown, 240)
        const forward = yield* pool.analyzeAll("markdown", requests)
        const backward = yield* pool.analyzeAll("markdown", [...requests].reverse())
        assert.deepStrictEqual(backward, [...forward].reverse())
      })), 120_000)

    it.effect("analyzeAll - with other work first (`after`), the answers are the same once it is done", () =>
      run(Effect.gen(function*() {
        const pool = yield* AnalyzerPool
        for (const size of [9, 240]) {
          const requests = batch(markdown, size)
          const done = yield* Deferred.make<void>()
          const fiber = yield* Effect.forkChild(pool.analyzeAll("markdown", requests, { after: Deferred.await(done) }))
          yield* Effect.yieldNow
          yield* Deferred.succeed(done, undefined)
          assert.deepStrictEqual(yield* Fiber.join(fiber), alone("markdown", requests), `a batch of ${size}`)
        }
      })), 120_000)
  })
}
