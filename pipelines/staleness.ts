/**
 * Staleness is never silent: a pack's index health carries the number of files that changed on
 * disk since the last build, and the lag only when something did change (an old index of an
 * unchanged tree is not behind anything; see `withFilesChanged`). Whoever knows says so: the
 * command line and a handle after a refresh, a handle after its status (`reportingChanges`).
 * Otherwise recall counts, once per opened index that names its repository (`checkedReading`).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { type Context, Effect, Layer, Option } from "effect"
import { IndexHealth, IndexHealthError, type IndexHealthReading, withFilesChanged } from "../src/ports/IndexHealth.ts"
import { IndexedRepository } from "../layers/Embedded.ts"
import * as Database from "../layers/sqlite/Database.ts"
import * as IndexStoreSqlite from "../layers/sqlite/IndexStoreSqlite.ts"
import { locate, postgresIndexStore } from "./indexLocation.ts"
import * as SnapshotStoreFile from "../layers/node/SnapshotStoreFile.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import type { PendingChanges } from "./indexRepository.ts"
import * as RepositoryConfig from "./repositoryConfig.ts"
import { confirmedUpToDate } from "./upToDate.ts"

/** Files added, changed or deleted: what a refresh would re-index. */
export const changedCount = (pending: PendingChanges): number => pending.added.length + pending.changed.length + pending.deleted.length

/**
 * IndexHealth that reports `filesChanged` on top of the index's own reading: a count, or asked at
 * each read of whoever keeps it (`undefined`: not known, the reading passes as it is).
 */
export const reportingChanges = (filesChanged: number | (() => number | undefined)): Layer.Layer<IndexHealth, never, IndexHealth> =>
  Layer.effect(IndexHealth, Effect.gen(function*() {
    const inner = yield* IndexHealth
    return IndexHealth.of({
      read: (now) =>
        Effect.map(inner.read(now), (reading) => {
          const known = typeof filesChanged === "number" ? filesChanged : filesChanged()
          return known === undefined ? reading : withFilesChanged(reading, known)
        })
    })
  }))

const NONE_PENDING: PendingChanges = { added: [], changed: [], deleted: [] }

/**
 * The files that differ from the index in context. A tree its listing confirms as built costs no
 * more; otherwise the index pipeline is loaded to scan it, as a refresh would.
 */
const pendingUnder = Effect.fn("staleness.pendingUnder")(function*(options: { readonly root: string; readonly discovery?: Partial<DiscoveryConfig> }) {
  // Any doubt (an unreadable listing, a missing cache) is left to the scan to report.
  if (yield* confirmedUpToDate(options).pipe(Effect.catch(() => Effect.succeed(false)))) return NONE_PENDING
  const { pendingChanges } = yield* Effect.promise(() => import("./indexRepository.ts"))
  return yield* pendingChanges(options).pipe(Effect.provide(SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(options.root))))
})

/** The files that differ from the index, read-only: the index file is opened for reading alone. */
export const changesUnder = (options: { readonly root: string; readonly discovery?: Partial<DiscoveryConfig> }) =>
  pendingUnder(options).pipe(
    Effect.provide(Layer.unwrap(Effect.map(locate(options.root), (location) =>
      location._tag === "Postgres"
        ? postgresIndexStore(location)
        : IndexStoreSqlite.layer.pipe(Layer.provide(Database.layer({ path: Database.defaultPath(options.root), readOnly: true })))
    )))
  )

/** The count under `root` against the index `writer` reads, by the repository's own discovery settings. */
const countUnder = Effect.fn("staleness.countUnder")(
  function*(root: string) {
    const { discovery } = yield* RepositoryConfig.read(root)
    return changedCount(yield* pendingUnder({ root, ...(discovery === undefined ? {} : { discovery }) }))
  },
  (effect, root) =>
    effect.pipe(
      Effect.provide(NodeServices.layer),
      Effect.mapError((error) => new IndexHealthError({ detail: `cannot compare the index with the files under ${root} (${error.message})` }))
    )
)

// One count per opened index (each build of the embedded layers gives its repository a new
// object): a long-lived runtime asking many questions scans the tree once, not per question.
const counted = new WeakMap<object, Effect.Effect<number, IndexHealthError>>()

/**
 * The health reading a pack reports. A reading that does not say what changed, of an index that
 * names its repository (`IndexedRepository`, with the writer that reads its notes), gets the count
 * of files changed since the build, as the command line would find it.
 */
export const checkedReading = Effect.fn("staleness.checkedReading")(function*(health: Context.Service.Shape<typeof IndexHealth>, now: number) {
  const reading: IndexHealthReading = yield* health.read(now)
  if (reading.filesChanged !== undefined) return reading
  const repository = yield* Effect.serviceOption(IndexedRepository)
  const writer = yield* Effect.serviceOption(IndexStore)
  if (Option.isNone(repository) || Option.isNone(writer)) return reading
  let count = counted.get(repository.value)
  if (count === undefined) {
    count = yield* Effect.cached(countUnder(repository.value.root).pipe(Effect.provideService(IndexStore, writer.value)))
    counted.set(repository.value, count)
  }
  return withFilesChanged(reading, yield* count)
})
