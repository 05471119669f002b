/**
 * Tells the warm index which files changed: a recursive `fs.watch` of the root where the platform
 * has one, else a poll that compares the tree with the index. cairn's own folder and the VCS's are
 * never reported; whether a reported file matters is the refresh's question, not the watcher's.
 */
import { watch } from "node:fs"
import { Duration, Effect, Schedule } from "effect"
import { changesUnder } from "../staleness.ts"
import type * as RepositoryConfig from "../repositoryConfig.ts"
import { WarmIndex } from "./WarmIndex.ts"

const IGNORED = /^(\.cairn|\.git|node_modules)(\/|$)/

export interface WatchOptions {
  readonly root: string
  readonly config: RepositoryConfig.RepositoryConfig
  /** `poll` forces polling, as on a file system where recursive watching is unavailable. */
  readonly mode: "auto" | "poll"
  readonly pollMs: number
}

const poll = Effect.fn("Watcher.poll")(function*(options: WatchOptions) {
    const warm = yield* WarmIndex
    yield* warm.watching(`polling every ${options.pollMs} ms`)
    const discovery = options.config.discovery === undefined ? {} : { discovery: options.config.discovery }
    yield* Effect.gen(function*() {
      // Changes already reported wait for their refresh; asking again would only count them twice.
      if ((yield* warm.state).filesChanged > 0) return
      const pending = yield* changesUnder({ root: options.root, ...discovery })
      yield* warm.changed([...pending.added, ...pending.changed, ...pending.deleted])
    }).pipe(
      Effect.ignore,
      Effect.repeat(Schedule.spaced(Duration.millis(options.pollMs)))
    )
  })

/** Runs until interrupted; the watcher closes with the scope that forked it. */
export const watchRoot = Effect.fn("Watcher.watchRoot")(function*(options: WatchOptions) {
  const warm = yield* WarmIndex
  if (options.mode === "poll") return yield* poll(options)
  const watcher = yield* Effect.try(() => watch(options.root, { recursive: true })).pipe(Effect.option)
  if (watcher._tag === "None") return yield* poll(options)
  yield* Effect.addFinalizer(() => Effect.sync(() => watcher.value.close()))
  yield* warm.watching("fs.watch (recursive)")
  yield* Effect.callback<never>((resume) => {
    watcher.value.on("change", (_event, name) => {
      const path = String(name).replaceAll("\\", "/")
      if (!IGNORED.test(path)) Effect.runFork(warm.changed([path]))
    })
    // A watcher that dies (the root removed, too many watches) falls back to polling.
    watcher.value.on("error", () => resume(Effect.die("watcher failed")))
  }).pipe(Effect.catchDefect(() => poll(options)))
})
