/**
 * The library API over a repository's embedded index, for TypeScript services that do not use
 * Effect: `openCairn({ root })` returns `{ recall, refresh, status, close }`. The Effect API is the
 * same pipeline with `Embedded.embedded({ root })` provided (see docs/api.md).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Clock, Effect, Layer, ManagedRuntime } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import { IndexHealth, type IndexHealthReading } from "../src/ports/IndexHealth.ts"
import { IndexLocation, recallLayer } from "./indexLocation.ts"
import * as IndexMemory from "./indexMemory.ts"
import { indexLayer, type IndexReport, pendingChanges, type PendingChanges, saveIndexMemory } from "./indexRepository.ts"
import { indexOrRepair } from "./repairIndex.ts"
import { recall as recallEffect } from "./recall.ts"
import * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"
import type { RecallOptions } from "./api.ts"
import * as RepositoryConfig from "./repositoryConfig.ts"
import { settle } from "./settle.ts"
import { configuredModels, recallModels } from "./configuredModels.ts"
import { changedCount, reportingChanges } from "./staleness.ts"

export interface OpenOptions {
  readonly root: string
  /**
   * RetrievalConfig overrides, validated when the index is opened. Without them, the repository's
   * `cairn.config.json` `retrieval`, as the command line takes it.
   */
  readonly config?: unknown
  /**
   * The chunk token target and the agent author patterns (`ChunkingConfig`), validated when the
   * index is opened; an index built under other settings is rebuilt by the next refresh. Without
   * them, the repository's `cairn.config.json` `chunking`, so this handle and the command line
   * build the index alike instead of rebuilding each other's.
   */
  readonly chunking?: ChunkingConfig.ChunkingConfig | undefined
  /** Refresh the index before the first question (default true). */
  readonly refreshOnOpen?: boolean
  /**
   * Where the index lives: a `postgres://` URL for a shared server, or absent for the file under
   * `<root>/.cairn/` (or the `CAIRN_STORE` environment variable's URL, when set).
   */
  readonly store?: string
  /** The repository's key on a shared server; `<folder name>@<branch>` when absent. */
  readonly repository?: string
}

export interface Cairn {
  /** A ContextPack for `text` (camelCase; `ContextPack.serialise` gives the wire JSON). */
  readonly recall: (text: string, options?: RecallOptions) => Promise<ContextPack>
  /** Re-index what changed on disk; later questions see it. */
  readonly refresh: () => Promise<IndexReport>
  /** Index health and the files changed since the last build (later packs report that count). */
  readonly status: () => Promise<IndexHealthReading & { readonly pending: PendingChanges }>
  /** Releases the database; later calls reject. */
  readonly close: () => Promise<void>
}

export const openCairn = async (options: OpenOptions): Promise<Cairn> => {
  const environment = IndexLocation.defaultValue()
  const location = Layer.succeed(IndexLocation, {
    store: options.store ?? environment.store,
    repository: options.repository ?? environment.repository
  })
  const platform = ManagedRuntime.make(Layer.merge(NodeServices.layer, location))
  // The repository's settings, with what the caller names in their place; checked before anything opens.
  const settings = await settle(platform.runPromiseExit(Effect.gen(function*() {
    const repository = yield* RepositoryConfig.read(options.root)
    return { repository, chunking: yield* ChunkingConfig.decode(options.chunking ?? repository.chunking), models: yield* configuredModels(repository) }
  }))).catch(async (error: unknown) => {
    await platform.dispose()
    throw error
  })
  const { chunking, models, repository } = settings
  const embedder = models.embedder === undefined ? {} : { embedder: models.embedder }
  const discovery = repository.discovery === undefined ? {} : { discovery: repository.discovery }
  const config = options.config ?? repository.retrieval
  // Kept across refreshes, so a refresh re-reads what changed rather than the last snapshot.
  const memory = IndexMemory.make()
  const reindex = () =>
    settle(platform.runPromiseExit(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      return yield* indexOrRepair({ root: options.root, now, memory, chunking, ...discovery, ...embedder })
    })))
  // What the handle knows of the files since the build: none changed right after its refresh, its
  // last status counted them; unknown otherwise, and then the first question counts them.
  let filesChanged: number | undefined
  // The recall layers are rebuilt after a refresh, so a retrained embedder is picked up.
  const open = () =>
    ManagedRuntime.make(reportingChanges(() => filesChanged).pipe(
      Layer.provideMerge(recallLayer({ root: options.root, ...(config === undefined ? {} : { config }), ...recallModels(models) })),
      Layer.provideMerge(location)
    ))
  if (options.refreshOnOpen !== false) {
    await reindex()
    filesChanged = 0
  }
  let runtime = open()
  let closed = false
  const guard = () => {
    if (closed) throw new Error("cairn: this handle is closed; open another with openCairn")
  }
  return {
    recall: (text, ask = {}) => {
      guard()
      return settle(runtime.runPromiseExit(recallEffect({ ...ask, text })))
    },
    refresh: async () => {
      guard()
      await runtime.dispose()
      // A refresh that fails leaves the committed index as it was: the handle answers from that.
      const report = await reindex().finally(() => {
        runtime = open()
      })
      filesChanged = 0
      return report
    },
    status: async () => {
      guard()
      const pending = await settle(platform.runPromiseExit(pendingChanges({ root: options.root, ...discovery }).pipe(Effect.provide(indexLayer(options.root)))))
      filesChanged = changedCount(pending)
      const reading = await settle(runtime.runPromiseExit(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        return yield* (yield* IndexHealth).read(now)
      })))
      return { ...reading, pending }
    },
    close: async () => {
      if (closed) return
      closed = true
      await runtime.dispose()
      // The snapshot files lag behind after refreshes; bring them up so the next process starts warm.
      await platform.runPromiseExit(saveIndexMemory(options.root, memory))
      await platform.dispose()
    }
  }
}

