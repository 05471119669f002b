/**
 * cairn's public entry point (`import … from "cairn"`): the Promise API, the Effect API with its
 * named layer sets, the ContextPack and its wire codec, the query and configuration, the tagged
 * errors a caller matches on, and the packer and counters. The ports, the backends and the bench
 * runner are the subpaths `cairn/ports`, `cairn/layers` and `cairn/eval`.
 */
import "../src/EffectAmbient.ts"

// The Promise API, for services that do not use Effect.
export { type Cairn, openCairn, type OpenOptions } from "./openCairn.ts"
export { createRecall, type Recall, type RecallOptions } from "./api.ts"

// The Effect API: the pipelines, and the layer sets they run over.
export { recall, type RecallError, type RecallServices, recallTrace, type RecallTrace } from "./recall.ts"
export { compareShadow, ShadowRecord, shadowRecall } from "./shadow.ts"
export { indexLayer, type IndexOptions, type IndexReport, indexRepository, pendingChanges, saveIndexMemory } from "./indexRepository.ts"
export * as IndexMemory from "./indexMemory.ts"
export { embedded, type EmbeddedOptions, type EmbeddedServices } from "../layers/Embedded.ts"
export { reference, type ReferenceOptions } from "../layers/Recall.ts"
export * as Stages from "../layers/Stages.ts"
export * as Boundary from "./boundary.ts"

// The pack, its parts and its wire format (`ContextPack.serialise`, `ContextPack.decodeWire`).
export * as ContextPack from "../src/domain/ContextPack.ts"
export * as Candidate from "../src/domain/Candidate.ts"
export * as Chunk from "../src/domain/Chunk.ts"
export * as Conflict from "../src/domain/Conflict.ts"
export * as Gap from "../src/domain/Gap.ts"
export * as Query from "../src/domain/Query.ts"
export * as Ranking from "../src/domain/Ranking.ts"
export * as ScoreComponents from "../src/domain/ScoreComponents.ts"
export * as RetrievalConfig from "../src/RetrievalConfig.ts"
export * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"

// The tagged errors: match on `_tag` (and `reason._tag` for the families).
export { InvalidInput } from "../src/domain/InvalidInput.ts"
export { ConfigInvalid, DiscoveryError, PreviousInvalid, SnapshotUnwritable, SourceUnreadable } from "../src/domain/DiscoveryError.ts"
export { DatabaseError } from "../layers/sqlite/DatabaseError.ts"
export { IndexWriteError } from "../src/ports/IndexStore.ts"
export { CandidateStoreError } from "../src/ports/CandidateStore.ts"
export { EmbedderError } from "../src/ports/Embedder.ts"
export { GraphStoreError } from "../src/ports/GraphStore.ts"
export { IndexHealthError } from "../src/ports/IndexHealth.ts"
export { LexicalIndexError } from "../src/ports/LexicalIndex.ts"
export { RerankerError } from "../src/ports/Reranker.ts"
export { VectorIndexError } from "../src/ports/VectorIndex.ts"

// Exact token counting and the packer.
export * as TokenCounter from "../src/ports/TokenCounter.ts"
export * as Tokens from "../src/text/TokenCount.ts"
export * as Pack from "../src/retrieval/pack.ts"
export * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
export * as TokenCounterJs from "../layers/tokens/TokenCounterJs.ts"
export * as TokenCounterApproximate from "../layers/tokens/TokenCounterApproximate.ts"
