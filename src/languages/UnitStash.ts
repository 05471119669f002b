/**
 * The units discovery's parse of a file gave, kept for the chunker of the same run, so a file read
 * with tree-sitter is parsed once rather than twice. Each entry names the content hash of the bytes
 * parsed; the chunker takes it only for the same bytes, and taking it lets it go. What the stash
 * holds is bounded: past `maxBytes`, files are left for the chunker to parse, which gives the same
 * chunks.
 */
import { byteSize, type PackedUnits } from "./PackedUnits.ts"

/** About a hundred bytes a declaration: 32 MiB holds the units of a few hundred thousand. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024

export interface UnitStash {
  readonly put: (path: string, contentHash: string, units: PackedUnits) => void
  /** Whether units of some bytes of `path` are kept: a caller need not hash the bytes it holds otherwise. */
  readonly holds: (path: string) => boolean
  /** The units parsed from these bytes of `path`, once; undefined if none were kept for them. */
  readonly take: (path: string, contentHash: string) => PackedUnits | undefined
  /** Bytes held now. */
  readonly heldBytes: () => number
}

export const make = (maxBytes: number = DEFAULT_MAX_BYTES): UnitStash => {
  const entries = new Map<string, { readonly contentHash: string; readonly units: PackedUnits }>()
  let held = 0
  const drop = (path: string) => {
    const entry = entries.get(path)
    if (entry === undefined) return
    entries.delete(path)
    held -= byteSize(entry.units)
  }
  return {
    put: (path, contentHash, units) => {
      drop(path)
      const size = byteSize(units)
      if (held + size > maxBytes) return
      entries.set(path, { contentHash, units })
      held += size
    },
    holds: (path) => entries.has(path),
    take: (path, contentHash) => {
      const entry = entries.get(path)
      drop(path)
      return entry !== undefined && entry.contentHash === contentHash ? entry.units : undefined
    },
    heldBytes: () => held
  }
}
