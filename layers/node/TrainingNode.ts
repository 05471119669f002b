/**
 * Node backend of `Training`: a large corpus is trained on a worker thread from the moment its
 * texts are known, so the index writes its chunks meanwhile, and embedding is split between that
 * worker and the calling thread, which stores the head's vectors while the worker embeds the tail.
 * The calling thread analyses its share of the texts to embed while the model trains. A small
 * corpus stays in process, since starting a worker costs more than it saves. A worker that
 * fails or exits is done without: its work is done on the calling thread. The worker lives as long
 * as the run's scope.
 */
import { Effect, Layer, Stream } from "effect"
import { Worker } from "node:worker_threads"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"
import { inProcess, Training, type TrainingRun, type TrainingShape } from "../../src/ports/Training.ts"
import type { TrainingMessage } from "./trainingWorker.ts"
import { workerEntry, workerUnavailable } from "./WorkerEntry.ts"
import { WORKER_RESOURCE_LIMITS } from "./WorkerHeap.ts"

/** Below this many training texts the model is trained in process. */
export const MIN_OFF_THREAD_TEXTS = 2_000

/**
 * The head of a batch this thread embeds itself. It also stores every vector, but it analysed the
 * head's texts while the model trained, so all that is left of its share is the projection.
 */
const LOCAL_SHARE = 0.5

/** The worker's share is embedded and handed back in this many pieces, at most PIECES_AHEAD of them sent and not yet back. */
const WORKER_PIECES = 8
const PIECES_AHEAD = 2

/**
 * One worker and whether it is still there. `ask` posts a message and resolves with the worker's
 * answer, or with undefined when it has failed or exited (before or while asked): a caller then
 * does the work itself, and nothing is ever left waiting or rejected unhandled. The worker answers
 * its messages in the order they were posted, so several may be asked at once.
 */
const helper = (worker: Worker) => {
  let gone = false
  const waiting: Array<(answer: unknown) => void> = []
  const lost = () => {
    gone = true
    for (const resolve of waiting.splice(0)) resolve(undefined)
  }
  worker.on("error", (error) => {
    workerUnavailable("training", `cairn: the training worker failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`)
    lost()
  })
  worker.on("exit", lost)
  // An answer that cannot be read would hand every later answer to the wrong question.
  worker.on("messageerror", () => {
    lost()
    void worker.terminate()
  })
  worker.on("message", (answer: unknown) => waiting.shift()?.(answer))
  return <A>(message: TrainingMessage): Promise<A | undefined> => {
    if (gone) return Promise.resolve(undefined)
    return new Promise<A | undefined>((resolve) => {
      // Queued only once posted: a message that cannot be sent must not take another's answer.
      worker.postMessage(message)
      waiting.push(resolve as (answer: unknown) => void)
    })
  }
}

/** Texts analysed between yields while the model trains (so an interrupt is not kept waiting), and embedded per sink. */
const ANALYSIS_STEP = 2_000

/**
 * Most texts analysed ahead while the model trains: their term ids are held until it is trained,
 * about 0.5 KB a chunk, so 100,000 of them are some 50 MB.
 */
export const MAX_AHEAD = 100_000

const EMPTY = new Int32Array(0)

