/**
 * Token counts of pre-token pieces, looked up by a stretch of a text rather than by a string: a
 * hit (nearly every piece of real text) compares characters in place, so counting allocates
 * nothing per piece. Open addressing over FNV-1a hashes; starts small and doubles up to its limit,
 * then starts over, which bounds its memory.
 */

const INITIAL_SLOTS = 1 << 12

const hashOf = (text: string, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash
}

export interface PieceMemo {
  /** The count remembered for `text.slice(start, end)`, or -1. */
  readonly get: (text: string, start: number, end: number) => number
  readonly set: (piece: string, count: number) => void
}

export const make = (limit: number): PieceMemo => {
  let keys: Array<string | undefined> = new Array(INITIAL_SLOTS)
  let hashes = new Int32Array(INITIAL_SLOTS)
  let counts = new Int32Array(INITIAL_SLOTS)
  let size = 0

  const put = (piece: string, hash: number, count: number): void => {
    const mask = keys.length - 1
    let slot = hash & mask
    for (let key = keys[slot]; key !== undefined && key !== piece; key = keys[slot]) slot = (slot + 1) & mask
    if (keys[slot] === undefined) size++
    keys[slot] = piece
    hashes[slot] = hash
    counts[slot] = count
  }

  const grow = (): void => {
    const old = { keys, hashes, counts }
    keys = new Array(old.keys.length * 2)
    hashes = new Int32Array(old.keys.length * 2)
    counts = new Int32Array(old.keys.length * 2)
    size = 0
    old.keys.forEach((key, slot) => {
      if (key !== undefined) put(key, old.hashes[slot]!, old.counts[slot]!)
    })
  }

  return {
    get: (text, start, end) => {
      const hash = hashOf(text, start, end)
      const mask = keys.length - 1
      for (let slot = hash & mask;; slot = (slot + 1) & mask) {
        const key = keys[slot]
        if (key === undefined) return -1
        if (hashes[slot] === hash && key.length === end - start && text.startsWith(key, start)) return counts[slot]!
      }
    },
    set: (piece, count) => {
      if (size >= limit) {
        keys = new Array(INITIAL_SLOTS)
        hashes = new Int32Array(INITIAL_SLOTS)
        counts = new Int32Array(INITIAL_SLOTS)
        size = 0
      }
      // At most half full, so probes stay short and a free slot always exists.
      if ((size + 1) * 2 > keys.length) grow()
      put(piece, hashOf(piece, 0, piece.length), count)
    }
  }
}
