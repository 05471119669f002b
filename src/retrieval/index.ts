/**
 * The recall stages in the order a question meets them, numbered as docs/recall.md numbers them;
 * diversity is listed last before the packer, which takes its order when it packs. Each is a
 * `Context.Service` with its shipped layer beside it; `layers/Stages.ts` bundles them. Helpers live
 * under the stage that owns them (`adjust/`, `conflicts/`, `dedup/`, `pack/`); `terms.ts` and
 * `canonicality.ts` are shared by two stages each and stay beside them, as do the helpers of what
 * runs outside this list: `answerability.ts` and `carrying.ts` (read by gaps and by recall in `pipelines/recall.ts`),
 * `symbolTable.ts` (the symbol leg's table, behind the `SymbolIndex` port), and `fileExpansion.ts`
 * with `coChange.ts` (search's second stage, in `pipelines/search.ts`).
 *
 * Between reduction and fusion the first-pass legs run (lexical, dense and this title/path
 * channel), in `pipelines/legs.ts`, since they read the ports.
 */
/** 0 reduce: a long question reduced to the words that carry it, before any leg runs. */
export * as Reduce from "./reduce.ts"
/** 1 intent: what kind of question it is, for the type weights. */
export * as Intent from "./intent.ts"
/** 2-3 legs: the title/path channel, beside the lexical and dense legs the ports answer. */
export * as TitlePath from "./titlePath.ts"
/** 4 fusion: the legs' rankings fused by reciprocal rank. */
export * as Fuse from "./fuse.ts"
/** 5 graph: expansion from the confident seeds. */
export * as Expand from "./expand.ts"
/** 6 rerank: the optional cross-encoder. */
export * as Rerank from "./rerank.ts"
/** 7 adjust: bounded score factors: type, tests, support, coverage, consensus, freshness, trust. */
export * as Adjust from "./adjust.ts"
/** 8 dedup: near-duplicates folded into one survivor. */
export * as Dedup from "./dedup.ts"
/** — conflicts: contradictions between the survivors. */
export * as Conflicts from "./conflicts.ts"
/** — gaps: what the knowledge base cannot answer. */
export * as Gaps from "./gaps.ts"
/** 9 diversity: the order claims are packed in, spread over notes; the packer applies it. */
export * as Diversity from "./diversity.ts"
/** 9 pack: claims inside the exact token budget. */
export * as Pack from "./pack.ts"
