/**
 * The trust rung and the lifecycle status a note declares in its frontmatter. They share the word
 * "superseded" but answer different questions: the rung ranks the words, the status says whether
 * the author still stands behind the note.
 */
import type { NoteStatus, TrustState } from "../../domain/Chunk.ts"
import { type Fields, flag, present, text } from "./Frontmatter.ts"

const statusWord = (fields: Fields): string => text(fields, "status")?.toLowerCase() ?? ""

const isSuperseded = (fields: Fields): boolean => statusWord(fields) === "superseded" || present(fields, "superseded_by")

/**
 * `superseded` when `status: superseded` or a `superseded_by` is set; `stale` for `stale: true` or
 * `status: stale`; `verified` for `verified: true` (or a verification date); `accepted` for
 * `status: accepted`; else `unverified`. Earlier rules win: a superseded note stays superseded even
 * if it was once verified.
 */
export const trustStateOf = (fields: Fields): TrustState => {
  if (isSuperseded(fields)) return "superseded"
  const status = statusWord(fields)
  if (flag(fields, "stale") || status === "stale") return "stale"
  const verified = fields["verified"]
  if (flag(fields, "verified") || verified instanceof Date || (typeof verified === "string" && /^\d{4}-\d{2}-\d{2}/.test(verified.trim()))) {
    return "verified"
  }
  if (status === "accepted") return "accepted"
  return "unverified"
}

/** `superseded` as above, `deprecated` for `status: deprecated`, else `current`. */
export const noteStatusOf = (fields: Fields): NoteStatus =>
  isSuperseded(fields) ? "superseded" : statusWord(fields) === "deprecated" ? "deprecated" : "current"
