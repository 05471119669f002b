/**
 * A batch of groups shared between the calling thread and worker threads. Groups are claimed from
 * one shared atomic counter: a worker never waits for the main thread to hand out work, and the
 * main thread claims groups itself between its other turns, so no thread idles while groups remain.
 * A worker that fails or exits leaves its claimed groups to the main thread, so the batch is
 * answered either way, in group order. One core stays with the main thread; workers live for one
 * batch. A worker receives `SharedGroups` and answers `GroupAnswer`s, then `{ id: -1 }`. Without an
 * entry to start (see `WorkerEntry`), this thread answers every group.
 */
import { Effect } from "effect"
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
 * rejects: a worker's failure is not the batch's.
 */
const collect = <B>(name: WorkerName, workers: ReadonlyArray<Worker>, answered: (answer: GroupAnswer<B>) => void): Promise<void> =>
  Promise.all(workers.map((worker) =>
    new Promise<void>((resolve) => {
      worker.on("message", (answer: GroupAnswer<B>) => (answer.id < 0 ? resolve() : answered(answer)))
      worker.once("error", (error) => {
        workerUnavailable(name, `cairn: a ${name} worker failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`)
        resolve()
      })
      worker.once("exit", () => resolve())
    })
  )).then(() => undefined)

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
  /** Worker threads to start; by default one per core but the one this thread keeps. None: this thread answers every group. */
  readonly workers?: number | undefined
}): Effect.Effect<ReadonlyArray<B>, E, R> => {
  const { groups, local } = options
  const onGroup = options.onGroup ?? (() => {})
  const next = new SharedArrayBuffer(4)
  const results: Array<ReadonlyArray<B> | undefined> = new Array(groups.length)
  const entry = options.worker
  const size = entry === undefined ? 0 : options.workers ?? Math.max(1, NodeOs.availableParallelism() - 1)
  return Effect.acquireUseRelease(
    Effect.sync(() =>
      Array.from({ length: size }, () => {
        const worker = new Worker(entry!, { resourceLimits: WORKER_RESOURCE_LIMITS })
        worker.postMessage({ groups, next, context: options.context } satisfies SharedGroups<A, C>)
        return worker
      })
    ),
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
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate())))
  )
}
