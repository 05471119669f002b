/**
 * The reference backends as one layer over an in-memory corpus: BM25 faithful to FTS5, exact cosine
 * over a corpus-trained latent semantic embedder (or none), in-memory candidate, graph and health
 * stores, and the corpus's note signals when it has them. Deterministic, and the oracle every
 * other backend is compared to.
 */
import { Effect, Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { CandidateStore } from "../../src/ports/CandidateStore.ts"
import { Embedder } from "../../src/ports/Embedder.ts"
import type { GraphStore, NoteEdge } from "../../src/ports/GraphStore.ts"
import type { IndexHealth } from "../../src/ports/IndexHealth.ts"
import type { LexicalIndex, LexicalIndexError } from "../../src/ports/LexicalIndex.ts"
import { VectorIndex, type VectorIndexError } from "../../src/ports/VectorIndex.ts"
import type { EmbedderError } from "../../src/ports/Embedder.ts"
import type { InvalidInput } from "../../src/domain/InvalidInput.ts"
import { RetrievalConfig } from "../../src/RetrievalConfig.ts"
import * as CandidateStoreMemory from "./CandidateStoreMemory.ts"
import * as EmbedderMemory from "./EmbedderMemory.ts"
import * as GraphStoreMemory from "./GraphStoreMemory.ts"
import * as SymbolIndexMemory from "./SymbolIndexMemory.ts"
import * as IndexHealthMemory from "./IndexHealthMemory.ts"
import * as LexicalIndexMemory from "./LexicalIndexMemory.ts"
import * as NoteSignalsMemory from "./NoteSignalsMemory.ts"
import * as VectorIndexMemory from "./VectorIndexMemory.ts"

export interface Corpus {
  readonly chunks: ReadonlyArray<Chunk>
  readonly edges: ReadonlyArray<NoteEdge>
  /** Note path → canonicality in [0, 1] (`canonicality(snapshot)`); when present, NoteSignals is provided too. */
  readonly canonicality?: ReadonlyMap<string, number>
}

/** The dense leg: a built-in model, none, or a model of the caller's (an HTTP endpoint, for a bench condition). */
export type Dense = "latent-semantic" | "hashing" | "none" | Layer.Layer<Embedder, EmbedderError | InvalidInput>

export type CorePorts = LexicalIndex | CandidateStore | GraphStore | IndexHealth

/**
 * Lexical index, candidate, graph and health stores, and the note signals when the corpus carries
 * them (optional to recall, so the type names the core ports only); BM25 column weights come from
 * RetrievalConfig.
 */
export const core = (corpus: Corpus): Layer.Layer<CorePorts, LexicalIndexError> => {
  const ports = Layer.mergeAll(
    Layer.unwrap(Effect.map(RetrievalConfig, (config) => LexicalIndexMemory.layer(corpus.chunks, config.lexicalWeights))),
    CandidateStoreMemory.layer(corpus.chunks),
    GraphStoreMemory.layer(corpus.edges),
    IndexHealthMemory.layer(),
    SymbolIndexMemory.layer(corpus.chunks)
  )
  return corpus.canonicality === undefined ? ports : Layer.merge(ports, NoteSignalsMemory.layer(corpus.canonicality))
}

/** An embedder and the exact vector index of every chunk it embedded. */
export const dense = (
  corpus: Corpus,
  kind: Exclude<Dense, "none">
): Layer.Layer<Embedder | VectorIndex, EmbedderError | VectorIndexError | InvalidInput> => {
  const embedder = typeof kind !== "string" ? kind
    : kind === "hashing"
    ? EmbedderMemory.layerHashing()
    : EmbedderMemory.layerTrained(corpus.chunks.map((chunk) => chunk.text))
  const index = Layer.unwrap(Effect.gen(function*() {
    const model = yield* Embedder
    const vectors = yield* model.embed(corpus.chunks.map((chunk) => chunk.text))
    return VectorIndexMemory.layer(model.dimension, corpus.chunks.map((chunk, i) => ({ chunk, vector: vectors[i]! })))
  }))
  return Layer.provideMerge(index, embedder)
}

/**
 * Every reference port for `corpus`. The dense ports are optional to recall (read when present), so
 * the type names the core ports only; with `dense: "none"` the dense leg is skipped.
 */
export const layer = (
  corpus: Corpus,
  options: { readonly dense?: Dense } = {}
): Layer.Layer<CorePorts, LexicalIndexError | EmbedderError | VectorIndexError | InvalidInput> => {
  const kind = options.dense ?? "latent-semantic"
  if (kind === "none") return core(corpus)
  return Layer.merge(core(corpus), dense(corpus, kind))
}
