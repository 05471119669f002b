/**
 * Conditions: a named set of Layers and config the whole question set runs under. An ablation is a
 * different condition, never an edited file, and every condition runs on identical questions.
 */
import * as Recall from "../layers/Recall.ts"
import * as TokenCounterApproximate from "../layers/tokens/TokenCounterApproximate.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import * as Dedup from "../src/retrieval/dedup.ts"
import * as Diversity from "../src/retrieval/diversity.ts"

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
  { name: "no-dedup", description: "near-duplicates not collapsed (Dedup.layerOff)", options: { stages: Dedup.layerOff } },
  { name: "no-diversity", description: "plain rank order (Diversity.layerOff)", options: { stages: Diversity.layerOff } },
  { name: "no-graph", description: "graph expansion off (edges still read for related and consensus)", options: { config: { graphExpandLimit: 0 } } },
  { name: "confident-seeds", description: "graphSeedLimit 5: the walk starts from the top five fused seeds a word, title or symbol leg ranked", options: { config: { graphSeedLimit: 5 } } },
  { name: "freshness-off", description: "freshness decay off (floor 1)", options: { config: { freshnessFloor: 1 } } },
  { name: "verification-off", description: "the organisation does not use verification", options: { config: RetrievalConfig.retrievalConfigFor("off") } },
  { name: "approximate-tokens", description: "the approximate counter (four characters a token): an estimate, labelled", options: { tokenCounter: TokenCounterApproximate.layer } },
  { name: "hashing-dense", description: "signed hashing instead of the latent semantic embedder", options: { dense: "hashing" } },
  // The knobs the bench decides: one change per condition against `full`.
  { name: "publish-cap-2", description: "publishCapPerNote 2: packed claims published as the diversity cap filled them", options: { config: { publishCapPerNote: 2 } } },
  { name: "diversity-1", description: "diversityCapPerNote 1: every note once before any note twice", options: { config: { diversityCapPerNote: 1 } } },
  { name: "diversity-3", description: "diversityCapPerNote 3", options: { config: { diversityCapPerNote: 3 } } },
  { name: "diversity-4", description: "diversityCapPerNote 4", options: { config: { diversityCapPerNote: 4 } } },
  { name: "diversity-off", description: "no diversity cap (plain rank order)", options: { config: { diversityCapPerNote: 1_000_000 } } },
  { name: "rerank-limit-8", description: "rerankLimit 8", options: { config: { rerankLimit: 8 } } },
  { name: "rerank-limit-12", description: "rerankLimit 12", options: { config: { rerankLimit: 12 } } },
  { name: "rerank-limit-16", description: "rerankLimit 16", options: { config: { rerankLimit: 16 } } },
  { name: "rerank-limit-20", description: "rerankLimit 20", options: { config: { rerankLimit: 20 } } },
  { name: "canonicality", description: "graph canonicality as a stage-7 factor, canonicalityFloor 0.8", options: { config: { canonicalityFloor: 0.8 } } },
  { name: "canonicality-0.9", description: "graph canonicality as a stage-7 factor, canonicalityFloor 0.9", options: { config: { canonicalityFloor: 0.9 } } },
  { name: "test-files-off", description: "tests, fixtures and benches weighed as any file (testFileWeight 1)", options: { config: { testFileWeight: 1 } } },
  { name: "test-files-0.7", description: "testFileWeight 0.7", options: { config: { testFileWeight: 0.7 } } },
  { name: "code-outline", description: "code claims packed as outlines, bodies elided (codeEvidence outline)", options: { config: { codeEvidence: "outline" } } },
  { name: "relevance-only", description: "stage 7 switched to the relevance-only composition", options: { config: { typeWeightStrength: 0, testFileWeight: 1, supportFloor: 1, coverageFloor: 1, noteCoverageFloor: 1, linkConsensusFloor: 1, freshnessFloor: 1 } } }
]

export const conditionNamed = (name: string): Condition | undefined => CONDITIONS.find((c) => c.name === name)
