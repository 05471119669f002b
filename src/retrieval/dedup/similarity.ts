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
 * is skipped. Jaccard is pruned by two upper bounds on the shared count, the smaller set's size and
 * a per-bucket histogram. Pruned and exhaustive tests give the same answer for every pair (see
 * `SLACK`).
 */
import type { Chunk } from "../../domain/Chunk.ts"
import { words } from "../../text/Words.ts"

/** Buckets of the shingle histogram: the bound costs this many steps, the merge up to both lengths. */
const BUCKET_BITS = 4
const BUCKETS = 1 << BUCKET_BITS

/** Dimensions summed between two bound checks; a check costs about what two dimensions do. */
const BLOCK = 16

/**
 * How far below the threshold the bound must fall before a pair is skipped. The bound and the dot
 * product are both rounded sums, so a bound computed a few ulps low must not skip a pair whose
 * rounded dot product reaches the threshold. Rounding error here is about 1e-14 for any realistic
 * width, so 1e-9 keeps every skip sound at no measurable cost in pruning.
 */
const SLACK = 1e-9

/** The body as numbers from the profiler's tables, so every comparison is integer work. */
export interface BodyWords {
  /** The folded words of the body, each as its number; empty when the chunk has no body. */
  readonly words: Int32Array
  /**
   * Runs of `shingleSize` consecutive words, each as its number, distinct and ascending; empty when
   * the body is shorter. Numbers make the Jaccard index a merge of two integer lists, several times
   * cheaper than probing a set of strings, and give the same value.
   */
  readonly shingles: Int32Array
  /** How many of `shingles` fall in each of `BUCKETS` buckets; bounds the shared count cheaply. */
  readonly buckets: Int32Array
}

/** One candidate, analysed once so each pairwise comparison only reads. */
export interface Profile {
  /** The embedding scaled to unit length, or null when absent, empty, zero or not finite. */
  readonly unit: Float64Array | null
  /** `tail[b]` is the norm of `unit` from dimension `b × BLOCK` on; `tail[0]` is 1 up to rounding. */
  readonly tail: Float64Array | null
  /**
   * The body's words, analysed on first use: tokenising costs more than every cosine of a
   * 200-candidate list together, and a list whose embeddings all compare never needs it.
   */
  readonly words: () => BodyWords
}

/** The text after the first line, where the `{title} > {heading}` prefix ends. */
export const bodyOf = (chunk: Pick<Chunk, "text">): string => {
  const newline = chunk.text.indexOf("\n")
  return newline < 0 ? "" : chunk.text.slice(newline + 1)
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

/** A multiplicative hash, so consecutive shingle numbers spread over the buckets. */
const bucketOf = (n: number): number => Math.imul(n, 0x9e3779b1) >>> (32 - BUCKET_BITS)

/**
 * A profiler for one comparison run. Its profiles share one numbering, so only profiles from the
 * same profiler may be compared. A word gets a number on first sight; a run of words gets one from
 * the pair (number of the run minus its last word, number of that word), so a shingle costs
 * `shingleSize - 1` integer-keyed lookups and no string is built. The pair key is exact while
 * numbers stay below 2^26 (67 million); they stay below the words read times `shingleSize`, which
 * for a candidate list of a few hundred sections is thousands.
 */
export const makeProfiler = (shingleSize: number) => {
  const wordNumbers = new Map<string, number>()
  const runNumbers = new Map<number, number>()
  let next = 0
  const wordNumber = (word: string): number => {
    let n = wordNumbers.get(word)
    if (n === undefined) wordNumbers.set(word, n = next++)
    return n
  }
  const runNumber = (prefix: number, word: number): number => {
    const key = prefix * 67_108_864 + word
    let n = runNumbers.get(key)
    if (n === undefined) runNumbers.set(key, n = next++)
    return n
  }
  const analyse = (chunk: Pick<Chunk, "text">): BodyWords => {
    const sequence = Int32Array.from(words(bodyOf(chunk)), wordNumber)
    const runs = new Set<number>()
    for (let i = 0; i + shingleSize <= sequence.length; i++) {
      let run = sequence[i]!
      for (let j = 1; j < shingleSize; j++) run = runNumber(run, sequence[i + j]!)
      runs.add(run)
    }
    const shingles = Int32Array.from(runs).sort()
    const buckets = new Int32Array(BUCKETS)
    for (const n of shingles) buckets[bucketOf(n)]!++
    return { words: sequence, shingles, buckets }
  }
  return (chunk: Pick<Chunk, "text">, vector: ReadonlyArray<number> | undefined): Profile => {
    const unit = unitVector(vector)
    let analysed: BodyWords | undefined
    return {
      unit,
      tail: unit === null ? null : tailNorms(unit),
      words: () => (analysed ??= analyse(chunk))
    }
  }
}

const sameWords = (a: Int32Array, b: Int32Array): boolean => {
  if (a.length === 0 || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
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

/** Jaccard index of two ascending lists of distinct numbers. */
export const jaccard = (a: Int32Array, b: Int32Array): number => {
  if (a.length === 0 || b.length === 0) return 0
  let shared = 0
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! === b[j]!) {
      shared++
      i++
      j++
    } else if (a[i]! < b[j]!) i++
    else j++
  }
  return shared / (a.length + b.length - shared)
}

/**
 * The similarity dedup compares with its threshold. An empty body is no evidence of duplication, so
 * two chunks with no body words and no comparable vectors score 0.
 */
export const similarity = (a: Profile, b: Profile): number => {
  if (comparableVectors(a, b)) return cosine(a, b, null)
  const x = a.words(), y = b.words()
  if (sameWords(x.words, y.words)) return 1
  return jaccard(x.shingles, y.shingles)
}

/**
 * `similarity(a, b) >= threshold`. Pruned, it skips the rest of a cosine once the bound rules the
 * pair out, and skips a Jaccard whose set sizes alone do (`shared / union <= min / max`, and rounded
 * division keeps that order); exhaustive, it always computes the whole similarity.
 */
export const isDuplicate = (a: Profile, b: Profile, threshold: number, pruned: boolean): boolean => {
  if (!pruned) return similarity(a, b) >= threshold
  if (comparableVectors(a, b)) return cosine(a, b, threshold) >= threshold
  const x = a.words(), y = b.words()
  if (sameWords(x.words, y.words)) return 1 >= threshold
  const small = Math.min(x.shingles.length, y.shingles.length), large = Math.max(x.shingles.length, y.shingles.length)
  if (large === 0) return 0 >= threshold
  if (small / large < threshold) return false
  // A shared shingle sits in the same bucket on both sides, so shared <= the sum of bucket minima.
  let bound = 0
  for (let b = 0; b < BUCKETS; b++) bound += Math.min(x.buckets[b]!, y.buckets[b]!)
  if (bound / (x.shingles.length + y.shingles.length - bound) < threshold) return false
  return jaccard(x.shingles, y.shingles) >= threshold
}
