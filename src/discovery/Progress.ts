/** What a running scan reports as it goes, for progress bars on long scans. */
import type { Snapshot } from "../domain/Snapshot.ts"

export type Phase = "listing" | "configuration" | "modules" | "documents" | "assembling"

export interface Progress {
  readonly _tag: "Progress"
  readonly phase: Phase
  /** Files listed so far (final once listing ends). */
  readonly seen: number
  /** Files whose outcome is known, out of `total` to analyse. */
  readonly done: number
  readonly total: number
  /** Files parsed by an analyzer. */
  readonly parsed: number
  /** Files taken from the previous snapshot without parsing. */
  readonly reused: number
}

export interface Completed {
  readonly _tag: "Completed"
  readonly snapshot: Snapshot
}

export type DiscoveryEvent = Progress | Completed
