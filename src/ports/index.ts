/**
 * `cairn/ports`: every I/O boundary of cairn as a `Context.Service` contract, for those who write a
 * backend of their own. The shipped backends are under `cairn/layers`.
 */
import "../EffectAmbient.ts"
export * as CandidateStore from "./CandidateStore.ts"
export * as CoChange from "./CoChange.ts"
export * as ConsistentRead from "./ConsistentRead.ts"
export * as Embedder from "./Embedder.ts"
export * as EmbeddingCache from "./EmbeddingCache.ts"
export * as GraphStore from "./GraphStore.ts"
export * as History from "./History.ts"
export * as IndexHealth from "./IndexHealth.ts"
export * as IndexStore from "./IndexStore.ts"
export * as LexicalIndex from "./LexicalIndex.ts"
export * as NoteSignals from "./NoteSignals.ts"
export * as Reranker from "./Reranker.ts"
export * as RetrievalFilter from "./RetrievalFilter.ts"
export * as SnapshotStore from "./SnapshotStore.ts"
export * as SourceTree from "./SourceTree.ts"
export * as SymbolIndex from "./SymbolIndex.ts"
export * as TokenCounter from "./TokenCounter.ts"
export * as VectorIndex from "./VectorIndex.ts"
// Where the index dataflow's heavy steps run: on the calling fiber by default, or on worker threads.
export * as AnalyzerPool from "./AnalyzerPool.ts"
export * as ChunkerPool from "./ChunkerPool.ts"
export * as Training from "./Training.ts"
