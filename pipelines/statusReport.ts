/**
 * What `cairn status --json` prints and the MCP `status` tool returns (the server adds how its
 * refreshes went): the index's manifest, the files changed since the build, and what would make
 * the next `cairn index` rebuild. It opens the index read-only and creates nothing.
 */
import { Effect, Layer } from "effect"
import * as SnapshotStoreFile from "../layers/node/SnapshotStoreFile.ts"
import * as Database from "../layers/sqlite/Database.ts"
import { isCorruption } from "../layers/sqlite/Damage.ts"
import { DatabaseError } from "../layers/sqlite/DatabaseError.ts"
import * as IndexStoreSqlite from "../layers/sqlite/IndexStoreSqlite.ts"
import * as EmbedderHttp from "../layers/http-models/EmbedderHttp.ts"
import { IndexStore, type VectorSpace } from "../src/ports/IndexStore.ts"
import * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"
import { isForeignSpace } from "./foreignSpace.ts"
import { pendingChanges, type PendingChanges } from "./indexRepository.ts"
import { loadPostgres, locate, postgresIndexStore } from "./indexLocation.ts"
import * as RepositoryConfig from "./repositoryConfig.ts"

interface ManifestRow {
  readonly snapshot_hash: string
  readonly built_at: string
  readonly chunk_count: number
  readonly embedded_count: number
  readonly embedder_id: string | null
  readonly embedder_version: string | null
}

export interface StatusReport {
  readonly index: string
  readonly built: boolean
  readonly builtAt: string | null
  readonly ageSeconds: number | null
  readonly chunks: number
  readonly embedded: number
  readonly embedder: string | null
  readonly snapshotHash: string | null
  /** Why the dense leg is off on this machine (sqlite-vec would not load), or null. */
  readonly vectorsUnavailable: string | null
  /**
   * How vectors are stored and searched: `sqlite-vec` in the index file; on a PostgreSQL server,
   * `pgvector` where it has the extension, `real[]` (searched exactly) where it has not.
   */
  readonly vectorStorage: "sqlite-vec" | "pgvector" | "real[]"
  /** Whether vector search scans every vector (`exact`), or reads pgvector's HNSW index, approximate, of a large repository. */
  readonly vectorSearch: "exact" | "hnsw"
  readonly stale: PendingChanges
  /** Built under other chunking settings than cairn.config.json names: the next index rebuilds it. */
  readonly chunkingChanged: boolean
  /** Embedded by another model than cairn.config.json names: the next index re-embeds every chunk. */
  readonly embedderChanged: boolean
  /**
   * How the index file is damaged, when it is (the counts above are then unknown, and zero): the
   * next `cairn index` builds a new one in its place.
   */
  readonly damaged: string | null
}

