/**
 * Signed feature hashing over analysed terms (Weinberger et al., "Feature Hashing for Large Scale
 * Multitask Learning", 2009): each term adds ±(1 + ln tf) to one bucket. It approximates the cosine
 * of two term-frequency vectors, so it is a bag of words that can never match a synonym: kept only
 * as an ablation beside the lexical leg, never as a semantic model.
 */
import { terms } from "../text/Words.ts"

export const defaultHashingDimension = 256

const BUCKET_SEED = 0x9e3779b9
const SIGN_SEED = 0x85ebca6b

/** murmur3's finaliser, for spread. */
const finalise = (state: number): number => {
  let h = state
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** FNV-1a over UTF-16 code units from a seeded offset, then murmur3's finaliser for spread. */
export const hashString = (text: string, seed: number): number => {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return finalise(h)
}

/**
 * `hashString` of the concatenation of `parts` under two seeds, in one pass and without building
 * the concatenation: FNV-1a reads code units in order, so a part continues where the last ended.
 * For fingerprints of megabytes of text (a stored model), where the join and the second pass cost
 * more than the hashing.
 */
export const hashParts2 = (parts: ReadonlyArray<string>, seedA: number, seedB: number): readonly [number, number] => {
  let a = (0x811c9dc5 ^ seedA) >>> 0
  let b = (0x811c9dc5 ^ seedB) >>> 0
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const unit = part.charCodeAt(i)
      a = Math.imul(a ^ unit, 0x01000193)
      b = Math.imul(b ^ unit, 0x01000193)
    }
  }
  return [finalise(a), finalise(b)]
}

export interface TextEncoderModel {
  readonly id: string
  readonly version: string
  readonly dimension: number
  /** A unit vector of length `dimension` for any text, the empty string included. */
  readonly embedOne: (text: string) => Array<number>
}

/**
 * Scales `values` to unit length and appends the reserved last axis: 0 for a text with content, or
 * the whole vector on that axis when there is none (no terms, or terms that cancel). A text with
 * nothing to say is then orthogonal to every text with something to say, instead of a zero vector.
 */
export const unitWithReservedAxis = (values: Float64Array): Array<number> => {
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += values[i]! * values[i]!
  const out = new Array<number>(values.length + 1).fill(0)
  if (!(sum > 0)) {
    out[values.length] = 1
    return out
  }
  const norm = Math.sqrt(sum)
  for (let i = 0; i < values.length; i++) out[i] = values[i]! / norm
  return out
}

/** Whether `vector` is the reserved axis alone: the embedding of a text with nothing to say. */
export const isContentless = (vector: ReadonlyArray<number>): boolean => {
  if (vector.length === 0 || vector[vector.length - 1] !== 1) return false
  for (let i = 0; i < vector.length - 1; i++) if (vector[i] !== 0) return false
  return true
}

/** A hashing encoder of `dimension` components: `dimension - 1` buckets and the reserved axis. */
export const make = (dimension: number = defaultHashingDimension): TextEncoderModel => {
  if (!Number.isInteger(dimension) || dimension < 2) throw new RangeError(`hashing dimension ${dimension} must be an integer >= 2`)
  const buckets = dimension - 1
  return {
    id: "cairn/hashing",
    version: `fnv1a-signed-1/${dimension}`,
    dimension,
    embedOne: (text) => {
      const counts = new Map<string, number>()
      for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + 1)
      const values = new Float64Array(buckets)
      for (const [term, tf] of counts) {
        const sign = hashString(term, SIGN_SEED) & 1 ? 1 : -1
        const bucket = hashString(term, BUCKET_SEED) % buckets
        values[bucket] = values[bucket]! + sign * (1 + Math.log(tf))
      }
      return unitWithReservedAxis(values)
    }
  }
}
