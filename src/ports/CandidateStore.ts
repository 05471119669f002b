/**
 * Port: turns chunk ids into chunks with their note's metadata, and answers the questions recall
 * asks about notes (their chunks, their names, their size). Materialisation is never put under the
 * soft deadline: an id is not a claim, and abandoning this step would turn a slow leg into an empty
 * pack.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { Chunk, ChunkId } from "../domain/Chunk.ts"
import type { RetrievalFilter } from "./RetrievalFilter.ts"

export interface NoteSummary {
  readonly id: string
  readonly title: string
  readonly path: string
  /** Chunks the note was split into (link lists included): note support's denominator. */
  readonly chunkCount: number
  /** The note's first chunk by line; what the title/path channel names. */
  readonly leadChunk: ChunkId
  /**
   * The analysed terms of its title and file name (`analysedName` of the title/path channel), when
   * the store keeps them, so a question need not analyse every note's name again.
   */
  readonly nameTerms?: ReadonlyArray<string>
}

export class CandidateStoreError extends Schema.TaggedError<CandidateStoreError>()("CandidateStoreError", {
  reason: Schema.Literals(["missing_chunk", "unavailable"]),
  detail: Schema.String
}) {
  override get message(): string {
    return this.reason === "missing_chunk"
      ? `candidate store: chunk ${this.detail} was returned by an index but is not stored; rebuild the index`
      : `candidate store unavailable: ${this.detail}; rebuild or reopen the index`
  }
}

export class CandidateStore extends Context.Service<CandidateStore, {
  /** Chunks in the store. */
  readonly size: Effect.Effect<number, CandidateStoreError>
  /** The chunks of `ids`, in the order given; an unknown id fails with `missing_chunk`. */
  get(ids: ReadonlyArray<ChunkId>): Effect.Effect<ReadonlyArray<Chunk>, CandidateStoreError>
  /**
   * Up to `perNote` chunks of each note passing `filter`, each note's in line order, notes in the
   * order given; link lists excluded.
   */
  chunksOfNotes(
    notes: ReadonlyArray<string>,
    perNote: number,
    filter: RetrievalFilter
  ): Effect.Effect<ReadonlyArray<Chunk>, CandidateStoreError>
  /** Every note with at least one chunk passing `filter`, sorted by id. */
  notes(filter: RetrievalFilter): Effect.Effect<ReadonlyArray<NoteSummary>, CandidateStoreError>
  /** Chunk counts of `notes` (unknown notes are absent). */
  chunkCounts(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, number>, CandidateStoreError>
}>()("cairn/ports/CandidateStore") {}
