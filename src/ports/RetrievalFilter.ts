/**
 * The filter every retrieval leg honours: which chunks a query may see at all. The same predicate
 * runs inside an index (so a leg still returns `limit` hits) and again over materialised
 * candidates, so superseded words cannot reach a pack through a leg that filters loosely.
 */
import { Schema } from "effect"
import type { Chunk } from "../domain/Chunk.ts"
import { instantMillis } from "../domain/Instant.ts"
import { QueryFilters } from "../domain/Query.ts"

/** The filter's shape is the query's own `filters` (one type, see `domain/Query.ts`). */
export const RetrievalFilter = QueryFilters
export type RetrievalFilter = QueryFilters

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
  const prefixes = filter.paths !== undefined && filter.paths.length > 0 ? filter.paths : undefined
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
