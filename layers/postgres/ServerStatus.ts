/**
 * What `cairn status` says of a repository on a PostgreSQL server: where it is (the URL without its
 * password, and the repository key), its last commit's manifest, the embedder of its vectors, and
 * how the server stores and searches them.
 */
import { Effect } from "effect"
import * as ChunkingConfig from "../../src/index/chunk/ChunkingConfig.ts"
import { DatabaseError } from "../sqlite/DatabaseError.ts"
import * as PgHnsw from "./PgHnsw.ts"
import * as PgIndexLayer from "./PgIndex.ts"
import { PgIndex } from "./PgIndex.ts"
import { describeStore } from "./StoreUrl.ts"

export interface ServerManifest {
  readonly builtAt: string
  readonly chunks: number
  readonly embedded: number
  readonly snapshotHash: string
  readonly chunking: string
}

export const serverStatus = Effect.fn("ServerStatus.serverStatus")(
  function*(options: { readonly url: string; readonly repository: string }) {
    const { sql, repository, vectors, location } = yield* PgIndex
    const [manifest] = yield* sql.unsafe<{ built_at: string; chunk_count: number; embedded_count: number; snapshot_hash: string; chunking: string | null }>(
      "SELECT built_at, chunk_count, embedded_count, snapshot_hash, chunking FROM cairn_manifest WHERE repository = $1",
      [repository]
    )
    const [space] = yield* sql.unsafe<{ model_id: string; version: string }>("SELECT model_id, version FROM cairn_spaces WHERE repository = $1", [repository])
    const hnsw = vectors === "pgvector" ? yield* PgHnsw.present(sql, repository) : undefined
    return {
      location,
      vectors,
      search: hnsw === undefined ? "exact" as const : "hnsw" as const,
      embedder: space === undefined ? null : space.version,
      manifest: manifest === undefined ? undefined : {
        builtAt: manifest.built_at,
        chunks: Number(manifest.chunk_count),
        embedded: Number(manifest.embedded_count),
        snapshotHash: manifest.snapshot_hash,
        chunking: manifest.chunking ?? ChunkingConfig.DEFAULT_FINGERPRINT
      } satisfies ServerManifest
    }
  },
  (effect, options) =>
    effect.pipe(
      Effect.mapError((error) =>
        error instanceof DatabaseError ? error : new DatabaseError({ reason: "open_failed", path: `${describeStore(options.url)}#${options.repository}`, detail: error.message })
      ),
      Effect.provide(PgIndexLayer.layer(options))
    )
)
