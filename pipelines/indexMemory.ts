/**
 * What a long-lived process carries from one index run to the next, so that a refresh costs what
 * changed rather than what the repository holds: the last snapshot with the scan cache whose memo
 * tables know its canonical forms and JSON, the fingerprint and snapshot of the last commit, and
 * the embedder restored from the index. A one-shot process has none and reads the same things back
 * from `.cairn/`. One index run at a time may use a memory; it is updated only after a commit.
 */
import type { Snapshot } from "../src/domain/Snapshot.ts"
import type { ScanCache } from "../src/discovery/ScanCache.ts"
import type { TextEncoderModel } from "../src/index/HashingEmbedder.ts"

export interface IndexMemory {
  /** The snapshot the last run produced and committed. */
  snapshot: Snapshot | undefined
  /** The scan cache of that run: its stamps are the committed scan's files. */
  cache: ScanCache | undefined
  /** The scan fingerprint that run ran under (`Unchanged.scanFingerprint`). */
  fingerprint: string | undefined
  /** The embedder of the stored vectors; good while the index's vector space has its version. */
  encoder: TextEncoderModel | undefined
  /**
   * Whether `.cairn/` describes `snapshot`. A long-lived process writes the snapshot and scan cache
   * files after its first run and then only when asked (`saveIndexMemory`), since writing 30 MB per
   * refresh would cost more than the refresh; files that lag behind the index only make a later
   * process's first scan slower, never wrong.
   */
  saved: boolean | undefined
}

export const make = (): IndexMemory => ({ snapshot: undefined, cache: undefined, fingerprint: undefined, encoder: undefined, saved: undefined })
