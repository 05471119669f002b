/**
 * Behaviour every ChunkerPool backend must show, run against each backend by its own test file: a
 * batch gives the chunks `chunkFile` gives each file chunked alone, in request order, however the
 * backend spreads the batch. A backend is given as a layer providing the pool with the
 * `TokenCounter` it is used with (a pool may share only some counters' batches with other threads).
 * Batches run from empty to a few hundred files, so a backend that treats small and large ones
 * apart is held to both.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import * as Digest from "effect/crypto/Digest"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { chunkFile, type ChunkFileInput } from "../../src/index/chunk/ChunkFile.ts"
import type { ChunkingConfig } from "../../src/index/chunk/ChunkingConfig.ts"
import { ChunkerPool } from "../../src/ports/ChunkerPool.ts"
import { TokenCounter, type TokenCounterShape } from "../../src/ports/TokenCounter.ts"

const section = (i: number) => `## Part ${i}\n\n${"The cache keeps entries for a day before the sweeper runs. ".repeat(1 + (i % 12))}\n`

/** Markdown with frontmatter and sections, TypeScript with a blame, and a file of neither kind. */
const request = (i: number): ChunkFileInput =>
  i % 3 === 0
    ? { path: `docs/page-${i}.md`, text: `---\ntype: runbook\n---\n# Page ${i}\n\n${Array.from({ length: 1 + (i % 5) }, (_, j) => section(i + j)).join("\n")}` }
    : i % 3 === 1
    ? {
      path: `src/m${i}.ts`,
      text: `import { x } from "./x.ts"\n\n/** Doubles. */\nexport const double${i} = (n: number) => n * 2\n\nexport class Box${i} {\n  value = ${i}\n}\n`,
      history: Array.from({ length: 9 }, (_, line) => ({ line: line + 1, authorTime: 1_700_000_000 + i * 60 + line, author: "Ada", authorMail: "ada@example.org" }))
    }
    : { path: `config/settings-${i}.txt`, text: Array.from({ length: 3 + (i % 50) }, (_, line) => `key${line} = ${i * line}`).join("\n") }

const batch = (size: number): ReadonlyArray<ChunkFileInput> => Array.from({ length: size }, (_, i) => request(i))

/** Sizes from none to a batch worth sharing with other threads. */
const SIZES = [0, 1, 7, 40, 260]

/** Counts words: a counter no backend knows, standing for any the caller may bring. */
const words: TokenCounterShape = { id: "contract/words", exact: false, count: (text) => text.split(/\s+/).filter((word) => word !== "").length }

/** What chunking every file on its own gives: the oracle. */
const alone = (requests: ReadonlyArray<ChunkFileInput>, counter: TokenCounterShape, chunking?: ChunkingConfig) =>
  Effect.forEach(requests, (input) => chunkFile(input, { ...chunking, count: counter.count, alone: true }))

const chunkAll = (requests: ReadonlyArray<ChunkFileInput>, counter: TokenCounterShape, chunking?: ChunkingConfig, onProgress?: (done: number) => void) =>
  Effect.flatMap(ChunkerPool, (pool) => pool.chunkAll(requests, counter, onProgress, chunking))

const ids = (files: ReadonlyArray<ReadonlyArray<Chunk>>) => files.map((chunks) => chunks.map((chunk) => chunk.id))

export const contract = <E>(name: string, layer: Layer.Layer<TokenCounter, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F, TokenCounter | Digest.Digest>) => body.pipe(Effect.provide(layer), Effect.provide(Digest.layerWebCrypto))

  describe(`ChunkerPool contract (${name})`, () => {
    it.effect("chunkAll - every file's chunks are chunkFile's on that file alone, in request order, for batches of any size", () =>
      run(Effect.gen(function*() {
        const counter = yield* TokenCounter
        for (const size of SIZES) {
          const requests = batch(size)
          const pooled = yield* chunkAll(requests, counter)
          assert.strictEqual(pooled.length, size)
          assert.deepStrictEqual(pooled, yield* alone(requests, counter), `a batch of ${size}`)
          assert.isTrue(pooled.every((chunks, i) => chunks.length > 0 && chunks.every((chunk) => chunk.path === requests[i]!.path)))
        }
      })), 120_000)

    it.effect("session - batch after batch in one scope, every file's chunks are chunkFile's on that file alone", () =>
      run(Effect.gen(function*() {
        const counter = yield* TokenCounter
        const pool = yield* ChunkerPool
        yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* pool.session
          for (const size of [260, 7, 0, 260]) {
            const requests = batch(size).map((input) => ({ ...input, path: `s${size}/${input.path}` }))
            assert.deepStrictEqual(yield* session.chunkAll(requests, counter), yield* alone(requests, counter), `a batch of ${size}`)
          }
        }))
      })), 120_000)

    it.effect("chunkAll - the answers follow the requests: a batch reversed gives the chunks reversed", () =>
      run(Effect.gen(function*() {
        const counter = yield* TokenCounter
        const requests = batch(260)
        const forward = yield* chunkAll(requests, counter)
        const backward = yield* chunkAll([...requests].reverse(), counter)
        assert.deepStrictEqual(ids(backward), ids([...forward].reverse()))
        assert.deepStrictEqual(backward, [...forward].reverse())
      })), 120_000)

    it.effect("chunkAll - the caller's settings reach every file, as chunkFile takes them", () =>
      run(Effect.gen(function*() {
        const counter = yield* TokenCounter
        const settings: ChunkingConfig = { targetTokens: 64, agentPatterns: ["ada@"] }
        for (const size of [7, 260]) {
          const requests = batch(size)
          const pooled = yield* chunkAll(requests, counter, settings)
          assert.deepStrictEqual(pooled, yield* alone(requests, counter, settings), `a batch of ${size}`)
          // Every code file's author is Ada, whom the settings name an agent; by default she is not.
          const code = (files: ReadonlyArray<ReadonlyArray<Chunk>>) => files.flat().filter((chunk) => chunk.path.endsWith(".ts"))
          assert.isTrue(code(pooled).every((chunk) => chunk.provenance.authorKind === "agent"))
          assert.isTrue(code(yield* chunkAll(requests, counter)).every((chunk) => chunk.provenance.authorKind === "human"))
        }
      })), 120_000)

    it.effect("chunkAll - a batch is counted by the caller's counter, whichever it is", () =>
      run(Effect.gen(function*() {
        for (const size of [7, 260]) {
          const requests = batch(size)
          const counted = yield* chunkAll(requests, words, { targetTokens: 40 })
          assert.deepStrictEqual(counted, yield* alone(requests, words, { targetTokens: 40 }), `a batch of ${size}`)
          assert.notDeepEqual(ids(counted), ids(yield* chunkAll(requests, yield* TokenCounter, { targetTokens: 40 })))
        }
      })), 120_000)

    it.effect("chunkAll - progress rises to the whole batch and never past it; an empty batch reports nothing", () =>
      run(Effect.gen(function*() {
        const counter = yield* TokenCounter
        for (const size of SIZES) {
          const heard: Array<number> = []
          yield* chunkAll(batch(size), counter, undefined, (done) => heard.push(done))
          assert.deepStrictEqual(heard, [...heard].sort((a, b) => a - b), `a batch of ${size}`)
          assert.isTrue(heard.every((done) => done > 0 && done <= size))
          assert.strictEqual(heard.at(-1), size === 0 ? undefined : size)
        }
      })), 120_000)
  })
}
