/**
 * cairn's public entry point: the domain, the configuration, the ports and the stages that exist,
 * with their shipped layers. Deeper modules stay importable by path for embedders who need them.
 */
export * as Candidate from "../src/domain/Candidate.ts"
export * as Chunk from "../src/domain/Chunk.ts"
export * as Conflict from "../src/domain/Conflict.ts"
export * as ContextPack from "../src/domain/ContextPack.ts"
export * as Gap from "../src/domain/Gap.ts"
export * as InvalidInput from "../src/domain/InvalidInput.ts"
export * as Query from "../src/domain/Query.ts"
export * as Ranking from "../src/domain/Ranking.ts"
export * as ScoreComponents from "../src/domain/ScoreComponents.ts"
export * as RetrievalConfig from "../src/RetrievalConfig.ts"
export * as TokenCounter from "../src/ports/TokenCounter.ts"
export * as Tokens from "../src/retrieval/tokens.ts"
export * as Pack from "../src/retrieval/pack.ts"
export * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
export * as TokenCounterJs from "../layers/tokens/TokenCounterJs.ts"
export * as TokenCounterApproximate from "../layers/tokens/TokenCounterApproximate.ts"
export * as Boundary from "./boundary.ts"
