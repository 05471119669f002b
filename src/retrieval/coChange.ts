/**
 * Co-change: the files a repository's history changed together with the files a query found. Code
 * that must change together often shares no import and no word (a handler and its schema, a parser
 * and its printer), and the log knows it. The history has no opinion of the query, so it only ever
 * steps from seeds the first pass already ranked. A pair counts once per commit that changed both;
 * a commit touching more than `maxFiles` files (a rename sweep, a formatting pass) says nothing of
 * any one pair and is skipped. Each seed's neighbours are ranked by how often they changed with
 * it, and the first `skipTop` are left out: those are the hubs every change touches (an index, a
 * changelog, the package manifest), which would otherwise displace the specific coupling. A
 * neighbour scores `seed weight × count / √(changes of the seed × changes of the neighbour)`,
 * summed over seeds: two seeds that both changed with a file are two pieces of evidence.
 */
import { byScoreThen, compareIds } from "../domain/Ranking.ts"
import type { ChangeHistory } from "../domain/ChangeHistory.ts"
import type { ExpansionSeed } from "./fileExpansion.ts"

export interface CoChangeOptions {
  /** Newest commits read. */
  readonly window: number
  /** A commit touching more files than this is skipped. */
  readonly maxFiles: number
  /** Commits a pair must share to count at all. */
  readonly minCount: number
  /** Each seed's most frequent neighbours left out as hubs. */
  readonly skipTop: number
  /** Neighbours returned at most. */
  readonly limit: number
  /** The neighbour's own factor (a test's weight when the query is not about tests); 1 when absent. */
  readonly weigh?: (path: string) => number
}

export interface CoChanged {
  readonly path: string
  readonly score: number
  /** Commits it shares with the seed that gave it the most. */
  readonly count: number
  /** That seed. */
  readonly via: string
}

/** Which commits of the window touch each path, and how many each path was changed in. */
interface Touches {
  readonly idOf: ReadonlyMap<string, number>
  readonly commitsOf: ReadonlyMap<number, ReadonlyArray<number>>
  readonly changes: Int32Array
}

// One table per history and window: a process asks many questions of one history.
const memo = new WeakMap<ChangeHistory, Map<string, Touches>>()

const touchesOf = (history: ChangeHistory, window: number, maxFiles: number): Touches => {
  const key = `${window}:${maxFiles}`
  let byWindow = memo.get(history)
  if (byWindow === undefined) memo.set(history, (byWindow = new Map()))
  const known = byWindow.get(key)
  if (known !== undefined) return known
  const commitsOf = new Map<number, Array<number>>()
  const changes = new Int32Array(history.paths.length)
  const end = Math.min(window, history.commits.length)
  for (let c = 0; c < end; c++) {
    const changed = history.commits[c]!
    if (changed.length < 2 || changed.length > maxFiles) continue
    for (const id of changed) {
      changes[id]!++
      const list = commitsOf.get(id)
      if (list === undefined) commitsOf.set(id, [c])
      else list.push(c)
    }
  }
  const touches: Touches = { idOf: new Map(history.paths.map((path, id) => [path, id])), commitsOf, changes }
  byWindow.set(key, touches)
  return touches
}

/** The files that changed with `seeds`, best first (ties by path). */
export const coChanged = (history: ChangeHistory, seeds: ReadonlyArray<ExpansionSeed>, options: CoChangeOptions): Array<CoChanged> => {
  if (options.limit <= 0 || seeds.length === 0 || options.window <= 0) return []
  const { idOf, commitsOf, changes } = touchesOf(history, options.window, options.maxFiles)
  const seedIds = new Set(seeds.map((seed) => idOf.get(seed.path)))
  const found = new Map<number, { score: number; best: number; count: number; via: string }>()
  // In path order: a sum of floating-point parts depends on the order it is taken in.
  for (const seed of [...seeds].sort((a, b) => compareIds(a.path, b.path))) {
    const id = idOf.get(seed.path)
    if (id === undefined) continue
    const counts = new Map<number, number>()
    for (const c of commitsOf.get(id) ?? []) {
      for (const other of history.commits[c]!) if (other !== id) counts.set(other, (counts.get(other) ?? 0) + 1)
    }
    // A seed is already ranked, and takes no hub's place: the history lifts the files beside it.
    const ranked = [...counts]
      .filter(([other, count]) => count >= Math.max(1, options.minCount) && !seedIds.has(other))
      .sort((a, b) => b[1] - a[1] || compareIds(history.paths[a[0]]!, history.paths[b[0]]!))
      .slice(Math.max(0, options.skipTop))
    for (const [other, count] of ranked) {
      const path = history.paths[other]!
      const part = (seed.weight * count * (options.weigh?.(path) ?? 1)) / Math.sqrt(changes[id]! * changes[other]!)
      const entry = found.get(other)
      if (entry === undefined) found.set(other, { score: part, best: part, count, via: seed.path })
      else {
        entry.score += part
        if (part > entry.best || (part === entry.best && compareIds(seed.path, entry.via) < 0)) Object.assign(entry, { best: part, count, via: seed.path })
      }
    }
  }
  return [...found]
    .map(([id, entry]): CoChanged => ({ path: history.paths[id]!, score: entry.score, count: entry.count, via: entry.via }))
    .sort(byScoreThen((changed: CoChanged) => changed.path))
    .slice(0, options.limit)
}
