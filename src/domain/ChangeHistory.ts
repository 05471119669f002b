/**
 * A repository's recent history as the co-change leg reads it: what the `CoChange` port answers
 * and `src/retrieval/coChange.ts` ranks from, so the port and its backends need no stage helper.
 */

/** The commits a history holds, newest first, over one table of paths. */
export interface ChangeHistory {
  /** The commit the history ends at. */
  readonly head: string
  /** Root-relative paths, each once. */
  readonly paths: ReadonlyArray<string>
  /** Each commit's changed paths as indices into `paths`; empty for a commit too large to keep. */
  readonly commits: ReadonlyArray<ReadonlyArray<number>>
}
