/**
 * The embedded layer set: the shipped stages over one SQLite file (`<root>/.cairn/index.sqlite` by
 * default), with the writer for refreshes. The dense leg is present when the index holds vectors
 * and its embedder can be restored from the file; otherwise recall runs without it and says so in
 * the pack's diagnostics (and, where sqlite-vec cannot load or stored vectors cannot be read, with
 * a `leg_failed` gap in every pack). A question reads one commit of the file (`ConsistentRead`).
 * The set names the repository it was built from (`IndexedRepository`), so a pack can say how many
 * of its files changed since the build (pipelines/staleness.ts).
 */
// Its own module: the package index also loads http, whose `createRequire` import clashes with the bundler banner of docs/api.md.
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Context, Effect, Layer } from "effect"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { CandidateStore } from "../src/ports/CandidateStore.ts"
import type { Embedder } from "../src/ports/Embedder.ts"
import type { Reranker } from "../src/ports/Reranker.ts"
import type { CoChange } from "../src/ports/CoChange.ts"
import type { ConsistentRead } from "../src/ports/ConsistentRead.ts"
import type { GraphStore } from "../src/ports/GraphStore.ts"
import type { IndexHealth } from "../src/ports/IndexHealth.ts"
import type { IndexStore } from "../src/ports/IndexStore.ts"
import type { LexicalIndex, LexicalIndexError } from "../src/ports/LexicalIndex.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import * as CoChangeGit from "./node/CoChangeGit.ts"
import * as CandidateStoreSqlite from "./sqlite/CandidateStoreSqlite.ts"
import * as ConsistentReadSqlite from "./sqlite/ConsistentReadSqlite.ts"
import * as Database from "./sqlite/Database.ts"
import * as DenseUnreadable from "./sqlite/DenseUnreadable.ts"
import type { DatabaseError } from "./sqlite/DatabaseError.ts"
import * as EmbedderSqlite from "./sqlite/EmbedderSqlite.ts"
import * as GraphStoreSqlite from "./sqlite/GraphStoreSqlite.ts"
import * as IndexHealthSqlite from "./sqlite/IndexHealthSqlite.ts"
import * as IndexStoreSqlite from "./sqlite/IndexStoreSqlite.ts"
import * as ProvidedEmbedder from "./ProvidedEmbedder.ts"
import * as LexicalIndexSqlite from "./sqlite/LexicalIndexSqlite.ts"
import * as SymbolIndexSqlite from "./sqlite/SymbolIndexSqlite.ts"
import * as VectorIndexSqlite from "./sqlite/VectorIndexSqlite.ts"
import { readSpaceHeader } from "./sqlite/VectorTable.ts"
import * as Stages from "./Stages.ts"
import * as TokenCounterDefault from "./tokens/TokenCounterDefault.ts"

export interface EmbeddedOptions {
  /** The repository root; the index lives under `<root>/.cairn/` unless `path` says otherwise. */
  readonly root: string
  readonly path?: string
  /** Open for reading only (a second process asking questions while another indexes). */
  readonly readOnly?: boolean
  /** RetrievalConfig overrides, validated. */
  readonly config?: unknown
  readonly tokenCounter?: Layer.Layer<TokenCounter>
  /**
   * The model that embedded the index, when it is not one the file stores (an HTTP model,
   * docs/models.md); a question is embedded by it, once the stored vectors are found to be its own.
   */
  readonly embedder?: Layer.Layer<Embedder>
  /** A reranker for stage 6 (an HTTP model); without one, rerank is skipped. */
  readonly reranker?: Layer.Layer<Reranker>
}

/** The repository whose files the index was built from. */
export class IndexedRepository extends Context.Service<IndexedRepository, {
  readonly root: string
}>()("cairn/layers/Embedded/IndexedRepository") {}

export type EmbeddedServices =
  | Stages.StageServices
  | IndexedRepository
  | CoChange
  | ConsistentRead
  | LexicalIndex
  | CandidateStore
  | GraphStore
  | IndexHealth
  | IndexStore
  | Database.Database
  | TokenCounter

/**
 * Vectors and the embedder that wrote them; nothing when the index holds none, or sqlite-vec did
 * not load (the health reading says so in every pack). Stored vectors that cannot be read get
 * services that fail with why, so the leg is reported failed rather than left out in silence.
 */
const dense = (embedder: Layer.Layer<Embedder> | undefined) => Layer.merge(
  VectorIndexSqlite.layer,
  embedder === undefined ? EmbedderSqlite.layer : ProvidedEmbedder.matching(embedder).pipe(Layer.provide(IndexStoreSqlite.layer))
).pipe(
  Layer.catchCause((cause) =>
    Layer.unwrap(Effect.gen(function*() {
      const { connection, vectorsUnavailable } = yield* Database.Database
      if (vectorsUnavailable !== undefined) return Layer.empty
      // The manifest names the embedder of the last commit's vectors, as the space does: a space
      // that reads as absent while the manifest names one is a file that no longer says what it holds.
      const stored = Effect.try({
        try: () => {
          const manifest = connection.prepare("SELECT embedder_id FROM manifest WHERE key = 1").get() as { embedder_id: string | null } | undefined
          return { space: readSpaceHeader(connection) !== undefined, named: manifest?.embedder_id ?? null }
        },
        catch: (error) => error
      })
      const found = yield* Effect.orElseSucceed(stored, () => ({ space: true, named: null }))
      if (!found.space && found.named === null) return Layer.empty
      const error = Cause.squash(cause)
      return DenseUnreadable.layer(
        found.space
          ? error instanceof Error ? error.message : String(error)
          : `the index names embedder ${found.named} but holds no vector space for it; the file may be damaged, so run \`cairn index\` to rebuild it`
      )
    }))
  )
) as Layer.Layer<never, never, Database.Database>

export const embedded = (
  options: EmbeddedOptions
): Layer.Layer<EmbeddedServices, DatabaseError | LexicalIndexError | InvalidInput> => {
  const ports = Layer.mergeAll(
    Layer.unwrap(Effect.map(RetrievalConfig.RetrievalConfig, (config) => LexicalIndexSqlite.layer({ weights: config.lexicalWeights }))),
    CandidateStoreSqlite.layer,
    ConsistentReadSqlite.layer,
    GraphStoreSqlite.layer,
    IndexHealthSqlite.layer,
    IndexStoreSqlite.layer,
    SymbolIndexSqlite.layer,
    // The history beside the index, read only when the co-change leg is on. A read-only open keeps
    // it too: it is git's, not the index's, and written whole by rename, so no reader sees half.
    CoChangeGit.layer(options.root).pipe(Layer.provide(NodeServices.layer)),
    dense(options.embedder),
    options.reranker ?? Layer.empty,
    // A new object per build: what is known of the files is known of one opened index.
    Layer.sync(IndexedRepository, () => ({ root: options.root }))
  )
  return Stages.layer.pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(Database.layer({
      path: options.path ?? Database.defaultPath(options.root),
      ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly })
    })),
    Layer.provideMerge(options.tokenCounter ?? TokenCounterDefault.layer),
    Layer.provideMerge(RetrievalConfig.layer(options.config ?? {}))
  )
}
