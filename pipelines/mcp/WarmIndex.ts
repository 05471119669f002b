/**
 * One repository's index, opened once and kept warm for a long-lived server. Questions run against
 * a generation: the recall layers over the index as one refresh committed it, with the snapshot
 * that refresh produced. A refresh runs in the background on its own connection, builds the next
 * generation and swaps it in; a question already running keeps the generation it started with,
 * which is closed when its last reader leaves. So a refresh never blocks a reader, and a refresh
 * that fails leaves the previous generation answering and says so in `status`.
 *
 * Freshness: the watcher reports the paths it sees change. A question waits for a refresh those
 * changes started only up to `refreshWaitMs`, then answers from the generation it has, and its
 * index health counts the files changed since that generation's build.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Clock, Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Queue, Schema, Scope } from "effect"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { recallLayer, type RecallServices } from "../indexLocation.ts"
import * as Database from "../../layers/sqlite/Database.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import { committedSnapshot } from "../committedSnapshot.ts"
import * as IndexMemory from "../indexMemory.ts"
import { saveIndexMemory } from "../indexRepository.ts"
import { indexOrRepair } from "../repairIndex.ts"
import { configuredModels, recallModels } from "../configuredModels.ts"
import type * as RepositoryConfig from "../repositoryConfig.ts"
import { search } from "../search.ts"
import { reportingChanges } from "../staleness.ts"

export interface Generation {
  readonly context: Context.Context<RecallServices>
  /** The snapshot the index was built from. */
  readonly snapshot: Snapshot
}

interface Held extends Generation {
  readonly scope: Scope.Closeable
  readers: number
  retired: boolean
}

export interface RefreshOutcome {
  readonly outcome: "ok" | "failed"
  /** ISO-8601 time the refresh finished. */
  readonly at: string
  readonly durationMs: number
  /** What it did, or why it failed (one line). */
  readonly detail: string
}

export interface ServerState {
  /** `building`: no index yet, the first build is running; `refreshing`: answering while a refresh runs. */
  readonly state: "building" | "ready" | "refreshing"
  /** Files the watcher saw change that the answering index has not taken in. */
  readonly filesChanged: number
  readonly watcher: string
  readonly refreshes: number
  readonly lastRefresh: RefreshOutcome | null
}

/** No generation to answer from: the first build is still running, or it failed. */
export class IndexNotReady extends Schema.TaggedError<IndexNotReady>()("IndexNotReady", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

export interface WarmOptions {
  readonly root: string
  readonly config: RepositoryConfig.RepositoryConfig
  /** How long a question waits for a refresh already due before answering from the index it has. */
  readonly refreshWaitMs: number
  /** Quiet time after a change before a refresh starts, so a burst of saves costs one refresh. */
  readonly debounceMs: number
}

export class WarmIndex extends Context.Service<WarmIndex, {
  /** Run `use` against the freshest generation a question may wait for. */
  readonly use: <A, E>(use: (generation: Generation) => Effect.Effect<A, E>) => Effect.Effect<A, E | IndexNotReady>
  /** The watcher saw these root-relative paths change. */
  readonly changed: (paths: ReadonlyArray<string>) => Effect.Effect<void>
  /** Refresh now (tests, and a watcher that can only poll). */
  readonly refresh: Effect.Effect<void>
  readonly state: Effect.Effect<ServerState>
  /** Questions being answered or waiting to be: a server ends only when this is 0. */
  readonly active: Effect.Effect<number>
  /** Tells `state` how changes are found. */
  readonly watching: (how: string) => Effect.Effect<void>
}>()("cairn/pipelines/mcp/WarmIndex") {}

const firstLine = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 500)
}

