/**
 * How a damaged index file is noticed. A writable connection, once closed, records the file's size
 * and modification time beside it (`<file>.stamp`). A file found otherwise at the next open was
 * changed by something other than cairn (a copy, a truncation, a disk fault) or by a cairn killed
 * before it closed, and gets `PRAGMA quick_check` before anything reads it; an unchanged one is
 * trusted, so an open costs no scan of the file. Wherever it comes from, an SQLite error saying
 * the file is corrupt is damage too.
 */
import * as NodeFs from "node:fs"
import type { DatabaseSync } from "node:sqlite"

// SQLITE_CORRUPT, whose extended codes (a vtab's, an index's) share its low byte, and SQLITE_NOTADB.
const SQLITE_CORRUPT = 11
const SQLITE_NOTADB = 26

/** What every SQLite database file starts with. */
const MAGIC = Buffer.from("SQLite format 3\u0000", "latin1")

interface Stamp {
  readonly size: number
  readonly mtimeMs: number
}

/** Where the stamp of the index at `file` is kept. */
export const stampPath = (file: string): string => `${file}.stamp`

const stampOf = (file: string): Stamp | undefined => {
  try {
    const info = NodeFs.statSync(file)
    // Whole milliseconds: what every file system and tool that sets times keeps alike.
    return { size: info.size, mtimeMs: Math.trunc(info.mtimeMs) }
  } catch {
    return undefined
  }
}

/**
 * Records the file as it is now, its connection closed. A stamp that cannot be written costs only
 * a check at the next open, so failing to write one is not an error.
 */
export const recordStamp = (file: string): void => {
  const stamp = stampOf(file)
  if (stamp === undefined) return
  try {
    NodeFs.writeFileSync(stampPath(file), JSON.stringify(stamp))
  } catch {
    // A read-only folder, a full disk: the next open checks the file instead.
  }
}

/** Whether the file is not as the last writable connection left it (or none recorded it). */
export const movedSinceStamp = (file: string): boolean => {
  const now = stampOf(file)
  // Nothing to damage: no file, or an empty one the open is about to give a schema.
  if (now === undefined || now.size === 0) return false
  try {
    const stamp = JSON.parse(NodeFs.readFileSync(stampPath(file), "utf8")) as Partial<Stamp> | null
    return stamp?.size !== now.size || stamp.mtimeMs !== now.mtimeMs
  } catch {
    return true
  }
}

/** `PRAGMA quick_check`'s first findings, joined, or undefined when the file passes. */
export const quickCheck = (db: DatabaseSync): string | undefined => {
  const rows = db.prepare("PRAGMA quick_check(3)").all() as Array<{ quick_check: unknown }>
  // One finding can span lines ("*** in database main ***" above its cells): the detail is one line.
  const findings = rows.flatMap((row) => String(row.quick_check).split(/\r?\n/)).map((line) => line.trim())
    .filter((finding) => finding !== "" && finding !== "ok")
  return findings.length === 0 ? undefined : findings.join("; ")
}

const errcodeOf = (error: unknown): number | undefined => {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === "number" ? code : undefined
}

/** Whether `error` is SQLite saying the file it reads is corrupt. */
export const isCorruption = (error: unknown): boolean => {
  const code = errcodeOf(error)
  if (code !== undefined) return (code & 0xff) === SQLITE_CORRUPT
  return error instanceof Error && /database disk image is malformed/.test(error.message)
}

/** Whether `error` is SQLite finding no database in the file. */
export const isNotADatabase = (error: unknown): boolean => errcodeOf(error) === SQLITE_NOTADB

/**
 * Whether the file starts as a database does: a file that does but cannot be read as one is a
 * damaged database, one that does not is somebody else's file.
 */
export const hasDatabaseHeader = (file: string): boolean => {
  try {
    const fd = NodeFs.openSync(file, "r")
    try {
      const head = Buffer.alloc(MAGIC.length)
      return NodeFs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(MAGIC)
    } finally {
      NodeFs.closeSync(fd)
    }
  } catch {
    return false
  }
}
