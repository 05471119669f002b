/**
 * Who wrote a chunk's words and when. The age of the words is the newest author time among the
 * chunk's lines when history is known, else the note's declared `updated` or `created` date, else
 * unknown (null), which retrieval treats as fresh and reports. The author is the one who wrote that
 * newest line, else the frontmatter `author`, else its `owner`.
 */
import type { AuthorKind, Provenance, TrustState } from "../../domain/Chunk.ts"
import type { BlameLine } from "../../ports/History.ts"
import { type Fields, instant, text } from "./Frontmatter.ts"

/** ISO-8601 UTC to the second (`2024-05-01T09:30:00Z`). */
export const isoSecond = (millis: number): string => `${new Date(Math.floor(millis / 1000) * 1000).toISOString().slice(0, 19)}Z`

/** ISO-8601 date (`2024-05-01`). */
export const isoDate = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

const ALNUM = /[\p{L}\p{N}]/u

/**
 * True when `pattern` occurs in `name`, ignoring case, without running into a letter or digit at an
 * end where the pattern itself is a letter or digit: `bot@` matches `ci-bot@x` but not `abbot@x`,
 * `-bot` matches `docs-bot` but not `docs-bottle`.
 */
const occurs = (name: string, pattern: string): boolean => {
  const lower = name.toLowerCase()
  const wanted = pattern.toLowerCase()
  const openEnded = [ALNUM.test(wanted.charAt(0)), ALNUM.test(wanted.charAt(wanted.length - 1))] as const
  for (let at = lower.indexOf(wanted); at >= 0; at = lower.indexOf(wanted, at + 1)) {
    const before = at === 0 || !openEnded[0] || !ALNUM.test(lower.charAt(at - 1))
    const after = at + wanted.length === lower.length || !openEnded[1] || !ALNUM.test(lower.charAt(at + wanted.length))
    if (before && after) return true
  }
  return false
}

/** True when any pattern occurs, as a whole word where it begins or ends with one, in any of the names. */
export const isAgent = (patterns: ReadonlyArray<string>, names: ReadonlyArray<string>): boolean =>
  names.some((name) => patterns.some((pattern) => pattern !== "" && occurs(name, pattern)))

/** A file's blame, looked up by line. */
export interface LineHistory {
  readonly byLine: ReadonlyArray<BlameLine | undefined>
  /** The newest line of the whole file. */
  readonly newest: BlameLine | undefined
}

// Newest first; on a tie the earlier line, so the choice never depends on the order blame was given in.
const newer = (a: BlameLine | undefined, b: BlameLine): BlameLine =>
  a === undefined || b.authorTime > a.authorTime || (b.authorTime === a.authorTime && b.line < a.line) ? b : a

const EARLIEST_SECONDS = -62_167_219_200 // 0000-01-01T00:00:00Z
const LATEST_SECONDS = 253_402_300_799 // 9999-12-31T23:59:59Z

export const indexHistory = (lines: ReadonlyArray<BlameLine>): LineHistory => {
  const byLine: Array<BlameLine | undefined> = []
  let newest: BlameLine | undefined
  for (const line of lines) {
    // Four-digit years only: beyond them an ISO string changes shape, and no real commit is there.
    if (line.line < 1 || line.authorTime < EARLIEST_SECONDS || line.authorTime > LATEST_SECONDS) continue
    byLine[line.line] = line
    newest = newer(newest, line)
  }
  return { byLine, newest }
}

/** The newest blamed line in `[start, end]`, 1-based inclusive. */
export const newestIn = (history: LineHistory, start: number, end: number): BlameLine | undefined => {
  let newest: BlameLine | undefined
  for (let line = start; line <= end && line < history.byLine.length; line++) {
    const blamed = history.byLine[line]
    if (blamed !== undefined) newest = newer(newest, blamed)
  }
  return newest
}

const firstName = (fields: Fields, key: string): string | undefined => {
  const value = fields[key]
  if (!Array.isArray(value)) return text(fields, key)
  return value.find((item): item is string => typeof item === "string" && item.trim() !== "")?.trim()
}

/** The frontmatter `author` (a name, or the first of a list), else the `owner` who stands behind the note. */
const declaredAuthor = (fields: Fields): string | undefined => firstName(fields, "author") ?? firstName(fields, "owner")

export interface ProvenanceInput {
  readonly fields: Fields
  readonly history: LineHistory | undefined
  readonly lineStart: number
  readonly lineEnd: number
  readonly state: TrustState
  readonly agentPatterns: ReadonlyArray<string>
}

export const provenanceOf = (input: ProvenanceInput): Provenance => {
  const blamed = input.history === undefined ? undefined : newestIn(input.history, input.lineStart, input.lineEnd)
  const declared = instant(input.fields, "updated") ?? instant(input.fields, "created")
  const createdAt = blamed !== undefined ? isoSecond(blamed.authorTime * 1000) : declared !== undefined ? isoSecond(declared) : null
  // Words not committed yet have an age (the file's modification time) but no author of record.
  const committed = blamed?.uncommitted === true ? undefined : blamed
  const author = committed?.author ?? declaredAuthor(input.fields) ?? null
  const names = committed !== undefined ? [committed.author, committed.authorMail] : author === null ? [] : [author]
  const authorKind: AuthorKind = isAgent(input.agentPatterns, names) ? "agent" : "human"
  return { authorKind, author, createdAt, state: input.state }
}

/** The note's last update as a date: frontmatter `updated`, else the newest blamed line, else `created`, else null. */
export const updatedOf = (fields: Fields, history: LineHistory | undefined): string | null => {
  const updated = instant(fields, "updated")
  if (updated !== undefined) return isoDate(updated)
  if (history?.newest !== undefined) return isoDate(history.newest.authorTime * 1000)
  const created = instant(fields, "created")
  return created === undefined ? null : isoDate(created)
}
