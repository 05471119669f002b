/**
 * Every graph signal of one snapshot at once, for the command line and reports. Each signal is also
 * available on its own from its module.
 */
import { Effect } from "effect"
import type { Coverage, Snapshot } from "../domain/Snapshot.ts"
import { areaSuggestions } from "./AreaSuggestions.ts"
import type { CanonicalDocument } from "./Canonicality.ts"
import { canonicalityRanking } from "./Canonicality.ts"
import type { Centrality } from "./Centrality.ts"
import { centrality } from "./Centrality.ts"
import type { ImportCycles } from "./Cycles.ts"
import { importCycles } from "./Cycles.ts"
import type { GraphOptions } from "./GraphOptions.ts"

export interface GraphSignals {
  /** Every document, most canonical first. */
  readonly canonical: ReadonlyArray<CanonicalDocument>
  readonly centrality: Centrality
  readonly cycles: ImportCycles
  /** Coverage entries, `analyzer: graph`, one per suggested directory. */
  readonly suggestions: ReadonlyArray<Coverage>
}

export const graphSignals = Effect.fn("graph.signals")(function*(snapshot: Snapshot, options: Partial<GraphOptions> = {}) {
  return {
    canonical: canonicalityRanking(snapshot, options),
    centrality: yield* centrality(snapshot, options),
    cycles: importCycles(snapshot, options),
    suggestions: yield* areaSuggestions(snapshot, options)
  } satisfies GraphSignals
})
