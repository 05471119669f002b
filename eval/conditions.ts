/**
 * Conditions: a named set of Layers and config the whole question set runs under. An ablation is a
 * different condition, never an edited file, and every condition runs on identical questions.
 */
import * as Recall from "../layers/Recall.ts"
import * as TokenCounterApproximate from "../layers/tokens/TokenCounterApproximate.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"

export interface Condition {
  readonly name: string
  readonly description: string
  readonly options: Recall.ReferenceOptions
}

export const CONDITIONS: ReadonlyArray<Condition> = [
  { name: "full", description: "every stage, the latent semantic dense leg on", options: {} },
  { name: "no-dense", description: "the dense leg removed", options: { dense: "none" } },
  {
    name: "bm25-only",
    description: "BM25 alone: no dense leg, no title/path channel, no graph expansion",
    options: { dense: "none", config: { titlePathLimit: 0, graphExpandLimit: 0 } }
  },
  { name: "no-graph", description: "graph expansion off (edges still read for related and consensus)", options: { config: { graphExpandLimit: 0 } } },
  { name: "freshness-off", description: "freshness decay off (floor 1)", options: { config: { freshnessFloor: 1 } } },
  { name: "verification-off", description: "the organisation does not use verification", options: { config: RetrievalConfig.retrievalConfigFor("off") } },
  { name: "approximate-tokens", description: "the approximate counter (four characters a token): an estimate, labelled", options: { tokenCounter: TokenCounterApproximate.layer } },
  { name: "hashing-dense", description: "signed hashing instead of the latent semantic embedder", options: { dense: "hashing" } }
]

export const conditionNamed = (name: string): Condition | undefined => CONDITIONS.find((c) => c.name === name)
