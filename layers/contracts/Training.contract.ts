/**
 * Behaviour every Training backend must show, run against each backend by its own test file: the
 * model is what `Lsa.train` makes of the texts and every vector what its encoder's `embedOne`
 * gives, rounded to float32, bit for bit, however the backend spreads the work. A backend is given
 * as a layer that provides it. Corpora are a few dozen texts and a few thousand, so a backend that
 * trains small and large ones apart is held to both.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import type { Layer } from "effect"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { Training, type TrainingRun } from "../../src/ports/Training.ts"

const WORDS = ["cache", "retry", "queue", "deploy", "rollback", "lease", "token", "budget", "schema", "owner", "incident", "span"]

const corpus = (size: number): ReadonlyArray<string> =>
  Array.from({ length: size }, (_, i) => Array.from({ length: 12 + (i % 17) }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]).join(" ") + ` note${i % 300}`)

const SMALL = corpus(60)
const LARGE = corpus(2_150)

/** Texts to embed: some trained on, some with words never seen, an empty one and a long one. */
const toEmbed = (texts: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...texts.slice(0, 301),
  "",
  "zebra quokka",
  "cache ".repeat(5_000),
  ...texts.slice(-40)
]

/** `texts` in pages of `size`. */
const paged = (texts: ReadonlyArray<string>, size: number) =>
  Stream.fromIterable(Array.from({ length: Math.ceil(texts.length / size) }, (_, i) => texts.slice(i * size, (i + 1) * size)))

/** Every run `embedInto` hands `sink`, as plain arrays, the texts given as one page or in pages of `size`. */
const embedded = (run: TrainingRun, texts: ReadonlyArray<string>, size?: number) =>
  Effect.gen(function*() {
    const runs: Array<ReadonlyArray<ReadonlyArray<number>>> = []
    const pages = size === undefined ? Stream.make(texts) : paged(texts, size)
    yield* run.embedInto(pages, (vectors) => Effect.sync(() => void runs.push(vectors.map((vector) => Array.from(vector)))))
    return runs
  })

/** What the encoder of `model` gives each text, rounded to float32 as the index stores it: the oracle. */
const oracle = (model: Lsa.LsaModel, texts: ReadonlyArray<string>): Array<Array<number>> => {
  const encoder = Lsa.encoder(model)
  return texts.map((text) => Array.from(Float32Array.from(encoder.embedOne(text))))
}

export const contract = <E>(name: string, layer: Layer.Layer<never, E>) => {
  const run = <A, F>(body: Effect.Effect<A, F>) => Effect.provide(body, layer)

  describe(`Training contract (${name})`, () => {
    it.effect("start - the model is Lsa.train's of the same texts, byte for byte, every time", () =>
      run(Effect.gen(function*() {
        const training = yield* Training
        for (const texts of [SMALL, LARGE]) {
          const trained = (input: ReadonlyArray<string>) => Effect.scoped(Effect.flatMap(training.start(input), (started) => started.model))
          const first = Lsa.encodeModel(yield* trained(texts))
          assert.strictEqual(first, Lsa.encodeModel(Lsa.train(texts)), `${texts.length} texts`)
          assert.strictEqual(Lsa.encodeModel(yield* trained(texts)), first)
          // Other texts, another model: the backend trains on what it is given.
          assert.notStrictEqual(Lsa.encodeModel(yield* trained(texts.slice(0, -7))), first)
        }
      })), 120_000)

    it.effect("embedInto - every vector is handed over once, in order, in consecutive runs, as the model's encoder gives it", () =>
      run(Effect.gen(function*() {
        const training = yield* Training
        for (const texts of [SMALL, LARGE]) {
          yield* Effect.scoped(Effect.gen(function*() {
            const started = yield* training.start(texts)
            const model = yield* started.model
            const batch = toEmbed(texts)
            const runs = yield* embedded(started, batch)
            assert.isTrue(runs.every((vectors) => vectors.length > 0), "no empty run")
            assert.deepStrictEqual(runs.flat(), oracle(model, batch), `${texts.length} texts`)
            // Asked again on the same run, and for nothing at all.
            assert.deepStrictEqual((yield* embedded(started, batch.slice(0, 3))).flat(), oracle(model, batch.slice(0, 3)))
            assert.deepStrictEqual((yield* embedded(started, [])).flat(), [])
          }))
        }
      })), 120_000)

    it.effect("embedInto - asked before the model is, it hands over the trained model's vectors", () =>
      run(Effect.gen(function*() {
        const training = yield* Training
        for (const texts of [SMALL, LARGE]) {
          yield* Effect.scoped(Effect.gen(function*() {
            const started = yield* training.start(texts)
            const batch = toEmbed(texts)
            const runs = yield* embedded(started, batch)
            assert.deepStrictEqual(runs.flat(), oracle(Lsa.train(texts), batch), `${texts.length} texts`)
            assert.deepStrictEqual(Lsa.encodeModel(yield* started.model), Lsa.encodeModel(Lsa.train(texts)))
          }))
        }
      })), 120_000)

    it.effect("embedInto - texts in pages, asked before the model or after, give the vectors of one page, in order", () =>
      run(Effect.gen(function*() {
        const training = yield* Training
        for (const texts of [SMALL, LARGE]) {
          const batch = toEmbed(texts)
          const expected = oracle(Lsa.train(texts), batch)
          for (const size of [1, 7, 100, batch.length]) {
            const early = yield* Effect.scoped(Effect.flatMap(training.start(texts), (started) => embedded(started, batch, size)))
            assert.deepStrictEqual(early.flat(), expected, `${texts.length} texts, pages of ${size}, asked at once`)
            const late = yield* Effect.scoped(Effect.gen(function*() {
              const started = yield* training.start(texts)
              yield* started.model
              return yield* embedded(started, batch, size)
            }))
            assert.deepStrictEqual(late.flat(), expected, `${texts.length} texts, pages of ${size}, asked once trained`)
          }
          // A failing page fails the call, with nothing handed over after what came before it.
          const handed: Array<number> = []
          const failing = Stream.concat(paged(batch.slice(0, 20), 10), Stream.fail("the disk is gone" as const))
          const failure = yield* Effect.scoped(Effect.flatMap(training.start(texts), (started) =>
            Effect.flip(started.embedInto(failing, (vectors) => Effect.sync(() => void handed.push(vectors.length))))))
          assert.strictEqual(failure, "the disk is gone")
          assert.isAtMost(handed.reduce((a, b) => a + b, 0), 20)
        }
      })), 240_000)

    it.effect("embedInto - a sink that fails stops it with that failure: no run is handed over after it", () =>
      run(Effect.gen(function*() {
        const training = yield* Training
        for (const texts of [SMALL, LARGE]) {
          yield* Effect.scoped(Effect.gen(function*() {
            const started = yield* training.start(texts)
            let calls = 0
            const failure = yield* Effect.flip(started.embedInto(Stream.make(toEmbed(texts)), () => {
              calls++
              return Effect.fail("the store is full" as const)
            }))
            assert.strictEqual(failure, "the store is full")
            assert.strictEqual(calls, 1, `${texts.length} texts`)
            // The run still answers.
            assert.deepStrictEqual((yield* embedded(started, texts.slice(0, 5))).flat(), oracle(yield* started.model, texts.slice(0, 5)))
          }))
        }
      })), 120_000)
  })
}
