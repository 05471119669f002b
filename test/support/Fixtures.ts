/** Builders for chunks and candidates in tests: every field explicit, overridable where it matters. */
import * as Candidate from "../../src/domain/Candidate.ts"
import type { Chunk, ChunkId, NoteType } from "../../src/domain/Chunk.ts"
import type { Query } from "../../src/domain/Query.ts"
import * as ScoreComponents from "../../src/domain/ScoreComponents.ts"

export interface ChunkSpec {
  readonly id: string
  readonly text: string
  readonly noteId?: string
  readonly noteType?: NoteType
  readonly isLinkList?: boolean
  readonly headingPath?: ReadonlyArray<string>
  readonly title?: string
  readonly lineStart?: number
  readonly createdAt?: string | null
}

export const chunk = (spec: ChunkSpec): Chunk => {
  const noteId = spec.noteId ?? spec.id.split("#")[0] ?? spec.id
  return {
    id: spec.id as ChunkId,
    noteId,
    path: noteId,
    title: spec.title ?? noteId,
    headingPath: [...(spec.headingPath ?? [])],
    text: spec.text,
    tags: [],
    noteType: spec.noteType ?? "note",
    lineStart: spec.lineStart ?? 1,
    lineEnd: (spec.lineStart ?? 1) + Math.max(0, spec.text.split("\n").length - 1),
    blockId: spec.id.split("#")[1] ?? "b0",
    contentSha: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    provenance: { authorKind: "human", author: null, createdAt: spec.createdAt ?? null, state: "unverified" },
    status: "current",
    updated: null,
    isLinkList: spec.isLinkList ?? false,
    symbols: []
  }
}

/** A candidate whose score is `score` (as its fusion base, every factor 1). */
export const candidate = (spec: ChunkSpec & { readonly score: number }): Candidate.Candidate =>
  Candidate.withComponents(Candidate.make(chunk(spec), spec.score), ScoreComponents.initial(spec.score))

export const query = (text: string, budgetTokens = 4_000, explain = false): Query => ({
  text,
  budgetTokens,
  filters: {},
  explain
})

export const healthy = { embeddingCoverage: 1, lagSeconds: 0 } as const
