import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { inProcess, Training } from "../../src/index/Training.ts"
import { layer, MIN_OFF_THREAD_TEXTS } from "./TrainingNode.ts"

const WORDS = ["cache", "retry", "queue", "deploy", "rollback", "lease", "token", "budget", "schema", "owner", "incident", "span"]
const texts = Array.from({ length: MIN_OFF_THREAD_TEXTS + 150 }, (_, i) =>
  Array.from({ length: 12 + (i % 17) }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]).join(" ") + ` note${i % 300}`)

describe("TrainingNode", () => {
  it.effect("start - trained on another thread, the model and every vector equal those trained in process, bit for bit", () =>
    Effect.gen(function*() {
      const off = yield* Effect.scoped(Effect.gen(function*() {
        const run = yield* (yield* Training).start(texts)
        return { model: yield* run.model, vectors: yield* run.embedAll(texts.slice(0, 501)) }
      })).pipe(Effect.provide(layer))
      const local = yield* Effect.scoped(Effect.gen(function*() {
        const run = yield* inProcess.start(texts)
        return { model: yield* run.model, vectors: yield* run.embedAll(texts.slice(0, 501)) }
      }))
      assert.deepStrictEqual(off.model, local.model)
      assert.strictEqual(off.vectors.length, 501)
      assert.deepStrictEqual(off.vectors.map((v) => Array.from(v)), local.vectors.map((v) => Array.from(v)))
    }), 120_000)
})
