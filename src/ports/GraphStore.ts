/**
 * Port: the relations between notes, for graph expansion and link consensus. Edges are between
 * notes (documents or modules), as their authors wrote them (`## Relations` verbs) or as analysis
 * observed them (links, mentions, imports).
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export interface NoteEdge {
  readonly from: string
  readonly to: string
  /** `depends_on`, `implements`, … as written; analyzer kinds as `links-to`, `imports`, … */
  readonly verb: string
}

export class GraphStoreError extends Schema.TaggedError<GraphStoreError>()("GraphStoreError", {
  detail: Schema.String
}) {
  override get message(): string {
    return `graph store unavailable: ${this.detail}; rebuild or reopen the index`
  }
}

export class GraphStore extends Context.Service<GraphStore, {
  /**
   * Every edge with an endpoint among `notes`, outbound and inbound, sorted by (from, to, verb).
   * An edge to a note the store does not hold is kept: `related` reports what the author wrote.
   */
  edgesOf(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<NoteEdge>, GraphStoreError>
}>()("cairn/ports/GraphStore") {}
