/**
 * An indexed passage: one Markdown heading section or one top-level code declaration, with the
 * provenance retrieval ranks it by. Chunks are what every index stores and every candidate names.
 */
import { Schema } from "effect"

/** Stable id of a chunk: `<path>#<blockId>`. */
export const ChunkId = Schema.String.pipe(Schema.brand("cairn/ChunkId"))
export type ChunkId = typeof ChunkId.Type

/** What kind of knowledge a note holds; `code` is source. Decides half-lives and intent weights. */
export const NoteType = Schema.Literals(["decision", "convention", "state", "reference", "note", "code"])
export type NoteType = typeof NoteType.Type

/** Trust rung of the words, from frontmatter; ranks and never withholds (except `superseded`, filtered). */
export const TrustState = Schema.Literals(["verified", "accepted", "unverified", "stale", "superseded"])
export type TrustState = typeof TrustState.Type

export const AuthorKind = Schema.Literals(["human", "agent"])
export type AuthorKind = typeof AuthorKind.Type

/** Lifecycle of the note as its author declared it; distinct from the trust rung. */
export const NoteStatus = Schema.Literals(["current", "superseded", "deprecated"])
export type NoteStatus = typeof NoteStatus.Type

export const Provenance = Schema.Struct({
  authorKind: AuthorKind,
  author: Schema.NullOr(Schema.String),
  /** Age of the words: ISO-8601 UTC to the second, or null when unknown (freshness then stays 1). */
  createdAt: Schema.NullOr(Schema.String),
  state: TrustState
})
export type Provenance = typeof Provenance.Type

export const Chunk = Schema.Struct({
  id: ChunkId,
  /** The note (document or module) this chunk belongs to: its repository-relative path. */
  noteId: Schema.String,
  path: Schema.String,
  title: Schema.String,
  /** Heading path from the note title down to this section; empty for code and preambles. */
  headingPath: Schema.Array(Schema.String),
  /** Text as indexed and quoted, opening with `{title} > {heading path}`. */
  text: Schema.String,
  tags: Schema.Array(Schema.String),
  noteType: NoteType,
  /** 1-based inclusive line range in the source file. */
  lineStart: Schema.Int,
  lineEnd: Schema.Int,
  /** Content-derived id, so an unchanged paragraph keeps it across edits. */
  blockId: Schema.String,
  /** SHA-256 hex of the chunk text. */
  contentSha: Schema.String,
  provenance: Provenance,
  status: NoteStatus,
  /** ISO date (YYYY-MM-DD) the note was last updated, when known. */
  updated: Schema.NullOr(Schema.String),
  /** Nothing but a link or relations list: indexed for the graph, never packed as a claim. */
  isLinkList: Schema.Boolean,
  /** Symbols a code chunk declares; empty for Markdown. */
  symbols: Schema.Array(Schema.String)
})
export type Chunk = typeof Chunk.Type
