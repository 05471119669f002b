/**
 * Where files are chunked. By default on the calling fiber; a platform layer may share a large
 * batch with worker threads, since chunking a repository (parsing, packing and counting tokens in
 * every file) is most of a cold index's work. Either way the chunks are `chunkFile`'s, in request
 * order: a batch gives the same chunks on one thread or several.
 */
import { Context, Effect } from "effect"
import type { Scope } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { Chunk } from "../domain/Chunk.ts"
import type { TokenCounterShape } from "./TokenCounter.ts"
import type { ChunkFileInput } from "../index/chunk/ChunkFile.ts"
import type { ChunkingConfig } from "../index/chunk/ChunkingConfig.ts"

export interface ChunkerPoolShape {
  /**
   * Every file's chunks, counted by `counter` under `chunking` (the defaults where it is silent), in
   * request order. `onProgress` hears how many files are done, now and then.
   */
  readonly chunkAll: (
    requests: ReadonlyArray<ChunkFileInput>,
    counter: TokenCounterShape,
    onProgress?: (done: number) => void,
    chunking?: ChunkingConfig
  ) => Effect.Effect<ReadonlyArray<ReadonlyArray<Chunk>>, never, Digest.Digest>
  /**
   * A pool for a run that chunks batch after batch: what it starts to share a batch (worker
   * threads) it starts once, with the first batch that needs it, and ends with the scope. Its
   * chunks are this pool's, batch for batch.
   */
  readonly session: Effect.Effect<Pick<ChunkerPoolShape, "chunkAll">, never, Scope.Scope>
}

/** Files between two progress reports. */
export const PROGRESS_EVERY = 200

// The chunkers and their parsers load with the first batch: a refresh with nothing to chunk never needs them.
const chunker = Effect.promise(() => import("../index/chunk/ChunkFile.ts"))

const chunkedInProcess = (alone: boolean): ChunkerPoolShape => {
  const shape: ChunkerPoolShape = {
    chunkAll: (requests, counter, onProgress, chunking) =>
      requests.length === 0 ? Effect.succeed([]) : Effect.flatMap(chunker, ({ chunkFile }) =>
        Effect.forEach(requests, (request, i) =>
          Effect.tap(chunkFile(request, { ...chunking, count: counter.count, alone }), () =>
            Effect.sync(() => {
              if ((i + 1) % PROGRESS_EVERY === 0 || i + 1 === requests.length) onProgress?.(i + 1)
            })))),
    // Nothing to start: every batch is chunked here.
    session: Effect.sync(() => shape)
  }
  return shape
}

/** On the calling fiber. */
export const inProcess: ChunkerPoolShape = chunkedInProcess(false)

/** On the calling fiber, a batch of a few files, each parsed as a file alone (see `ChunkOptions.alone`). */
export const inProcessFew: ChunkerPoolShape = chunkedInProcess(true)

export const ChunkerPool = Context.Reference<ChunkerPoolShape>("cairn/ports/ChunkerPool", {
  defaultValue: () => inProcess
})
