/**
 * Port: turns texts into unit vectors for the dense leg. Every vector a backend hands out is
 * checked (finite, of the declared length, L2 norm within [0.99, 1.01]): an index fed unnormalised
 * vectors degrades to noise without a single error, so the check is not optional.
 */
import { Context, Effect, Schema } from "effect"

export type Vector = ReadonlyArray<number>

/** Accepted L2 norm range: unit length up to the rounding of a float32 store. */
export const NORM_MIN = 0.99
export const NORM_MAX = 1.01

export class EmbedderError extends Schema.TaggedError<EmbedderError>()("EmbedderError", {
  embedder: Schema.String,
  reason: Schema.Literals(["count", "length", "non_finite", "norm", "unavailable"]),
  /** Position of the offending vector in the batch; -1 when the batch as a whole is at fault. */
  index: Schema.Int,
  detail: Schema.String
}) {
  override get message(): string {
    const at = this.index >= 0 ? ` vector ${this.index}` : ""
    switch (this.reason) {
      case "count":
        return `embedder ${this.embedder}: ${this.detail}; return exactly one vector per text`
      case "length":
        return `embedder ${this.embedder}${at}: ${this.detail}; return vectors of the declared dimension`
      case "non_finite":
        return `embedder ${this.embedder}${at}: ${this.detail}; every component must be finite`
      case "norm":
        return `embedder ${this.embedder}${at}: ${this.detail}; L2-normalise vectors before returning them`
      case "unavailable":
        return `embedder ${this.embedder} unavailable: ${this.detail}; check the model path or endpoint`
    }
  }
}

export interface EmbedderShape {
  /** Names the model; a different id means a different vector space, so a full reindex. */
  readonly id: string
  /** Changes whenever the same id would produce different vectors (retrained, reconfigured). */
  readonly version: string
  /** Length of every vector. */
  readonly dimension: number
  /** One vector per text, in the order given, each satisfying {@link assertVectors}. */
  embed(texts: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<Vector>, EmbedderError>
}

export class Embedder extends Context.Service<Embedder, EmbedderShape>()("cairn/ports/Embedder") {}

/**
 * Succeeds with `vectors` when there is one per text and each is finite, `dimension` long and of
 * L2 norm in [{@link NORM_MIN}, {@link NORM_MAX}]; otherwise fails naming the first bad vector.
 */
export const assertVectors = (
  embedder: Pick<EmbedderShape, "id" | "dimension">,
  textCount: number,
  vectors: ReadonlyArray<Vector>
): Effect.Effect<ReadonlyArray<Vector>, EmbedderError> => {
  const fail = (reason: EmbedderError["reason"], index: number, detail: string) =>
    Effect.fail(new EmbedderError({ embedder: embedder.id, reason, index, detail }))
  if (vectors.length !== textCount) {
    return fail("count", -1, `got ${vectors.length} vectors for ${textCount} texts`)
  }
  for (let i = 0; i < vectors.length; i++) {
    const vector = vectors[i]!
    if (vector.length !== embedder.dimension) {
      return fail("length", i, `length ${vector.length}, declared ${embedder.dimension}`)
    }
    let sumSquares = 0
    for (let j = 0; j < vector.length; j++) {
      const x = vector[j]!
      if (!Number.isFinite(x)) return fail("non_finite", i, `component ${j} is ${x}`)
      sumSquares += x * x
    }
    const norm = Math.sqrt(sumSquares)
    if (!(norm >= NORM_MIN && norm <= NORM_MAX)) {
      return fail("norm", i, `L2 norm ${norm} outside [${NORM_MIN}, ${NORM_MAX}]`)
    }
  }
  return Effect.succeed(vectors)
}

/** The same embedder with {@link assertVectors} applied to every batch it returns. */
export const checked = (embedder: EmbedderShape): EmbedderShape => ({
  id: embedder.id,
  version: embedder.version,
  dimension: embedder.dimension,
  embed: (texts) => Effect.flatMap(embedder.embed(texts), (vectors) => assertVectors(embedder, texts.length, vectors))
})
