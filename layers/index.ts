/**
 * `cairn/layers`: the shipped backends of every port, grouped by backend, and the named layer sets.
 * `reference` is in memory and deterministic (tests, ablations, the bench's default); `sqlite` is
 * the embedded index; `node` reads the file system and git and runs worker threads; `tokens` holds
 * the cl100k counters; `http-models` speaks to embedding and rerank models over HTTP (docs/models.md).
 * (TokenCounterWasm, a comparison counter for the benches, needs the optional
 * `tiktoken` package and is not exported here.)
 */
import "../src/EffectAmbient.ts"
export * as Embedded from "./Embedded.ts"
export * as Recall from "./Recall.ts"
export * as Stages from "./Stages.ts"

export * as CandidateStoreMemory from "./reference/CandidateStoreMemory.ts"
export * as EmbedderMemory from "./reference/EmbedderMemory.ts"
export * as GraphStoreMemory from "./reference/GraphStoreMemory.ts"
export * as HistoryMemory from "./reference/HistoryMemory.ts"
export * as IndexHealthMemory from "./reference/IndexHealthMemory.ts"
export * as LexicalIndexMemory from "./reference/LexicalIndexMemory.ts"
export * as NoteSignalsMemory from "./reference/NoteSignalsMemory.ts"
export * as Reference from "./reference/Reference.ts"
export * as RerankerMemory from "./reference/RerankerMemory.ts"
export * as SnapshotStoreMemory from "./reference/SnapshotStoreMemory.ts"
export * as SourceTreeMemory from "./reference/SourceTreeMemory.ts"
export * as VectorIndexMemory from "./reference/VectorIndexMemory.ts"

export * as CandidateStoreSqlite from "./sqlite/CandidateStoreSqlite.ts"
export * as ConsistentReadSqlite from "./sqlite/ConsistentReadSqlite.ts"
export * as Database from "./sqlite/Database.ts"
export * as EmbeddingCacheSqlite from "./sqlite/EmbeddingCacheSqlite.ts"
export * as EmbedderSqlite from "./sqlite/EmbedderSqlite.ts"
export * as GraphStoreSqlite from "./sqlite/GraphStoreSqlite.ts"
export * as IndexHealthSqlite from "./sqlite/IndexHealthSqlite.ts"
export * as IndexStoreSqlite from "./sqlite/IndexStoreSqlite.ts"
export * as LexicalIndexSqlite from "./sqlite/LexicalIndexSqlite.ts"
export * as VectorIndexSqlite from "./sqlite/VectorIndexSqlite.ts"

export * as EmbedderHttp from "./http-models/EmbedderHttp.ts"
export * as ModelConfig from "./http-models/ModelConfig.ts"
export * as ModelRequest from "./http-models/ModelRequest.ts"
export * as RerankerHttp from "./http-models/RerankerHttp.ts"

export * as AnalyzerPoolNode from "./node/AnalyzerPoolNode.ts"
export * as ChunkerPoolNode from "./node/ChunkerPoolNode.ts"
export * as HistoryGit from "./node/HistoryGit.ts"
export * as SnapshotStoreFile from "./node/SnapshotStoreFile.ts"
export * as SourceTreeNode from "./node/SourceTreeNode.ts"
export * as TrainingNode from "./node/TrainingNode.ts"

export * as TokenCounterApproximate from "./tokens/TokenCounterApproximate.ts"
export * as TokenCounterDefault from "./tokens/TokenCounterDefault.ts"
export * as TokenCounterJs from "./tokens/TokenCounterJs.ts"
