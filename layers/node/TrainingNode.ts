/**
 * Node backend of `Training`: a large corpus is trained on a worker thread from the moment its
 * texts are known, so the index writes its chunks meanwhile, and embedding is split between that
 * worker and the calling thread, which stores the head's vectors while the worker embeds the tail. A small corpus stays in process, since starting a worker costs
 * more than it saves. The worker lives as long as the run's scope.
 */
import { Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { inProcess, Training, type TrainingRun, type TrainingShape } from "../../src/index/Training.ts"
import type { TrainingMessage } from "./trainingWorker.ts"

/** Below this many training texts the model is trained in process. */
export const MIN_OFF_THREAD_TEXTS = 2_000

/**
 * The head of a batch this thread embeds itself: less than half, because it also stores the
 * head's vectors while the worker is still embedding the tail.
 */
const LOCAL_SHARE = 0.4

/** The worker's next message, or its failure. */
const reply = <A>(worker: Worker): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const fail = (error: unknown) => {
      worker.off("message", done)
      reject(error)
    }
    const done = (message: A) => {
      worker.off("error", fail)
      resolve(message)
    }
    worker.once("message", done)
    worker.once("error", fail)
  })

const start: TrainingShape["start"] = (texts) => {
  if (texts.length < MIN_OFF_THREAD_TEXTS) return inProcess.start(texts)
  return Effect.gen(function*() {
    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => new Worker(new URL("./trainingWorker.ts", import.meta.url))),
      (worker) => Effect.promise(() => worker.terminate())
    )
    const trained = reply<{ model: Lsa.LsaModel }>(worker)
    worker.postMessage({ train: texts } satisfies TrainingMessage)
    // Should the worker die, the model is trained here instead: the run answers either way.
    const model = yield* Effect.cached(
      Effect.tryPromise(() => trained).pipe(
        Effect.map((message) => message.model),
        Effect.catch(() => Effect.sync(() => Lsa.train(texts)))
      )
    )
    let encoder: TextEncoderModel | undefined
    const run: TrainingRun = {
      model,
      embedInto: (batch, sink) =>
        Effect.gen(function*() {
          encoder ??= Lsa.encoder(yield* model)
          const local = encoder
          // The worker embeds the tail while this thread embeds the head and stores it.
          const split = Math.ceil(batch.length * LOCAL_SHARE)
          const theirs = reply<{ vectors: Float32Array }>(worker)
          worker.postMessage({ embed: batch.slice(split) } satisfies TrainingMessage)
          const embed = (text: string) => Float32Array.from(local.embedOne(text))
          yield* sink(batch.slice(0, split).map(embed))
          const packed = yield* Effect.tryPromise(() => theirs).pipe(Effect.map((message) => message.vectors), Effect.option)
          yield* sink(
            packed._tag === "Some"
              ? Array.from({ length: batch.length - split }, (_, i) => packed.value.subarray(i * local.dimension, (i + 1) * local.dimension))
              : batch.slice(split).map(embed)
          )
        })
    }
    return run
  })
}

export const layer: Layer.Layer<never> = Layer.succeed(Training, { start })
