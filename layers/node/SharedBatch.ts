/**
 * A batch of groups shared between the calling thread and worker threads. Groups are claimed from
 * one shared atomic counter: a worker never waits for the main thread to hand out work, and the
 * main thread claims groups itself between its other turns, so no thread idles while groups remain.
 * A worker that fails or exits leaves its claimed groups to the main thread, so the batch is
 * answered either way, in group order. One core stays with the main thread; workers live for one
 * batch, or as long as a scope that keeps them (`keptWorkers`). A worker receives `SharedGroups`
 * and answers `GroupAnswer`s, then `{ id: -1 }`. Without an entry to start (see `WorkerEntry`),
 * this thread answers every group.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import * as NodeOs from "node:os"
import { Worker } from "node:worker_threads"
import { type WorkerName, workerUnavailable } from "./WorkerEntry.ts"
import { WORKER_RESOURCE_LIMITS } from "./WorkerHeap.ts"

/** What each worker is sent: the groups, the counter to claim them from, and its own settings. */
export interface SharedGroups<A, C> {
  readonly groups: ReadonlyArray<ReadonlyArray<A>>
  /** One Int32 shared by every thread: the next group index to claim. */
  readonly next: SharedArrayBuffer
  readonly context: C
}

/** A worker's answer for one group; `id` -1 says it found no group left to claim. */
export interface GroupAnswer<B> {
  readonly id: number
  readonly results: ReadonlyArray<B>
}

/** The next group index from the shared counter (past the end when none is left). */
export const claim = (next: SharedArrayBuffer): number => Atomics.add(new Int32Array(next), 0, 1)

/** Splits `items` into groups of `size`, in order. */
export const groupsOf = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const groups: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += size) groups.push(items.slice(start, start + size))
  return groups
}

/**
 * Resolves once every worker has said no group is left, or has failed or exited first. It never
 * rejects: a worker's failure is not the batch's. The listeners go with the batch, so a worker
 * kept for later batches answers each to its own.
 */
const collect = <B>(name: WorkerName, workers: ReadonlyArray<Worker>, answered: (answer: GroupAnswer<B>) => void): Promise<void> =>
  Promise.all(workers.map((worker) =>
    new Promise<void>((resolve) => {
      const done = () => {
        worker.off("message", message)
        worker.off("error", failed)
        worker.off("exit", done)
        resolve()
      }
      const message = (answer: GroupAnswer<B>) => (answer.id < 0 ? done() : answered(answer))
      const failed = (error: unknown) => {
        workerUnavailable(name, `cairn: a ${name} worker failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`)
        done()
      }
      worker.on("message", message)
      worker.on("error", failed)
      worker.on("exit", done)
    })
  )).then(() => undefined)

/** How many workers a batch shares: as asked, else one per core but the one the main thread keeps. */
const poolSize = (workers: number | undefined) => workers ?? Math.max(1, NodeOs.availableParallelism() - 1)

const startWorker = (entry: URL): Worker => new Worker(entry, { resourceLimits: WORKER_RESOURCE_LIMITS })

/**
 * Workers that live as long as the scope, for a run that shares batch after batch: started with
 * the first batch that asks, so a run that needs none starts none, and ended with the scope. A
 * worker that failed or exited is not handed out again.
 */
export interface KeptWorkers {
  readonly take: () => ReadonlyArray<Worker>
}

export const keptWorkers = (entryOf: () => URL | undefined, workers?: number): Effect.Effect<KeptWorkers, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => ({ started: undefined as Array<Worker> | undefined, gone: new Set<Worker>() })),
      (held) => Effect.promise(() => Promise.all((held.started ?? []).map((worker) => worker.terminate())))
    ),
    (held) => ({
      take: () => {
        if (held.started === undefined) {
          const entry = entryOf()
          held.started = entry === undefined ? [] : Array.from({ length: poolSize(workers) }, () => {
            const worker = startWorker(entry)
            worker.once("exit", () => held.gone.add(worker))
            worker.once("error", () => held.gone.add(worker))
            return worker
          })
        }
        return held.started.filter((worker) => !held.gone.has(worker))
      }
    })
  )

/**
 * Every group answered by `local` here or by `worker` there, flattened in group order. `onGroup`
 * hears each group id once it is answered, wherever.
 */
export const shareBatch = <A, B, C, E, R>(options: {
  readonly name: WorkerName
  /** The worker's entry module; none starts without one. */
  readonly worker: URL | undefined
  readonly groups: ReadonlyArray<ReadonlyArray<A>>
  readonly context: C
  readonly local: (group: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E, R>
  readonly onGroup?: (id: number) => void
  /** This thread claims groups only once this is done (it has other work first), or the workers are. By default at once. */
  readonly joinAfter?: Effect.Effect<void> | undefined
  /** Workers kept for later batches, to share this one with rather than workers of its own. */
  readonly kept?: KeptWorkers | undefined
  /** Worker threads to start; by default one per core but the one this thread keeps. None: this thread answers every group. */
  readonly workers?: number | undefined
}): Effect.Effect<ReadonlyArray<B>, E, R> => {
  const { groups, local } = options
  const onGroup = options.onGroup ?? (() => {})
  const next = new SharedArrayBuffer(4)
  const results: Array<ReadonlyArray<B> | undefined> = new Array(groups.length)
  const entry = options.worker
  const kept = options.kept
  return Effect.acquireUseRelease(
    Effect.sync(() => {
      const workers = kept !== undefined ? kept.take() : entry === undefined ? [] : Array.from({ length: poolSize(options.workers) }, () => startWorker(entry))
      for (const worker of workers) worker.postMessage({ groups, next, context: options.context } satisfies SharedGroups<A, C>)
      return workers
    }),
    (workers) =>
      Effect.gen(function*() {
        const collected = collect<B>(options.name, workers, (answer) => {
          results[answer.id] = answer.results
          onGroup(answer.id)
        })
        // Unless the workers are through with every group first.
        if (options.joinAfter !== undefined) yield* Effect.raceFirst(options.joinAfter, Effect.promise(() => collected))
        for (let id = claim(next); id < groups.length; id = claim(next)) {
          results[id] = yield* local(groups[id]!)
          onGroup(id)
          yield* Effect.yieldNow
        }
        yield* Effect.promise(() => collected)
        // A worker that died leaves its claimed groups unanswered; this thread answers them.
        for (let id = 0; id < groups.length; id++) {
          if (results[id] !== undefined) continue
          results[id] = yield* local(groups[id]!)
          onGroup(id)
        }
        return results.flatMap((group) => group!)
      }),
    // Kept workers outlive the batch; the scope that keeps them ends them.
    (workers) => kept !== undefined ? Effect.void : Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate())))
  )
}