export const statusReport = Effect.fn("statusReport.statusReport")(function*(root: string, now: number) {
  const config = yield* RepositoryConfig.read(root)
  const model = config.models?.embedder
  const configured = model === undefined ? undefined : { id: EmbedderHttp.idOf(model), version: EmbedderHttp.versionOf(model), dimension: model.dimensions }
  // An index without vectors has no model to change.
  const embedderChanged = (space: Omit<VectorSpace, "model"> | undefined) => space !== undefined && isForeignSpace(space, configured)
  const location = yield* locate(root)
  if (location._tag === "Postgres") {
    const { pending, space } = yield* Effect.gen(function*() {
      const pending = yield* pendingChanges({ root, ...(config.discovery === undefined ? {} : { discovery: config.discovery }) })
      return { pending, space: yield* (yield* IndexStore).vectorSpaceHeader }
    }).pipe(
      Effect.provide(SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root))),
      Effect.provide(postgresIndexStore(location))
    )
    const { serverStatus } = yield* loadPostgres(location, () => import("../layers/postgres/ServerStatus.ts"))
    const server = yield* serverStatus(location)
    const m = server.manifest
    return {
      index: server.location,
      built: m !== undefined,
      builtAt: m?.builtAt ?? null,
      ageSeconds: m === undefined ? null : Math.max(0, Math.round((now - Date.parse(m.builtAt)) / 1000)),
      chunks: m?.chunks ?? 0,
      embedded: m?.embedded ?? 0,
      embedder: server.embedder,
      snapshotHash: m?.snapshotHash ?? null,
      vectorsUnavailable: null,
      vectorStorage: server.vectors,
      vectorSearch: server.search,
      stale: pending,
      chunkingChanged: m !== undefined && m.chunking !== ChunkingConfig.fingerprint(config.chunking ?? {}, config.discovery?.unredacted),
      embedderChanged: embedderChanged(space),
      damaged: null
    } satisfies StatusReport
  }
  const read = Effect.gen(function*() {
    const { connection, path, vectorsUnavailable } = yield* Database.Database
    const manifest = yield* Effect.try({
      try: () => connection.prepare("SELECT * FROM manifest WHERE key = 1").get() as ManifestRow | undefined,
      catch: (error) => new DatabaseError({ reason: isCorruption(error) ? "damaged" : "open_failed", path, detail: error instanceof Error ? error.message : String(error) })
    })
    const pending = yield* pendingChanges({ root, ...(config.discovery === undefined ? {} : { discovery: config.discovery }) }).pipe(
      Effect.provide(SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root)))
    )
    const store = yield* IndexStore
    return { manifest, pending, builtUnder: yield* store.builtUnder, space: yield* store.vectorSpaceHeader, vectorsUnavailable }
  })
  const over = (options: Database.OpenOptions) => read.pipe(Effect.provide(IndexStoreSqlite.layer.pipe(Layer.provideMerge(Database.layer(options)))))
  // Read-only, so asking creates nothing; an index never built is an empty one, held in memory.
  const result = yield* over({ path: Database.defaultPath(root), readOnly: true }).pipe(
    Effect.catchIf((error) => error._tag === "DatabaseError" && error.reason === "missing", () => over({ path: ":memory:" }))
  ).pipe(
    // A damaged file is what status has to say, not a failure of status.
    Effect.catch((error) =>
      (error._tag === "DatabaseError" || error._tag === "IndexWriteError") && error.reason === "damaged"
        ? Effect.succeed({ damaged: error.detail })
        : Effect.fail(error)
    )
  )
  if ("damaged" in result) {
    return {
      index: Database.defaultPath(root),
      built: true,
      builtAt: null,
      ageSeconds: null,
      chunks: 0,
      embedded: 0,
      embedder: null,
      snapshotHash: null,
      vectorsUnavailable: null,
      vectorStorage: "sqlite-vec",
      vectorSearch: "exact",
      stale: { added: [], changed: [], deleted: [] },
      chunkingChanged: false,
      embedderChanged: false,
      damaged: result.damaged
    } satisfies StatusReport
  }
  const m = result.manifest
  return {
    index: Database.defaultPath(root),
    built: m !== undefined,
    builtAt: m?.built_at ?? null,
    ageSeconds: m === undefined ? null : Math.max(0, Math.round((now - Date.parse(m.built_at)) / 1000)),
    chunks: m === undefined ? 0 : Number(m.chunk_count),
    embedded: m === undefined ? 0 : Number(m.embedded_count),
    embedder: m?.embedder_id === null || m === undefined ? null : m.embedder_version ?? m.embedder_id,
    snapshotHash: m?.snapshot_hash ?? null,
    vectorsUnavailable: result.vectorsUnavailable ?? null,
    vectorStorage: "sqlite-vec",
    vectorSearch: "exact",
    stale: result.pending,
    chunkingChanged: result.builtUnder !== undefined && result.builtUnder !== ChunkingConfig.fingerprint(config.chunking ?? {}, config.discovery?.unredacted),
    embedderChanged: embedderChanged(result.space),
    damaged: null
  } satisfies StatusReport
})
