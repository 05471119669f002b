/**
 * Remembers, per path, the content hash a scan computed and the stamp (size, modification time,
 * inode) the file had then. A later scan in the same process that sees the same stamp trusts the
 * hash instead of reading the file again, the way git's index trusts its stat data. It only saves
 * reads: reuse is still decided by comparing hashes with the previous snapshot.
 */

export interface HashCache {
  readonly lookup: (path: string, stamp: string) => string | undefined
  readonly remember: (path: string, stamp: string, hash: string) => void
}

export const make = (): HashCache => {
  const entries = new Map<string, { readonly stamp: string; readonly hash: string }>()
  return {
    lookup: (path, stamp) => {
      const entry = entries.get(path)
      return stamp !== "" && entry !== undefined && entry.stamp === stamp ? entry.hash : undefined
    },
    remember: (path, stamp, hash) => {
      if (stamp !== "") entries.set(path, { stamp, hash })
    }
  }
}