const start: TrainingShape["start"] = (texts) => {
  if (texts.length < MIN_OFF_THREAD_TEXTS) return inProcess.start(texts)
  const entry = workerEntry("training", import.meta.url)
  if (entry === undefined) return inProcess.start(texts)
  return Effect.gen(function*() {
    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => new Worker(entry, { resourceLimits: WORKER_RESOURCE_LIMITS })),
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
    let encoder: Lsa.LsaEncoder | undefined
    // Set once the worker has answered, so pages are analysed ahead only while it trains.
    let trainedYet = false
    void trained.then(() => {
      trainedYet = true
    })
    /** A batch embedded with the trained model: this thread takes the head, the worker the tail. */
    const embedBatch = Effect.fn("TrainingNode.embedBatch")(function*<E>(
      batch: ReadonlyArray<string>,
      sink: (vectors: ReadonlyArray<Float32Array>) => Effect.Effect<void, E>
    ): Effect.fn.Return<void, E> {
      const split = Math.ceil(batch.length * LOCAL_SHARE)
      // The worker gets the tail in pieces, the first ones now, and this thread stores each
      // piece while the worker embeds the next. A piece is sent only as an earlier one comes
      // back, so the worker never holds more than PIECES_AHEAD pieces' texts.
      const pieceSize = Math.ceil((batch.length - split) / WORKER_PIECES)
      const pieces: Array<ReadonlyArray<string>> = []
      for (let start = split; start < batch.length; start += pieceSize) pieces.push(batch.slice(start, start + pieceSize))
      const answers = pieces.slice(0, PIECES_AHEAD).map((texts) => ask<{ vectors: Float32Array }>({ embed: texts }))
      encoder ??= Lsa.encoder(yield* model)
      const local = encoder
      for (let start = 0; start < split; start += ANALYSIS_STEP) {
        yield* sink(batch.slice(start, Math.min(split, start + ANALYSIS_STEP)).map((text) => Float32Array.from(local.embedOne(text))))
      }
      for (let index = 0; index < pieces.length; index++) {
        const answer = yield* Effect.promise(() => answers[index]!)
        // Each piece's vectors are let go once stored.
        answers[index] = Promise.resolve(undefined)
        const ahead = pieces[index + PIECES_AHEAD]
        if (ahead !== undefined) answers.push(ask<{ vectors: Float32Array }>({ embed: ahead }))
        const texts = pieces[index]!
        yield* sink(
          answer?.vectors?.length === texts.length * local.dimension
            ? Array.from({ length: texts.length }, (_, i) => answer.vectors.subarray(i * local.dimension, (i + 1) * local.dimension))
            : texts.map((text) => Float32Array.from(local.embedOne(text)))
        )
      }
    })
    const run: TrainingRun = {
      model,
      embedInto: (pages, sink) =>
        Effect.gen(function*() {
          // While the model trains, this thread analyses the first pages (analysis needs no model),
          // up to MAX_AHEAD texts, their terms kept as ids into a dictionary of this run, half the
          // memory of arrays of strings; once trained, they are projected and handed over first.
          const dictionary = new Map<string, number>()
          let analysed: Array<Int32Array> = []
          let flushed = false
          const flush = Effect.gen(function*() {
            flushed = true
            if (analysed.length === 0) return
            encoder ??= Lsa.encoder(yield* model)
            const local = encoder
            const rows = Int32Array.from(dictionary.keys(), local.rowOf)
            dictionary.clear()
            const held = analysed
            analysed = []
            // Embedded and stored a step at a time, each step's terms let go as it is stored.
            for (let start = 0; start < held.length; start += ANALYSIS_STEP) {
              const step = held.slice(start, start + ANALYSIS_STEP)
              held.fill(EMPTY, start, start + ANALYSIS_STEP)
              yield* sink(step.map((ids) => {
                for (let i = 0; i < ids.length; i++) ids[i] = rows[ids[i]!]!
                return Float32Array.from(local.embedRows(ids))
              }))
            }
          })
          yield* Stream.runForEach(pages, (page) =>
            Effect.gen(function*() {
              if (!flushed && !trainedYet && analysed.length + page.length <= MAX_AHEAD) {
                for (let start = 0; start < page.length; start += ANALYSIS_STEP) {
                  for (const text of page.slice(start, start + ANALYSIS_STEP)) {
                    const terms = Lsa.analyse(text)
                    const ids = new Int32Array(terms.length)
                    terms.forEach((term, i) => {
                      let id = dictionary.get(term)
                      if (id === undefined) dictionary.set(term, id = dictionary.size)
                      ids[i] = id
                    })
                    analysed.push(ids)
                  }
                  // Lets a Ctrl-C in, and the worker's answer: analysis ahead ends once it comes.
                  yield* Effect.yieldNow
                }
                return
              }
              if (!flushed) yield* flush
              yield* embedBatch(page, sink)
            }))
          if (!flushed) yield* flush
        })
    }
    return run
  })
}

export const layer: Layer.Layer<never> = Layer.succeed(Training, { start })