export const layer = (options: WarmOptions): Layer.Layer<WarmIndex> =>
  Layer.effect(WarmIndex, Effect.gen(function*() {
    const { config, root } = options
    const discovery = config.discovery === undefined ? {} : { discovery: config.discovery }
    const chunking = yield* ChunkingConfig.decode(config.chunking).pipe(Effect.orDie)
    // Checked with the configuration before the server starts (McpAction).
    const models = yield* configuredModels(config).pipe(Effect.orDie)
    const embedder = models.embedder === undefined ? {} : { embedder: models.embedder }
    // Carried across refreshes, so each costs what changed.
    const memory = IndexMemory.make()
    // Path → how many times it was seen changing; a refresh forgets only what it started with.
    const pending = new Map<string, number>()
    let current: Held | undefined
    let lastRefresh: RefreshOutcome | null = null
    let refreshes = 0
    let watcher = "starting"
    let running: Deferred.Deferred<void> | undefined
    let firstBuildFailure: string | undefined
    // `urgent`: a question or a caller is waiting; otherwise a change, which waits out the debounce.
    const wake = yield* Queue.unbounded<{ readonly urgent: boolean; readonly done?: Deferred.Deferred<void> }>()

    const open = Effect.fn("WarmIndex.open")(function*(snapshot: Snapshot) {
      const scope = yield* Scope.make()
      const built = yield* Layer.buildWithScope(
        reportingChanges(() => pending.size).pipe(Layer.provideMerge(recallLayer({
          root,
          readOnly: true,
          ...(config.retrieval === undefined ? {} : { config: config.retrieval }),
          ...recallModels(models)
        }))),
        scope
      ).pipe(Effect.onError(() => Scope.close(scope, Exit.void)))
      // One question before any reader's: the first search over a new connection pays for its
      // caches and the legs' compilation, and no agent should be the one to pay it.
      yield* search({ query: "index warm-up", limit: 1 }).pipe(Effect.provide(built), Effect.ignore)
      return { context: built, snapshot, scope, readers: 0, retired: false } satisfies Held
    })

    const release = (held: Held) =>
      held.retired && held.readers === 0 ? Scope.close(held.scope, Exit.void) : Effect.void

    const swap = Effect.fn("WarmIndex.swap")(function*(next: Held) {
      const previous = current
      current = next
      if (previous !== undefined) {
        previous.retired = true
        yield* release(previous)
      }
    })

    const reindex = Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const seen = new Map(pending)
      const exit = yield* Effect.exit(Effect.gen(function*() {
        const report = yield* indexOrRepair({ root, now: started, memory, chunking, ...discovery, ...embedder })
        for (const [path, count] of seen) if (pending.get(path) === count) pending.delete(path)
        // Nothing changed in the index: the generation answering is the one it would open.
        if (!(report.upToDate && current !== undefined)) yield* swap(yield* open(memory.snapshot ?? (yield* committedSnapshot(root))))
        return report
      }))
      const finished = yield* Clock.currentTimeMillis
      refreshes++
      lastRefresh = Exit.isSuccess(exit)
        ? {
          outcome: "ok",
          at: new Date(finished).toISOString(),
          durationMs: finished - started,
          detail: exit.value.upToDate
            ? `up to date: ${exit.value.notes} files unchanged`
            : `${exit.value.notesIndexed} files re-indexed, ${exit.value.notesDeleted} deleted; ${exit.value.summary.chunkCount} chunks`
        }
        : { outcome: "failed", at: new Date(finished).toISOString(), durationMs: finished - started, detail: firstLine(exit.cause) }
      if (Exit.isFailure(exit) && current === undefined) firstBuildFailure = lastRefresh.detail
    }).pipe(Effect.provide(NodeServices.layer))

    // One refresh at a time, run by one fiber: a change during a refresh starts the next one.
    const loop = Effect.gen(function*() {
      while (true) {
        const first = yield* Queue.take(wake)
        const waiting = first.done === undefined ? [] : [first.done]
        if (!first.urgent) {
          // Quiet time, cut short by anyone who waits.
          yield* Queue.take(wake).pipe(
            Effect.tap((message) => Effect.sync(() => message.done !== undefined && waiting.push(message.done))),
            Effect.repeat({ until: (message) => message.urgent }),
            Effect.timeoutOption(Duration.millis(options.debounceMs))
          )
        }
        for (const message of yield* Queue.clear(wake)) if (message.done !== undefined) waiting.push(message.done)
        const done = yield* Deferred.make<void>()
        running = done
        yield* reindex
        running = undefined
        yield* Deferred.succeed(done, undefined)
        for (const deferred of waiting) yield* Deferred.succeed(deferred, undefined)
      }
    })

    /** A refresh now, and a signal when it has run. */
    const requestRefresh = Effect.gen(function*() {
      const done = yield* Deferred.make<void>()
      yield* Queue.offer(wake, { urgent: true, done })
      return done
    })

    // The index already on disk answers at once; the first refresh brings it up to date.
    const existing = yield* Effect.gen(function*() {
      const snapshot = yield* committedSnapshot(root)
      return yield* open(snapshot)
    }).pipe(Effect.provide(NodeServices.layer), Effect.option)
    if (Option.isSome(existing)) current = existing.value
    yield* Queue.offer(wake, { urgent: true })
    const fiber = yield* Effect.forkDetach(loop)
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* Fiber.interrupt(fiber)
        if (current !== undefined) {
          current.retired = true
          yield* release(current)
        }
        // What a later process reads back: the snapshot and scan cache of the last refresh.
        yield* saveIndexMemory(root, memory).pipe(Effect.provide(NodeServices.layer), Effect.ignore)
      })
    )

    // A refresh running, or changes no refresh has started on: wait for it, up to the deadline.
    const waitForRefresh = Effect.gen(function*() {
      const due = running ?? (yield* requestRefresh)
      yield* Deferred.await(due).pipe(Effect.timeoutOption(Duration.millis(options.refreshWaitMs)))
    })

    let active = 0
    const use = Effect.fn("WarmIndex.use")(function*<A, E>(
      run: (generation: Generation) => Effect.Effect<A, E>
    ): Effect.fn.Return<A, E | IndexNotReady, Scope.Scope> {
      active++
      yield* Effect.addFinalizer(() => Effect.sync(() => active--))
      if (pending.size > 0 || current === undefined || running !== undefined) yield* waitForRefresh
      const held = current
      if (held === undefined) {
        return yield* new IndexNotReady({
          detail: firstBuildFailure !== undefined
            ? `the index could not be built: ${firstBuildFailure}`
            : `the index of ${root} is still being built; ask again in a few seconds`
        })
      }
      return yield* Effect.acquireUseRelease(
        Effect.sync(() => {
          held.readers++
          return held
        }),
        run,
        (h) => Effect.suspend(() => {
          h.readers--
          return release(h)
        })
      )
    }, Effect.scoped)

    return WarmIndex.of({
      use,
      changed: (paths) =>
        Effect.gen(function*() {
          for (const path of paths) pending.set(path, (pending.get(path) ?? 0) + 1)
          if (paths.length > 0) yield* Queue.offer(wake, { urgent: false })
        }),
      refresh: Effect.flatMap(requestRefresh, Deferred.await),
      state: Effect.sync((): ServerState => ({
        state: current === undefined ? "building" : running !== undefined ? "refreshing" : "ready",
        filesChanged: pending.size,
        watcher,
        refreshes,
        lastRefresh
      })),
      active: Effect.sync(() => active),
      watching: (how) => Effect.sync(() => {
        watcher = how
      })
    })
  }))

/** The path of the index a server answers from, for its status. */
export const indexPath = (root: string) => Database.defaultPath(root)
