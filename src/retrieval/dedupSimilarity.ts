/**
 * How alike two candidates are, for dedup. Cosine of their embeddings when both carry a usable one
 * of the same width; otherwise the words of their bodies: 1 when the folded word sequences are
 * equal, else the Jaccard index of their word shingles. The body is the text after the first line,
 * because that line is the `{title} > {heading}` prefix, and two notes that copied one paragraph
 * differ exactly there.
 *
 * The duplicate test prunes the cosine with an exact Cauchy-Schwarz bound: after a prefix of the
 * dimensions the dot product can grow by at most the product of the two suffix norms, so once
 * `prefix dot + |suffix a| × |suffix b|` is below the threshold the pair cannot reach it and the rest
 * is skipped. The pruned and exhaustive tests give the same answer for every pair (see `SLACK`).
 */
import type { Chunk } from "../domain/Chunk.ts"
import { words } from "../index/Tokenizer.ts"

/** Dimensions summed between two bound checks; a check costs about what two dimensions do. */
const BLOCK = 16

/**
 * How far below the threshold the bound must fall before a pair is skipped. The bound and the dot
 * product are both rounded sums, so a bound computed a few ulps low must not skip a pair whose
 * rounded dot product reaches the threshold. Rounding error here is about 1e-14 for any realistic
 * width, so 1e-9 keeps every skip sound at no measurable cost in pruning.
 */
const SLACK = 1e-9

/** One candidate, analysed once so each pairwise comparison only reads. */
export interface Profile {
  /** The embedding scaled to unit length, or null when absent, empty, zero or not finite. */
  readonly unit: Float64Array | null
  /** `tail[b]` is the norm of `unit` from dimension `b × BLOCK` on; `tail[0]` is 1 up to rounding. */
  readonly tail: Float64Array | null
  /** The body's folded words joined by single spaces; empty when the chunk has no body. */
  readonly body: string
  /** Distinct runs of `shingleSize` consecutive body words; empty when the body is shorter. */
  readonly shingles: ReadonlySet<string>
}

/** The text after the first line, where the `{title} > {heading}` prefix ends. */
export const bodyOf = (chunk: Pick<Chunk, "text">): string => {
  const newline = chunk.text.indexOf("\n")
  return newline < 0 ? "" : chunk.text.slice(newline + 1)
}

export const shinglesOf = (sequence: ReadonlyArray<string>, size: number): Set<string> => {
  const out = new Set<string>()
  for (let i = 0; i + size <= sequence.length; i++) out.add(sequence.slice(i, i + size).join(" "))
  return out
}

const unitVector = (vector: ReadonlyArray<number> | undefined): Float64Array | null => {
  if (vector === undefined || vector.length === 0) return null
  let squares = 0
  for (const x of vector) squares += x * x
  const norm = Math.sqrt(squares)
  if (!(norm > 0) || !Number.isFinite(norm)) return null
  const unit = new Float64Array(vector.length)
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! / norm
  return unit
}

const tailNorms = (unit: Float64Array): Float64Array => {
  const blocks = Math.ceil(unit.length / BLOCK)
  const tail = new Float64Array(blocks)
  let squares = 0
  for (let b = blocks - 1; b >= 0; b--) {
    for (let i = Math.min(unit.length, (b + 1) * BLOCK) - 1; i >= b * BLOCK; i--) squares += unit[i]! * unit[i]!
    tail[b] = Math.sqrt(squares)
  }
  return tail
}

export const profile = (
  chunk: Pick<Chunk, "text">,
  vector: ReadonlyArray<number> | undefined,
  shingleSize: number
): Profile => {
  const unit = unitVector(vector)
  const sequence = words(bodyOf(chunk))
  return {
    unit,
    tail: unit === null ? null : tailNorms(unit),
    body: sequence.join(" "),
    shingles: shinglesOf(sequence, shingleSize)
  }
}

/** Whether two profiles are compared by cosine rather than by their words. */
export const comparableVectors = (a: Profile, b: Profile): boolean =>
  a.unit !== null && b.unit !== null && a.unit.length === b.unit.length

/**
 * The dot product of the unit vectors, summed in dimension order. With `threshold` it stops as soon
 * as the Cauchy-Schwarz bound proves the result below it and returns `-Infinity`; otherwise the sum
 * is the same bits the unpruned call returns, since both add the same terms in the same order.
 */
const cosine = (a: Profile, b: Profile, threshold: number | null): number => {
  const x = a.unit!, y = b.unit!, xt = a.tail!, yt = b.tail!
  let dot = 0
  for (let block = 0, start = 0; start < x.length; block++, start += BLOCK) {
    if (threshold !== null && block > 0 && dot + xt[block]! * yt[block]! < threshold - SLACK) return -Infinity
    const end = Math.min(x.length, start + BLOCK)
    for (let i = start; i < end; i++) dot += x[i]! * y[i]!
  }
  return dot
}

export const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 || b.size === 0) return 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let shared = 0
  for (const shingle of small) if (large.has(shingle)) shared++
  return shared / (a.size + b.size - shared)
}

/**
 * The similarity dedup compares with its threshold. An empty body is no evidence of duplication, so
 * two chunks with no body words and no comparable vectors score 0.
 */
export const similarity = (a: Profile, b: Profile): number => {
  if (comparableVectors(a, b)) return cosine(a, b, null)
  if (a.body.length > 0 && a.body === b.body) return 1
  return jaccard(a.shingles, b.shingles)
}

/**
 * `similarity(a, b) >= threshold`. Pruned, it skips the rest of a cosine once the bound rules the
 * pair out, and skips a Jaccard whose set sizes alone do (`shared / union <= min / max`, and rounded
 * division keeps that order); exhaustive, it always computes the whole similarity.
 */
export const isDuplicate = (a: Profile, b: Profile, threshold: number, pruned: boolean): boolean => {
  if (!pruned) return similarity(a, b) >= threshold
  if (comparableVectors(a, b)) return cosine(a, b, threshold) >= threshold
  if (a.body.length > 0 && a.body === b.body) return 1 >= threshold
  const small = Math.min(a.shingles.size, b.shingles.size), large = Math.max(a.shingles.size, b.shingles.size)
  if (large === 0) return 0 >= threshold
  if (small / large < threshold) return false
  return jaccard(a.shingles, b.shingles) >= threshold
}
