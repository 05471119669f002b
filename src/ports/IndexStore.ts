/**
 * The write side of the index: notes added, replaced and removed in one atomic unit, vectors kept
 * by the model id and version that made them, and the manifest of each commit. A batch that fails
 * anywhere (refused, a backend error, an exception half way, a killed process) leaves the index as
 * the previous commit left it.
 *
 * Vectors never mix models. A batch whose vectors come from another model than the stored ones is
 * refused (`embedder_changed`) unless it says `replace: true` (or `replaceAll`), which drops every
 * stored vector in the same unit. The checks every backend makes before it touches its storage are
 * in `src/index/IndexWriteChecks.ts`; the behaviour is `layers/contracts/IndexStore.contract.ts`.
 */
import { Context, Effect, Schema, Stream } from "effect"
import type { Chunk, ChunkId } from "../domain/Chunk.ts"
import type { NoteEdge } from "./GraphStore.ts"

/** The model of an index's stored vectors. */
export interface VectorSpace {
  /** The embedder's id (`model_id`). */
  readonly modelId: string
  /** The embedder's version (`embedding_version`). */
  readonly version: string
  readonly dimension: number
  /** The model itself when it is data (a corpus-trained model), so queries embed alike. */
  readonly model: string | null
}

/** A note (re)indexed by the batch: its content hash, and the promise that its chunks are all in the batch. */
export interface NoteRecord {
  readonly id: string
  readonly contentHash: string
}

/** The embedder that produced a batch's vectors. */
export interface VectorModel {
  readonly id: string
  readonly version: string
  readonly dimension: number
  /** The model as data, stored so queries can be embedded by the same model (EmbedderSqlite). */
  readonly model?: string
}

export interface VectorEntry {
  readonly chunkId: ChunkId
  /** Stored as float32; a Float32Array is stored as it is, without a copy. */
  readonly vector: ReadonlyArray<number> | Float32Array
}

export interface IndexWrite {
  /** Clear every table first: the batch is then the whole index (a cold build). */
  readonly replaceAll?: boolean
  /** Chunks to insert, or replace by id. A replaced chunk keeps its vector only if its `contentSha` is unchanged. */
  readonly chunks?: ReadonlyArray<Chunk>
  /** Chunk ids to delete; unknown ids are ignored. */
  readonly deleteChunks?: ReadonlyArray<ChunkId>
  /**
   * Notes this batch (re)indexed. Each note's chunks in `chunks` are all it has now: its stored
   * chunks missing from the batch are deleted.
   */
  readonly notes?: ReadonlyArray<NoteRecord>
  /** Notes that vanished: their chunks, vectors and outbound relations go with them. */
  readonly deleteNotes?: ReadonlyArray<string>
  /** The outbound edges of every note in `from` become exactly `edges` (each edge's `from` must be listed). */
  readonly relations?: { readonly from: ReadonlyArray<string>; readonly edges: ReadonlyArray<NoteEdge> }
  /** Vectors to store; `replace` drops every stored vector first (required when the model changes). */
  readonly vectors?: { readonly model: VectorModel; readonly entries: ReadonlyArray<VectorEntry>; readonly replace?: boolean }
  /**
   * `builtAt` is the caller's clock read, ISO-8601 with a zone; the writer reads no clock.
   * `chunking` names the settings the chunks were made under (`ChunkingConfig.fingerprint`); absent,
   * the defaults.
   */
  readonly manifest: { readonly snapshotHash: string; readonly builtAt: string; readonly chunking?: string }
}

/** The manifest as committed, and what the batch did. */
export interface WriteSummary {
  /** Commits so far, this one included. */
  readonly generation: number
  readonly chunkCount: number
  readonly embeddedCount: number
  readonly noteCount: number
  readonly relationCount: number
  readonly chunksWritten: number
  readonly chunksDeleted: number
  readonly vectorsWritten: number
}

/** The manifest of the last commit: which snapshot the index was built from, and its counts. */
export interface StoredManifest {
  readonly generation: number
  readonly snapshotHash: string
  readonly chunkCount: number
  readonly embeddedCount: number
  readonly noteCount: number
  readonly relationCount: number
}

export interface StoredChunk {
  readonly contentSha: string
  readonly embedded: boolean
}

