/** What `cairn status` does (its flags are declared in StatusCommand.ts, so this module loads only when it runs). */
import type { StatusInput } from "./StatusCommand.ts"
import { Clock, Console, Effect } from "effect"
import * as Database from "../../layers/sqlite/Database.ts"
import { IndexWriter } from "../../layers/sqlite/IndexWriter.ts"
import { indexLayer, pendingChanges } from "../indexRepository.ts"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"

interface ManifestRow {
  readonly snapshot_hash: string
  readonly built_at: string
  readonly chunk_count: number
  readonly embedded_count: number
  readonly note_count?: number
  readonly embedder_id: string | null
  readonly embedder_version: string | null
}

export const run = Effect.fn("cli.status")(function*({ json, root }: StatusInput) {
  const now = yield* Clock.currentTimeMillis
  const config = yield* RepositoryConfig.read(root)
  const result = yield* Effect.gen(function*() {
    const { connection, vectorsUnavailable } = yield* Database.Database
    const manifest = connection.prepare("SELECT * FROM manifest WHERE key = 1").get() as ManifestRow | undefined
    const pending = yield* pendingChanges({ root, ...(config.discovery === undefined ? {} : { discovery: config.discovery }) })
    const builtUnder = yield* (yield* IndexWriter).builtUnder
    return { manifest, pending, builtUnder, vectorsUnavailable }
  }).pipe(Effect.provide(indexLayer(root)))
  const m = result.manifest
  const status = {
    index: Database.defaultPath(root),
    built: m !== undefined,
    builtAt: m?.built_at ?? null,
    ageSeconds: m === undefined ? null : Math.max(0, Math.round((now - Date.parse(m.built_at)) / 1000)),
    chunks: m === undefined ? 0 : Number(m.chunk_count),
    embedded: m === undefined ? 0 : Number(m.embedded_count),
    embedder: m?.embedder_id === null || m === undefined ? null : m.embedder_version ?? m.embedder_id,
    snapshotHash: m?.snapshot_hash ?? null,
    // Why the dense leg is off on this machine (sqlite-vec would not load), or null.
    vectorsUnavailable: result.vectorsUnavailable ?? null,
    stale: result.pending,
    // Built under other chunking settings than cairn.config.json names: the next index rebuilds it.
    chunkingChanged: result.builtUnder !== undefined && result.builtUnder !== ChunkingConfig.fingerprint(config.chunking ?? {})
  }
  if (json) return yield* Console.log(JSON.stringify(status))
  const staleCount = status.stale.added.length + status.stale.changed.length + status.stale.deleted.length
  yield* Console.log([
    status.built ? `index ${status.index}: built ${status.builtAt} (${status.ageSeconds} s ago)` : `index ${status.index}: never built; run \`cairn index\``,
    `${status.chunks} chunks, ${status.embedded} embedded${status.embedder === null ? "" : ` by ${status.embedder}`}`,
    ...(status.vectorsUnavailable === null ? [] : [`vector search is off: ${status.vectorsUnavailable}; answers come from the lexical legs`]),
    ...(status.chunkingChanged ? ["built under other chunking settings than cairn.config.json names: the next `cairn index` rebuilds it"] : []),
    staleCount === 0
      ? "up to date with the files on disk"
      : `stale: ${status.stale.changed.length} changed, ${status.stale.added.length} new, ${status.stale.deleted.length} deleted since the last build (run \`cairn index\`)`,
    ...[...status.stale.changed.map((f) => `  changed ${f}`), ...status.stale.added.map((f) => `  new     ${f}`), ...status.stale.deleted.map((f) => `  deleted ${f}`)].slice(0, 20)
  ].join("\n"))
})
