import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Worker } from "node:worker_threads"
import { inProcess, Training, type TrainingShape } from "../../src/ports/Training.ts"
import { contract } from "../contracts/Training.contract.ts"
import { layer, MIN_OFF_THREAD_TEXTS } from "./TrainingNode.ts"

// Every backend's behaviour, a large corpus trained on a worker thread.
contract("node", layer)

const WORDS = ["cache", "retry", "queue", "deploy", "rollback", "lease", "token", "budget", "schema", "owner", "incident", "span"]
const texts = Array.from({ length: MIN_OFF_THREAD_TEXTS + 150 }, (_, i) =>
  Array.from({ length: 12 + (i % 17) }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]).join(" ") + ` note${i % 300}`)

describe("TrainingNode", () => {
  it.effect("start - trained on another thread, the model and every vector equal those trained in process, bit for bit", () =>
    Effect.gen(function*() {
      const trainAndEmbed = (training: TrainingShape) =>
        Effect.scoped(Effect.gen(function*() {
          const run = yield* training.start(texts)
          // Asked once trained, so the batch is shared with the worker rather than analysed ahead.
          yield* run.model
          const runs: Array<ReadonlyArray<Float32Array>> = []
          yield* run.embedInto(Stream.make(texts.slice(0, 501)), (vectors) => Effect.sync(() => void runs.push(vectors)))
          return { model: yield* run.model, runs }
        }))
      const off = yield* Effect.gen(function*() {
        return yield* trainAndEmbed(yield* Training)
      }).pipe(Effect.provide(layer))
      const local = yield* trainAndEmbed(inProcess)
      assert.deepStrictEqual(off.model, local.model)
      // The head comes first, from this thread, while the worker embeds the tail.
      assert.isAbove(off.runs.length, 1)
      const flat = (runs: ReadonlyArray<ReadonlyArray<Float32Array>>) => runs.flat().map((vector) => Array.from(vector))
      assert.strictEqual(flat(off.runs).length, 501)
      assert.deepStrictEqual(flat(off.runs), flat(local.runs))
    }), 120_000)

  it.live("start - a worker that fails is done without: the model trains and every text embeds on this thread", () =>
    Effect.gen(function*() {
      // The worker is handed a corpus it cannot read, and dies on it.
      const post = Worker.prototype.postMessage
      Worker.prototype.postMessage = function(this: Worker, message: object, ...rest: Array<never>) {
        return post.call(this, "train" in message ? { train: null } : message, ...rest)
      } as typeof post
      const off = yield* Effect.scoped(Effect.gen(function*() {
        const run = yield* (yield* Training).start(texts)
        yield* Effect.sleep("200 millis")
        const runs: Array<ReadonlyArray<Float32Array>> = []
        yield* run.embedInto(Stream.make(texts.slice(0, 301)), (vectors) => Effect.sync(() => void runs.push(vectors)))
        return { model: yield* run.model, vectors: runs.flat().map((vector) => Array.from(vector)) }
      })).pipe(
        Effect.provide(layer),
        Effect.ensuring(Effect.sync(() => {
          Worker.prototype.postMessage = post
        }))
      )
      const local = yield* Effect.scoped(Effect.gen(function*() {
        const run = yield* inProcess.start(texts)
        const runs: Array<ReadonlyArray<Float32Array>> = []
        yield* run.embedInto(Stream.make(texts.slice(0, 301)), (vectors) => Effect.sync(() => void runs.push(vectors)))
        return { model: yield* run.model, vectors: runs.flat().map((vector) => Array.from(vector)) }
      }))
      assert.deepStrictEqual(off, local)
    }), 120_000)
})
