/**
 * Staleness is never silent: a pack's index health carries the number of files that changed on
 * disk since the last build, and the lag only when something did change (an old index of an
 * unchanged tree is not behind anything).
 */
import { Effect, Layer } from "effect"
import { IndexHealth } from "../src/ports/IndexHealth.ts"
import * as Database from "../layers/sqlite/Database.ts"
import * as IndexWriterLayer from "../layers/sqlite/IndexWriter.ts"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import { pendingChanges } from "./indexRepository.ts"

/** IndexHealth that reports `filesChanged` on top of the index's own reading. */
export const reportingChanges = (filesChanged: number): Layer.Layer<IndexHealth, never, IndexHealth> =>
  Layer.effect(IndexHealth, Effect.gen(function*() {
    const inner = yield* IndexHealth
    return IndexHealth.of({
      read: (now) => Effect.map(inner.read(now), (reading) => ({ ...reading, filesChanged, lagSeconds: filesChanged > 0 ? reading.lagSeconds : 0 }))
    })
  }))

/** How many files differ from the index, read-only: the index file is opened for reading alone. */
export const countChanges = (root: string, discovery?: Partial<DiscoveryConfig>) =>
  pendingChanges({ root, ...(discovery === undefined ? {} : { discovery }) }).pipe(
    Effect.map((pending) => pending.added.length + pending.changed.length + pending.deleted.length),
    Effect.provide(IndexWriterLayer.layer.pipe(Layer.provide(Database.layer({ path: Database.defaultPath(root), readOnly: true }))))
  )

