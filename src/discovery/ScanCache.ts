/**
 * What a long-lived process may carry from one scan to the next. Nothing in it can change a
 * snapshot; it only spares work:
 *
 * - per path, the content hash computed last time and the stamp (size, modification time, inode)
 *   the file had then: an unchanged stamp stands in for reading and hashing the file again, the way
 *   git's index trusts its stat data;
 * - memo tables of pure functions keyed by object identity (canonical forms, serialised JSON,
 *   fingerprints of a snapshot this process produced), so values reused from the previous
 *   snapshot are not rebuilt.
 *
 * Without one, a scan makes a fresh cache and behaves identically, only slower when warm.
 */
import { compareIds } from "../domain/Ranking.ts"

export interface ScanCache {
  /** The hash remembered for `path` if its stamp is unchanged. */
  readonly hashOf: (path: string, stamp: string) => string | undefined
  readonly rememberHash: (path: string, stamp: string, hash: string) => void
  /** A named memo table; the same name always gives the same table. */
  readonly table: <K extends object, V>(name: string) => WeakMap<K, V>
  /** A named memo table keyed by strings, for values built from text (ignore rules). */
  readonly textTable: <V>(name: string) => Map<string, V>
  /**
   * Starts a scan: from here on the cache notes which paths the scan looks at (a hash taken on
   * trust or read), so that what it persists is exactly the last scan's files.
   */
  readonly startScan: () => void
  /**
   * A cache that starts from this one's hashes and shares its memo tables (pure functions of their
   * keys), but whose later scans leave this one as it is: a scan whose result may not be kept (an
   * index write that can still fail) runs on a fork, which replaces the original once it is kept.
   */
  readonly fork: () => ScanCache
  /**
   * The remembered hashes as `[path, stamp, hash]`, sorted by path: what a process may persist.
   * After a scan, only the files that scan looked at; a vanished file's entry is not carried on.
   */
  readonly hashEntries: () => ReadonlyArray<readonly [string, string, string]>
  /**
   * The stamp `hashEntries` holds for `path`, and how many paths it holds: what a listing is
   * compared with, without building (and sorting) the entries.
   */
  readonly stampOf: (path: string) => string | undefined
  readonly entryCount: () => number
}

/**
 * A cache, optionally seeded with hashes a previous process persisted (so a one-shot CLI run can
 * trust unchanged stamps the way a long-lived process does).
 */
export const make = (seed: ReadonlyArray<readonly [string, string, string]> = []): ScanCache =>
  build(new Map(seed.map(([path, stamp, hash]) => [path, { stamp, hash }] as const)), new Map(), new Map(), undefined)

type Hashes = Map<string, { readonly stamp: string; readonly hash: string }>

const build = (
  hashes: Hashes,
  tables: Map<string, WeakMap<object, unknown>>,
  textTables: Map<string, Map<string, unknown>>,
  scanned: ReadonlySet<string> | undefined
): ScanCache => {
  let seen: Set<string> | undefined = scanned === undefined ? undefined : new Set(scanned)
  const cache: ScanCache = {
    hashOf: (path, stamp) => {
      const entry = hashes.get(path)
      if (stamp === "" || entry === undefined || entry.stamp !== stamp) return undefined
      seen?.add(path)
      return entry.hash
    },
    rememberHash: (path, stamp, hash) => {
      if (stamp === "") return
      hashes.set(path, { stamp, hash })
      seen?.add(path)
    },
    startScan: () => {
      seen = new Set()
    },
    fork: () => build(new Map(hashes), tables, textTables, seen),
    table: <K extends object, V>(name: string) => {
      let table = tables.get(name)
      if (table === undefined) {
        table = new WeakMap()
        tables.set(name, table)
      }
      return table as unknown as WeakMap<K, V>
    },
    stampOf: (path) => (seen === undefined || seen.has(path) ? hashes.get(path)?.stamp : undefined),
    entryCount: () => (seen === undefined ? hashes.size : [...seen].filter((path) => hashes.has(path)).length),
    hashEntries: () =>
      [...hashes]
        .filter(([path]) => seen === undefined || seen.has(path))
        .map(([path, entry]) => [path, entry.stamp, entry.hash] as const)
        .sort(([a], [b]) => compareIds(a, b)),
    textTable: <V>(name: string) => {
      let table = textTables.get(name)
      if (table === undefined) {
        table = new Map()
        textTables.set(name, table)
      }
      return table as Map<string, V>
    }
  }
  return cache
}

/** `compute(key)`, remembered in `table` (for as long as `key` lives, for a weak table). */
export const memo = <K, V>(
  table: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  compute: (key: K) => V
): V => {
  const held = table.get(key)
  if (held !== undefined) return held
  const value = compute(key)
  table.set(key, value)
  return value
}
