/**
 * Reference backend of `History`: blame held in memory, for tests. A path with no entry has no
 * history, as an untracked file; a path mapped to an error fails as a broken blame would.
 */
import { Effect, Layer, Option } from "effect"
import { type BlameLine, blameEach, History, HistoryError } from "../../src/ports/History.ts"

export type MemoryBlame = ReadonlyArray<BlameLine> | { readonly error: string }

export interface HistoryMemoryOptions {
  /** False stands for a root outside any work tree: every blame is then none. Default true. */
  readonly isRepository?: boolean
}

export const make = (files: Readonly<Record<string, MemoryBlame>>, options: HistoryMemoryOptions = {}): History["Service"] => {
  const isRepository = options.isRepository ?? true
  const blames = new Map(Object.entries(files))
  const blame = (path: string) => {
    const entry = blames.get(path)
    if (!isRepository || entry === undefined) return Effect.succeed(Option.none())
    if ("error" in entry) return Effect.fail(new HistoryError({ path, detail: entry.error }))
    return Effect.succeed(Option.some([...entry].sort((a, b) => a.line - b.line)))
  }
  return History.of({
    isRepository: Effect.succeed(isRepository),
    blame,
    blameAll: (paths) => blameEach(blame, paths, 1)
  })
}

export const layer = (files: Readonly<Record<string, MemoryBlame>>, options?: HistoryMemoryOptions): Layer.Layer<History> =>
  Layer.succeed(History, make(files, options))
