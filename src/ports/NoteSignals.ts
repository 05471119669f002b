/**
 * Port: what the corpus's own structure says about a note, independent of any question. Optional to
 * recall: where no NoteSignals is provided, or it fails, recall has no opinion and every note is
 * treated alike.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export class NoteSignalsError extends Schema.TaggedError<NoteSignalsError>()("NoteSignalsError", {
  detail: Schema.String
}) {
  override get message(): string {
    return `note signals unavailable: ${this.detail}; recall goes on without them, recompute the signals to restore them`
  }
}

export class NoteSignals extends Context.Service<NoteSignals, {
  /**
   * Canonicality of each of `notes` that the signals know, in [0, 1] with the corpus's most
   * canonical note at 1 (PageRank over links, max-normalised). A note it does not know is absent.
   */
  canonicality(notes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, number>, NoteSignalsError>
}>()("cairn/ports/NoteSignals") {}
