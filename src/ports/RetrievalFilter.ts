/**
 * The filter every retrieval leg honours: which chunks a query may see at all. The same predicate
 * runs inside an index (so a leg still returns `limit` hits) and again over materialised
 * candidates, so superseded words cannot reach a pack through a leg that filters loosely.
 */
import { Schema } from "effect"
import type { Chunk } from "../domain/Chunk.ts"
import { NoteType } from "../domain/Chunk.ts"
import { instantMillis, IsoInstant } from "../domain/Instant.ts"

export const RetrievalFilter = Schema.Struct({
  /** Only chunks of these note types; absent or empty means every type. */
  types: Schema.optional(Schema.Array(NoteType)),
  /**
   * Only chunks whose words are at least this recent (`provenance.createdAt >= since`); a chunk
   * whose age is unknown or unreadable is kept, because absence of a date is not evidence of age.
   */
  since: Schema.optional(IsoInstant),
  /**
   * Only chunks under one of these repository-relative paths, matched on whole path segments
   * (`docs` admits `docs/a.md` and `docs`, not `docs-old/a.md`); absent or empty means everywhere.
   */
  pathPrefixes: Schema.optional(Schema.Array(Schema.String)),
  /** Admit superseded chunks (trust state or status `superseded`). Default false. */
  includeSuperseded: Schema.optional(Schema.Boolean)
})
export type RetrievalFilter = typeof RetrievalFilter.Type

/** No caller clauses: everything except superseded chunks. */
export const defaults: RetrievalFilter = {}

export const decode = Schema.decodeUnknownEffect(RetrievalFilter)

const underPrefix = (path: string, prefix: string): boolean => {
  const bare = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix
  if (bare === "") return true
  return path === bare || path.startsWith(`${bare}/`)
}

/** The fields of a chunk the filter reads, so an index can test a row without materialising its text. */
export interface FilterSubject {
  readonly path: Chunk["path"]
  readonly noteType: Chunk["noteType"]
  readonly status: Chunk["status"]
  readonly provenance: Pick<Chunk["provenance"], "state" | "createdAt">
}

/**
 * Compiles a filter once into a predicate (the date is parsed here, not per chunk). Indexes call
 * this per query and then test every candidate.
 */
export const compile = (filter: RetrievalFilter): (chunk: FilterSubject) => boolean => {
  const types = filter.types !== undefined && filter.types.length > 0 ? new Set(filter.types) : undefined
  const since = filter.since === undefined ? Number.NaN : instantMillis(filter.since)
  const prefixes = filter.pathPrefixes !== undefined && filter.pathPrefixes.length > 0 ? filter.pathPrefixes : undefined
  const includeSuperseded = filter.includeSuperseded === true
  return (chunk) => {
    if (!includeSuperseded && (chunk.provenance.state === "superseded" || chunk.status === "superseded")) return false
    if (types !== undefined && !types.has(chunk.noteType)) return false
    if (!Number.isNaN(since) && chunk.provenance.createdAt !== null) {
      // NaN (an unreadable date) compares false, so such a chunk is kept like an unknown one.
      if (instantMillis(chunk.provenance.createdAt) < since) return false
    }
    if (prefixes !== undefined && !prefixes.some((prefix) => underPrefix(chunk.path, prefix))) return false
    return true
  }
}

/** Whether `chunk` passes `filter`. Pure; equal to `compile(filter)(chunk)`. */
export const matchesFilter = (chunk: Chunk, filter: RetrievalFilter): boolean => compile(filter)(chunk)
