/**
 * Node backend of `Training`: a large corpus is trained on a worker thread from the moment its
 * texts are known, so the index writes its chunks meanwhile, and embedding is split between that
 * worker and the calling thread, which stores the head's vectors while the worker embeds the tail.
 * A small corpus stays in process, since starting a worker costs more than it saves. A worker that
 * fails or exits is done without: its work is done on the calling thread. The worker lives as long
 * as the run's scope.
 */
import { Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { inProcess, Training, type TrainingRun, type TrainingShape } from "../../src/index/Training.ts"
import type { TrainingMessage } from "./trainingWorker.ts"
import { WORKER_RESOURCE_LIMITS } from "./WorkerHeap.ts"

/** Below this many training texts the model is trained in process. */
export const MIN_OFF_THREAD_TEXTS = 2_000

/**
 * The head of a batch this thread embeds itself: less than half, because it also stores the
 * head's vectors while the worker is still embedding the tail.
 */
const LOCAL_SHARE = 0.4

/**
 * One worker and whether it is still there. `ask` posts a message and resolves with the worker's
 * answer, or with undefined when it has failed or exited (before or while asked): a caller then
 * does the work itself, and nothing is ever left waiting or rejected unhandled.
 */
const helper = (worker: Worker) => {
  let gone = false
  const waiting = new Set<(answer: undefined) => void>()
  const lost = () => {
    gone = true
    for (const resolve of waiting) resolve(undefined)
    waiting.clear()
  }
  worker.on("error", lost)
  worker.on("exit", lost)
  return <A>(message: TrainingMessage): Promise<A | undefined> => {
    if (gone) return Promise.resolve(undefined)
    return new Promise<A | undefined>((resolve) => {
      waiting.add(resolve)
      worker.once("message", (answer: A) => {
        waiting.delete(resolve)
        resolve(answer)
      })
      worker.postMessage(message)
    })
  }
}

const start: TrainingShape["start"] = (texts) => {
  if (texts.length < MIN_OFF_THREAD_TEXTS) return inProcess.start(texts)
  return Effect.gen(function*() {
    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => new Worker(new URL("./trainingWorker.ts", import.meta.url), { resourceLimits: WORKER_RESOURCE_LIMITS })),
      (worker) => Effect.promise(() => worker.terminate())
    )
    const ask = helper(worker)
    const trained = ask<{ model: Lsa.LsaModel }>({ train: texts })
    // Should the worker be gone, the model is trained here instead: the run answers either way.
    const model = yield* Effect.cached(
      Effect.promise(() => trained).pipe(
        Effect.flatMap((answer) => answer === undefined ? Effect.sync(() => Lsa.train(texts)) : Effect.succeed(answer.model))
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
          const theirs = ask<{ vectors: Float32Array }>({ embed: batch.slice(split) })
          const embed = (text: string) => Float32Array.from(local.embedOne(text))
          yield* sink(batch.slice(0, split).map(embed))
          const answer = yield* Effect.promise(() => theirs)
          yield* sink(
            answer !== undefined
              ? Array.from({ length: batch.length - split }, (_, i) => answer.vectors.subarray(i * local.dimension, (i + 1) * local.dimension))
              : batch.slice(split).map(embed)
          )
        })
    }
    return run
  })
}

export const layer: Layer.Layer<never> = Layer.succeed(Training, { start })