export class IndexWriteError extends Schema.TaggedError<IndexWriteError>()("IndexWriteError", {
  reason: Schema.Literals([
    "duplicate_chunk", "conflicting_batch", "unknown_chunk", "dimension_mismatch", "invalid_vector",
    "embedder_changed", "analysis_changed", "invalid_manifest", "read_only", "vectors_unavailable", "damaged", "write_failed"
  ]),
  detail: Schema.String
}) {
  override get message(): string {
    switch (this.reason) {
      case "duplicate_chunk":
        return `index write: chunk ${this.detail} appears twice in the batch; give every chunk one entry`
      case "conflicting_batch":
        return `index write: ${this.detail}; a batch may not both keep and delete one thing`
      case "unknown_chunk":
        return `index write: vector for ${this.detail}, which the index does not hold; write the chunk in the same batch`
      case "dimension_mismatch":
        return `index write: ${this.detail}; every vector must have the model's dimension`
      case "invalid_vector":
        return `index write: ${this.detail}; vectors must be finite and non-zero`
      case "embedder_changed":
        return `index write: ${this.detail}; re-embed every chunk and write with vectors.replace (never mix models)`
      case "analysis_changed":
        return `index write: ${this.detail}; the text analysis changed since the index was built, rebuild it with replaceAll`
      case "invalid_manifest":
        return `index write: manifest ${this.detail}; pass builtAt as an ISO-8601 instant with a zone`
      case "read_only":
        return `index write: ${this.detail} was opened read-only; open it writable to index`
      case "vectors_unavailable":
        return `index write: ${this.detail}, so the batch's vectors cannot be stored; write it without vectors (chunks and full-text search need none)`
      case "damaged":
        return `index write: the index file is damaged (${this.detail}); run \`cairn index\` to rebuild it from the repository`
      case "write_failed":
        return `index write failed and was rolled back: ${this.detail}; the previous index is intact, retry the write`
    }
  }
}

/** A chunk's id and the text its vector is made of. */
export interface ChunkText {
  readonly id: ChunkId
  readonly text: string
}

/**
 * Where a cold build's vectors go as they are produced, inside the build's transaction: `open`
 * makes the space of the model that embeds them, then `add` stores vectors, each call's after the
 * last's. Adding in chunk id order gives the file the bytes `write` gives it; `texts` reads the
 * build's chunks back in that order, a page at a time, so the caller holds one page and not the build.
 */
export interface VectorStore {
  readonly open: (model: VectorModel) => Effect.Effect<void, IndexWriteError>
  readonly add: (entries: ReadonlyArray<VectorEntry>) => Effect.Effect<void, IndexWriteError>
  /** Every chunk the build wrote, by id, in pages of at most `size`. */
  readonly texts: (size: number) => Stream.Stream<ReadonlyArray<ChunkText>, IndexWriteError>
}

/** A piece of a cold build: notes, each recorded with all of its chunks, as `IndexWrite.notes` says. */
export interface RebuildPart {
  readonly notes: ReadonlyArray<NoteRecord>
  readonly chunks: ReadonlyArray<Chunk>
}

/**
 * A cold build's content as it is made: the parts come one after another and are written as they
 * come, so the build's chunks are never all in memory; a note or chunk in two parts is refused.
 */
export interface RebuildContent<E = never, R = never> {
  readonly parts: Stream.Stream<RebuildPart, E, R>
  readonly relations?: IndexWrite["relations"]
  readonly manifest: IndexWrite["manifest"]
}

export class IndexStore extends Context.Service<IndexStore, {
  /** Applies `batch` in one transaction; on any failure nothing of it is stored. */
  write(batch: IndexWrite): Effect.Effect<WriteSummary, IndexWriteError>
  /**
   * A cold build (as `write` with `replaceAll`) made a part at a time: the transaction opens, takes
   * each part of `content` as the stream yields it, then `embed` runs (the model may still be
   * training on another thread), reads the chunks back and stores vectors through the
   * `VectorStore` as they come, and the whole commits once. On any failure, of the parts, the write
   * or `embed`, nothing of it is stored.
   */
  rebuild<E, E2, R = never>(
    content: RebuildContent<E, R>,
    embed: (store: VectorStore) => Effect.Effect<void, E2 | IndexWriteError, R>
  ): Effect.Effect<WriteSummary, IndexWriteError | E | E2, R>
  /** Every stored note with its content hash (null when none was recorded), by id. */
  readonly noteHashes: Effect.Effect<ReadonlyMap<string, string | null>, IndexWriteError>
  /** How many notes are stored now (the manifest says how many the last commit left). */
  readonly noteCount: Effect.Effect<number, IndexWriteError>
  /** `noteHashes` of the stored notes among `notes` alone. */
  noteHashesOf(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string | null>, IndexWriteError>
  /** The stored chunks of `notes`: content sha and whether a vector is stored, by chunk id. */
  storedChunks(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<ChunkId, StoredChunk>, IndexWriteError>
  /** The stored chunks without a vector, but those of `excluded` notes, by id: text to embed. */
  unembedded(excluded: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<{ readonly id: ChunkId; readonly text: string }>, IndexWriteError>
  /** Why this connection cannot store vectors (sqlite-vec did not load), when it cannot. */
  readonly vectorsUnavailable: string | undefined
  /** The model of the stored vectors, if any, with the model's data. */
  readonly vectorSpace: Effect.Effect<VectorSpace | undefined, IndexWriteError>
  /** The same without the model's data, which can be megabytes. */
  readonly vectorSpaceHeader: Effect.Effect<Omit<VectorSpace, "model"> | undefined, IndexWriteError>
  /** The manifest of the last commit, or none before the first. */
  readonly manifest: Effect.Effect<StoredManifest | undefined, IndexWriteError>
  /**
   * The chunking settings the last commit was built under (see `IndexWrite.manifest`); the
   * defaults' fingerprint for a build that did not say, none before the first. A read-only open of
   * a file from before the settings were recorded reads what migrating it would record.
   */
  readonly builtUnder: Effect.Effect<string | undefined, IndexWriteError>
}>()("cairn/ports/IndexStore") {}
