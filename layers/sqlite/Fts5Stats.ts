/**
 * FTS5's `bm25()` arithmetic in JavaScript, over the statistics FTS5 itself keeps: the row count
 * and token total of the averages record, each row's column sizes, each phrase's row count. With
 * these a row's score is the double FTS5 computes (and LexicalIndexMemory computes), so the
 * lexical index can score a few candidate rows without asking FTS5 to score every match.
 */
import type { DatabaseSync } from "node:sqlite"

// FTS5's constants, fixed in its source; not tunables.
export const K1 = 1.2
export const B = 0.75
export const IDF_FLOOR = 1e-6

/** `log((N - n + 0.5) / (n + 0.5))`, floored at 1e-6 when not positive, as `fts5Bm25GetData` takes it. */
export const idf = (rows: number, hits: number): number => {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5))
  return value <= 0 ? IDF_FLOOR : value
}

/** One row's score: phrases in expression order, `freqs[i]` the column-weighted count of phrase i. */
export const score = (idfs: ReadonlyArray<number>, freqs: ReadonlyArray<number>, length: number, avgdl: number): number => {
  let total = 0
  for (let i = 0; i < idfs.length; i++) {
    const f = freqs[i]!
    total += idfs[i]! * ((f * (K1 + 1)) / (f + K1 * (1 - B + B * length / avgdl)))
  }
  return total
}

/** The unsigned varints of an FTS5 record (SQLite's encoding: 7 bits a byte, a 9th byte of 8). */
export const varints = (bytes: Uint8Array): Array<number> => {
  const out: Array<number> = []
  let at = 0
  while (at < bytes.length) {
    let value = 0
    let used = 0
    for (; used < 8; used++) {
      const byte = bytes[at + used]!
      value = value * 128 + (byte & 0x7f)
      if ((byte & 0x80) === 0) break
    }
    if (used === 8) {
      value = value * 256 + bytes[at + 8]!
      at += 9
    } else {
      at += used + 1
    }
    out.push(value)
  }
  return out
}

export interface Totals {
  /** Rows in the FTS table (`xRowCount`). */
  readonly rows: number
  /** Tokens over every row and column (`xColumnTotalSize(-1)`). */
  readonly tokens: number
}

/** The averages record (`%_data` row 1): the row count, then one token total per column. */
export const totals = (db: DatabaseSync, table: string): Totals => {
  const row = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array } | undefined
  if (row === undefined) return { rows: 0, tokens: 0 }
  const [rows = 0, ...columns] = varints(row.block)
  return { rows, tokens: columns.reduce((sum, n) => sum + n, 0) }
}

/** Each row's token count over all columns (`xColumnSize(-1)`), from `%_docsize`. */
export const rowLengths = (db: DatabaseSync, table: string, rows: ReadonlyArray<number>): Map<number, number> => {
  const found = db.prepare(`SELECT id, sz FROM ${table}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rows)) as Array<{ id: number; sz: Uint8Array }>
  return new Map(found.map((row) => [Number(row.id), varints(row.sz).reduce((sum, n) => sum + n, 0)] as const))
}
