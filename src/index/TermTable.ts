/**
 * An exact dictionary from term to dense id, held in typed arrays: the characters of every term in
 * one buffer, open addressing over their hashes. Training meets every distinct term of a corpus,
 * and most occur once (ids, numbers, misspellings); as a `Map` of strings each cost about 80 bytes,
 * which made a file of 100,000 unique headings cost training four times what prose of its size did.
 * Here a term costs its characters and about 12 bytes of numbers, and only the terms a caller asks
 * for are made strings again.
 */

/** FNV-1a over UTF-16 code units: cheap, deterministic, and spread enough for open addressing. */
const hashOf = (term: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

const hashOfUnits = (units: Uint16Array, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ units[i]!, 0x01000193)
  return hash >>> 0
}

/**
 * Frees the memory of buffers no longer needed now, rather than at a full collection, which V8
 * puts off until tens of MB of such memory have built up: on a file of 100,000 unique headings the
 * copies the table outgrew (12 MB) and then the table itself stayed resident to the end of the
 * index run. A detached buffer is freed at once; `transfer` to a larger length, which grows a
 * buffer here, detaches the old one too.
 */
export const release = (...arrays: ReadonlyArray<{ readonly buffer: ArrayBuffer }>): void => {
  for (const array of arrays) array.buffer.transfer(0)
}

export interface TermTable {
  /** Distinct terms seen. */
  readonly size: () => number
  /** The id of `term`, assigning the next one (`size()` before the call) to a new term. */
  readonly idOf: (term: string) => number
  /** The term of an id, as a new string. */
  readonly termOf: (id: number) => string
  /** Frees the table's memory; it is not to be used after. */
  readonly release: () => void
}

export const termTable = (): TermTable => {
  let chars = new Uint16Array(4_096)
  let charsUsed = 0
  // Per id, where its characters start; its end is the next id's start.
  let starts = new Int32Array(1_024)
  let count = 0
  // Slots hold id + 1, 0 for empty; at most three quarters full, so a probe stays short.
  let slots = new Int32Array(2_048)

  const endOf = (id: number) => id + 1 < count ? starts[id + 1]! : charsUsed

  const matches = (id: number, term: string): boolean => {
    const start = starts[id]!
    const end = endOf(id)
    if (end - start !== term.length) return false
    for (let i = 0; i < term.length; i++) if (chars[start + i] !== term.charCodeAt(i)) return false
    return true
  }

  const place = (table: Int32Array, hash: number, id: number) => {
    const mask = table.length - 1
    let slot = hash & mask
    while (table[slot] !== 0) slot = (slot + 1) & mask
    table[slot] = id + 1
  }

  const grow = () => {
    const next = new Int32Array(slots.length * 2)
    // Hashes are not kept per term: recomputing them on the rare growth costs less than 4 bytes each.
    for (let id = 0; id < count; id++) place(next, hashOfUnits(chars, starts[id]!, endOf(id)), id)
    release(slots)
    slots = next
  }

  const append = (term: string): number => {
    if (charsUsed + term.length > chars.length) chars = new Uint16Array(chars.buffer.transfer(2 * Math.max(chars.length * 2, charsUsed + term.length)))
    for (let i = 0; i < term.length; i++) chars[charsUsed + i] = term.charCodeAt(i)
    if (count === starts.length) starts = new Int32Array(starts.buffer.transfer(count * 2 * 4))
    starts[count] = charsUsed
    charsUsed += term.length
    return count++
  }

  return {
    size: () => count,
    idOf: (term) => {
      const hash = hashOf(term)
      const mask = slots.length - 1
      let slot = hash & mask
      for (;;) {
        const held = slots[slot]!
        if (held === 0) break
        if (matches(held - 1, term)) return held - 1
        slot = (slot + 1) & mask
      }
      const id = append(term)
      slots[slot] = id + 1
      if (count * 4 > slots.length * 3) grow()
      return id
    },
    termOf: (id) => {
      const end = endOf(id)
      let term = ""
      // In pieces, as a spread of a long term's code units would overflow the argument limit.
      for (let i = starts[id]!; i < end; i += 4_096) term += String.fromCharCode(...chars.subarray(i, Math.min(end, i + 4_096)))
      return term
    },
    release: () => release(chars, starts, slots)
  }
}
