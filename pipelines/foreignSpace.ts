/**
 * Whether stored vectors belong to another embedder than the one that would index now: the
 * configured model's, or the corpus-trained model's when none is configured. The index run then
 * re-embeds every chunk, and `status` says it will; one test for both, so they cannot disagree.
 */
import * as Lsa from "../src/index/LatentSemanticEmbedder.ts"
import type { VectorSpace } from "../src/ports/IndexStore.ts"

/** What names a vector space: the embedder's id, version and dimension. */
export interface SpaceOwner {
  readonly id: string
  readonly version: string
  readonly dimension: number
}

/**
 * `space`'s vectors are not `embedder`'s. The corpus-trained model is retrained on every rebuild,
 * so only its id is its own; an external model must match exactly, since another version or
 * dimension would mix spaces.
 */
export const isForeignSpace = (space: Omit<VectorSpace, "model">, embedder: SpaceOwner | undefined): boolean =>
  embedder === undefined
    ? space.modelId !== Lsa.ID
    : space.modelId !== embedder.id || space.version !== embedder.version || space.dimension !== embedder.dimension
