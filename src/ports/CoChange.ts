/**
 * Port: which files the repository's history changed together (the co-change leg,
 * `src/retrieval/coChange.ts`), as of the commit the work tree is at. A root outside a work tree, a
 * machine without git and a history that cannot be read all answer none: the leg is then reported
 * `skipped` with a gap, never as an empty success.
 */
import { Context } from "effect"
import type { Effect, Option } from "effect"
import type { ChangeHistory } from "../domain/ChangeHistory.ts"

export class CoChange extends Context.Service<CoChange, {
  /** The newest `window` commits' changed paths, newest first; none when there is no history to read. */
  history(window: number): Effect.Effect<Option.Option<ChangeHistory>>
}>()("cairn/ports/CoChange") {}
