/**
 * The notes of an index run as a stream of chunked parts: the notes are taken a part at a time,
 * each part's files read, redacted, dated by git blame and chunked, and handed on, so the next step
 * can write a part before the next is read. Memory is bounded by the part: nothing holds the
 * repository's texts or chunks at once.
 */
import { Effect, Option, Path, Stream } from "effect"
import * as NodeFs from "node:fs"
import type { Chunk } from "../src/domain/Chunk.ts"
import { decodeText, isBinary } from "../src/discovery/FileContent.ts"
import type { UnitStash } from "../src/languages/UnitStash.ts"
import { contentHash } from "../src/source/Hashing.ts"
import type { Redacted } from "../src/discovery/SecretScan.ts"
import type { ChunkFileInput } from "../src/index/chunk/ChunkFile.ts"
import type * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"
import { compareIds } from "../src/domain/Ranking.ts"
import { ChunkerPool } from "../src/ports/ChunkerPool.ts"
import { collectHeap } from "../layers/node/HeapCollect.ts"
import { History } from "../src/ports/History.ts"
import type { RebuildPart } from "../src/ports/IndexStore.ts"
import type { TokenCounterShape } from "../src/ports/TokenCounter.ts"

/**
 * Notes per part: enough that a part keeps the chunker's worker busy (one starts per part), few
 * enough that a part's texts and chunks are a few megabytes.
 */
export const NOTES_PER_PART = 500

/** A part of the run: its notes (those read) with all their chunks, and the notes that could not be read. */
export interface ChunkedPart extends RebuildPart {
  readonly unread: ReadonlyArray<string>
}

/**
 * A file's bytes, read synchronously: for 12,000 files that took 2.6 s through the asynchronous
 * `FileSystem` and a fraction of that here (see SourceTreeNode). Undefined when the file cannot be
 * read now (gone since the scan, no permission, a directory): that note alone is left out.
 */
const readBytes = (file: string): Uint8Array | undefined => {
  try {
    return NodeFs.readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * The order notes are chunked in: by path with the separator of their chunk ids after it, which
 * is the order of their chunks' ids, so the parts' chunks arrive in id order as one batch's are
 * written (a path that itself holds `#` aside).
 */
const byChunkIds = (a: string, b: string) => compareIds(`${a}#`, `${b}#`)

export interface NoteChunksOptions {
  readonly root: string
  readonly notes: ReadonlyArray<string>
  /** Each note's content hash, as the index records it. */
  readonly hashes: ReadonlyMap<string, string>
  /** As discovery redacts a file, so no chunk holds a secret the snapshot does not. */
  readonly redact: (path: string, text: string) => Redacted
  readonly counter: TokenCounterShape
  readonly chunking: ChunkingConfig.ChunkingConfig
  /** The units the scan's parse gave, taken for a file whose bytes are still the ones parsed. */
  readonly units?: UnitStash | undefined
  /** Files chunked so far, of all the run's. */
  readonly onChunked: (done: number, total: number) => void
  readonly notesPerPart?: number
}

/**
 * The chunks of `notes`, a part at a time, with the age of the words from git blame when the root
 * is a work tree. A binary file (discovery's test, on the bytes read here) is recorded without
 * chunks; a file that cannot be read is named in `unread` and not recorded, so the index does not
 * claim to hold it.
 */
export const noteChunks = (options: NoteChunksOptions) => {
  const { root, hashes, redact, counter, chunking, units } = options
  const total = options.notes.length
  const perPart = options.notesPerPart ?? NOTES_PER_PART
  const parted = total > perPart
  let done = 0
  // One chunker session for the run: its workers start once and serve every part.
  return Stream.unwrap(Effect.map(Effect.flatMap(ChunkerPool, (pool) => pool.session), (chunker) =>
    Stream.fromIterable([...options.notes].sort(byChunkIds)).pipe(
      Stream.grouped(perPart),
      Stream.mapEffect(Effect.fn("noteChunks.part")(function*(notes) {
        // The last part is written and let go: collected now, the heap stays near one part's size.
        // Before the first, what goes is the scan's: its pages are handed back too. A run of one
        // part (a refresh) holds little, and a collection would cost it more than it saves.
        if (parted && done === 0) collectHeap({ release: true })
        const path = yield* Path.Path
        const history = yield* Effect.serviceOption(History)
        const isRepository = Option.isSome(history) ? yield* history.value.isRepository : false
        const blames = isRepository && Option.isSome(history) ? yield* history.value.blameAll(notes) : undefined
        const requests: Array<ChunkFileInput> = []
        const unread: Array<string> = []
        const read: Array<string> = []
        for (const note of notes) {
          const bytes = readBytes(path.join(root, note))
          if (bytes === undefined) {
            unread.push(note)
            continue
          }
          read.push(note)
          if (isBinary(bytes)) continue
          const blame = blames === undefined ? undefined : Option.getOrUndefined(blames.get(note) ?? Option.none())
          const { text } = redact(note, decodeText(bytes))
          const parsed = units?.holds(note) === true ? units.take(note, yield* contentHash(bytes, false)) : undefined
          requests.push({ path: note, text, ...(blame === undefined ? {} : { history: blame }), ...(parsed === undefined ? {} : { units: parsed }) })
        }
        const before = done
        const chunks: ReadonlyArray<Chunk> = (yield* chunker.chunkAll(requests, counter, (files) => options.onChunked(before + files, total), chunking)).flat()
        done += notes.length
        options.onChunked(done, total)
        return { notes: read.map((note) => ({ id: note, contentHash: hashes.get(note)! })), chunks, unread } satisfies ChunkedPart
      })),
      // One part chunked ahead: the worker chunks the next part while this thread writes the last.
      Stream.buffer({ capacity: 1 })
    )))
}
