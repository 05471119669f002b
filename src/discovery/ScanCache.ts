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

export interface ScanCache {
  /** The hash remembered for `path` if its stamp is unchanged. */
  readonly hashOf: (path: string, stamp: string) => string | undefined
  readonly rememberHash: (path: string, stamp: string, hash: string) => void
  /** A named memo table; the same name always gives the same table. */
  readonly table: <K extends object, V>(name: string) => WeakMap<K, V>
  /** A named memo table keyed by strings, for values built from text (ignore rules). */
  readonly textTable: <V>(name: string) => Map<string, V>
  /** The remembered hashes as `[path, stamp, hash]`, sorted by path: what a process may persist. */
  readonly hashEntries: () => ReadonlyArray<readonly [string, string, string]>
}

/**
 * A cache, optionally seeded with hashes a previous process persisted (so a one-shot CLI run can
 * trust unchanged stamps the way a long-lived process does).
 */
export const make = (seed: ReadonlyArray<readonly [string, string, string]> = []): ScanCache => {
  const hashes = new Map<string, { readonly stamp: string; readonly hash: string }>(
    seed.map(([path, stamp, hash]) => [path, { stamp, hash }] as const)
  )
  const tables = new Map<string, WeakMap<object, unknown>>()
  const textTables = new Map<string, Map<string, unknown>>()
  return {
    hashOf: (path, stamp) => {
      const entry = hashes.get(path)
      return stamp !== "" && entry !== undefined && entry.stamp === stamp ? entry.hash : undefined
    },
    rememberHash: (path, stamp, hash) => {
      if (stamp !== "") hashes.set(path, { stamp, hash })
    },
    table: <K extends object, V>(name: string) => {
      let table = tables.get(name)
      if (table === undefined) {
        table = new WeakMap()
        tables.set(name, table)
      }
      return table as unknown as WeakMap<K, V>
    },
    hashEntries: () =>
      [...hashes].map(([path, entry]) => [path, entry.stamp, entry.hash] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    textTable: <V>(name: string) => {
      let table = textTables.get(name)
      if (table === undefined) {
        table = new Map()
        textTables.set(name, table)
      }
      return table as Map<string, V>
    }
  }
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
