/**
 * The shared layer set: the shipped stages over a PostgreSQL database that many readers share and
 * one writer at a time keeps current, each repository (and branch) under a key of its own. The
 * dense leg is present when the repository holds vectors and its embedder can be restored from
 * them; stored vectors that cannot be read give services that fail with why, so every pack reports
 * the leg failed rather than leaving it out in silence. A question reads one commit
 * (`ConsistentRead`). `@effect/sql-pg` is an optional peer: this module is loaded only for a
 * `postgres://` store.
 */
// Its own module: the package index also loads http, whose `createRequire` import clashes with the bundler banner of docs/api.md.
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Layer } from "effect"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { CandidateStore } from "../src/ports/CandidateStore.ts"
import type { Embedder } from "../src/ports/Embedder.ts"
import type { Reranker } from "../src/ports/Reranker.ts"
import type { CoChange } from "../src/ports/CoChange.ts"
import type { ConsistentRead } from "../src/ports/ConsistentRead.ts"
import type { GraphStore } from "../src/ports/GraphStore.ts"
import type { IndexHealth } from "../src/ports/IndexHealth.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"
import type { LexicalIndex, LexicalIndexError } from "../src/ports/LexicalIndex.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { IndexedRepository } from "./Embedded.ts"
import * as CandidateStorePg from "./postgres/CandidateStorePg.ts"
import * as SymbolIndexPg from "./postgres/SymbolIndexPg.ts"
import * as CoChangeGit from "./node/CoChangeGit.ts"
import * as ConsistentReadPg from "./postgres/ConsistentReadPg.ts"
import * as EmbedderPg from "./postgres/EmbedderPg.ts"
import * as GraphStorePg from "./postgres/GraphStorePg.ts"
import * as IndexHealthPg from "./postgres/IndexHealthPg.ts"
import * as IndexStorePg from "./postgres/IndexStorePg.ts"
import * as LexicalIndexPg from "./postgres/LexicalIndexPg.ts"
import * as PgIndex from "./postgres/PgIndex.ts"
import * as ProvidedEmbedder from "./ProvidedEmbedder.ts"
import * as VectorIndexPg from "./postgres/VectorIndexPg.ts"
import type { DatabaseError } from "./sqlite/DatabaseError.ts"
import * as DenseUnreadable from "./sqlite/DenseUnreadable.ts"
import * as Stages from "./Stages.ts"
import * as TokenCounterDefault from "./tokens/TokenCounterDefault.ts"

export interface PostgresOptions {
  /** The repository root, whose files the index was built from. */
  readonly root: string
  /** `postgres://user[:password]@host[:port]/database`; the password may come from `PGPASSWORD` instead. */
  readonly url: string
  /** The key of the repository's rows (`name@branch`). */
  readonly repository: string
  /** RetrievalConfig overrides, validated. */
  readonly config?: unknown
  readonly tokenCounter?: Layer.Layer<TokenCounter>
  readonly maxConnections?: number
  /** With pgvector, the repository size from which vectors are searched through an HNSW index (docs/postgres.md). */
  readonly hnswMinVectors?: number
  /** The model that embedded the repository, when the database does not store it (an HTTP model, docs/models.md). */
  readonly embedder?: Layer.Layer<Embedder>
  /** A reranker for stage 6 (an HTTP model); without one, rerank is skipped. */
  readonly reranker?: Layer.Layer<Reranker>
}

export type PostgresServices =
  | Stages.StageServices
  | IndexedRepository
  | CoChange
  | ConsistentRead
  | LexicalIndex
  | CandidateStore
  | GraphStore
  | IndexHealth
  | IndexStore
  | PgIndex.PgIndex
  | TokenCounter

/** Vectors and the embedder that wrote them; nothing when the repository holds none. */
const dense = (embedder: Layer.Layer<Embedder> | undefined) => Layer.merge(
  VectorIndexPg.layer,
  embedder === undefined ? EmbedderPg.layer : ProvidedEmbedder.matching(embedder)
).pipe(
  Layer.catchCause((cause) =>
    Layer.unwrap(Effect.gen(function*() {
      const store = yield* IndexStore
      const space = yield* Effect.orElseSucceed(store.vectorSpaceHeader, () => ({ unreadable: true }))
      if (space === undefined) return Layer.empty
      const error = Cause.squash(cause)
      return DenseUnreadable.layer(error instanceof Error ? error.message : String(error))
    }))
  )
) as Layer.Layer<never, never, PgIndex.PgIndex | IndexStore>

export const postgres = (options: PostgresOptions): Layer.Layer<PostgresServices, DatabaseError | LexicalIndexError | InvalidInput> => {
  const ports = Layer.mergeAll(
    Layer.unwrap(Effect.map(RetrievalConfig.RetrievalConfig, (config) => LexicalIndexPg.layer({ weights: config.lexicalWeights }))),
    CandidateStorePg.layer,
    ConsistentReadPg.layer,
    GraphStorePg.layer,
    IndexHealthPg.layer,
    SymbolIndexPg.layer,
    // The history stays with the checkout, as the snapshot does.
    CoChangeGit.layer(options.root).pipe(Layer.provide(NodeServices.layer)),
    dense(options.embedder).pipe(Layer.provide(IndexStorePg.layer)),
    options.reranker ?? Layer.empty,
    IndexStorePg.layer,
    Layer.sync(IndexedRepository, () => ({ root: options.root }))
  )
  return Stages.layer.pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(PgIndex.layer({
      url: options.url,
      repository: options.repository,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.hnswMinVectors === undefined ? {} : { hnswMinVectors: options.hnswMinVectors })
    })),
    Layer.provideMerge(options.tokenCounter ?? TokenCounterDefault.layer),
    Layer.provideMerge(RetrievalConfig.layer(options.config ?? {}))
  )
}
