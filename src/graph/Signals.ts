/**
 * Every graph signal of one snapshot at once, for the command line and reports. Each signal is also
 * available on its own from its module.
 */
import { Effect } from "effect"
import type { Coverage, Snapshot } from "../domain/Snapshot.ts"
import { suggestionsOf } from "./AreaSuggestions.ts"
import { importGraph, undirectedOf } from "./Build.ts"
import type { CanonicalDocument } from "./Canonicality.ts"
import { canonicalityRanking } from "./Canonicality.ts"
import type { Centrality } from "./Centrality.ts"
import { centralityOf } from "./Centrality.ts"
import type { ImportCycles } from "./Cycles.ts"
import { cyclesOf } from "./Cycles.ts"
import type { GraphOptions } from "./GraphOptions.ts"
import { withDefaults } from "./GraphOptions.ts"

export interface GraphSignals {
  /** Every document, most canonical first. */
  readonly canonical: ReadonlyArray<CanonicalDocument>
  readonly centrality: Centrality
  readonly cycles: ImportCycles
  /** Coverage entries, `analyzer: graph`, one per suggested directory. */
  readonly suggestions: ReadonlyArray<Coverage>
}

/** One import graph serves centrality, cycles and (undirected) the communities. */
export const graphSignals = Effect.fn("graph.signals")(function*(snapshot: Snapshot, options: Partial<GraphOptions> = {}) {
  const resolved = withDefaults(options)
  const imports = importGraph(snapshot, resolved)
  return {
    canonical: canonicalityRanking(snapshot, resolved),
    centrality: yield* centralityOf(imports, resolved),
    cycles: cyclesOf(imports, snapshot, resolved.maxCycles),
    suggestions: yield* suggestionsOf(undirectedOf(imports), snapshot, resolved)
  } satisfies GraphSignals
})
