/**
 * Which chunks the index's embedder is trained on. Training grows with the corpus (31 s for 76,000
 * chunks against about 5 s for 20,000 on the generated repository) while every chunk is still
 * embedded, so a large corpus is sampled: the chunks whose content hashes sort first, a choice that
 * depends on the chunks and not on their order. Terms that occur only outside the sample get no
 * latent direction (the lexical leg still finds them); training on half or a quarter of a corpus
 * cost 0.01 to 0.02 nDCG@10 (docs/eval.md).
 */
import { compareIds } from "../domain/Ranking.ts"

/** Most chunks the embedder is trained on. */
export const MAX_TRAINING_CHUNKS = 20_000

/** What the sample reads of a chunk. */
export interface Sampled {
  readonly id: string
  readonly contentSha: string
}

const bySample = (a: Sampled, b: Sampled) => compareIds(a.contentSha, b.contentSha) || compareIds(a.id, b.id)

/** The first 13 hex digits of a content hash as a number: exact, and ordered as the hashes are. */
const shaPrefix = (chunk: Sampled): number => Number.parseInt(chunk.contentSha.slice(0, 13), 16)

const HEX_PREFIX = /^[0-9a-f]{13}/

/**
 * A deterministic, order-free sample: every chunk of a corpus of at most `MAX_TRAINING_CHUNKS`, in
 * its order; of a larger one, the chunks whose content hashes sort first, in that order. Selected
 * by a numeric threshold rather than by sorting every chunk, which took 0.4 s at 76,000 chunks on
 * the path to training; only the chunks at the threshold are compared in full.
 */
export const trainingSample = <A extends Sampled>(chunks: ReadonlyArray<A>): ReadonlyArray<A> => {
  if (chunks.length <= MAX_TRAINING_CHUNKS) return chunks
  // A hash that is not lowercase hex has no numeric prefix to compare by.
  if (!chunks.every((chunk) => HEX_PREFIX.test(chunk.contentSha))) return [...chunks].sort(bySample).slice(0, MAX_TRAINING_CHUNKS)
  const prefixes = Float64Array.from(chunks, shaPrefix)
  const threshold = Float64Array.from(prefixes).sort()[MAX_TRAINING_CHUNKS - 1]!
  const below = chunks.filter((_, i) => prefixes[i]! < threshold)
  const at = chunks.filter((_, i) => prefixes[i] === threshold).sort(bySample)
  return [...below, ...at.slice(0, MAX_TRAINING_CHUNKS - below.length)].sort(bySample)
}

/** A chunk as the sampler keeps it: its text and what orders it, nothing else of it. */
interface Candidate extends Sampled {
  readonly text: string
}

/** Candidates held before they are cut back to the sample: half as many again, so a cut is rare. */
const HELD = MAX_TRAINING_CHUNKS + MAX_TRAINING_CHUNKS / 2

/**
 * `trainingSample` of chunks offered a part at a time, holding at most `HELD` of them: whenever
 * the held candidates pass that, they are cut back to their own sample, which keeps every chunk
 * the sample of the whole can hold. `take` hands the sample's texts over, in its order.
 */
export const sampler = () => {
  let held: Array<Candidate> = []
  let offered = 0
  return {
    offer: (chunks: ReadonlyArray<Sampled & { readonly text: string }>): void => {
      for (const chunk of chunks) held.push({ id: chunk.id, contentSha: chunk.contentSha, text: chunk.text })
      offered += chunks.length
      if (held.length > HELD) held = [...trainingSample(held)]
    },
    /** How many chunks were offered. */
    offered: (): number => offered,
    /** The sample's texts, in its order; the sampler lets go of them. */
    take: (): ReadonlyArray<string> => {
      const texts = trainingSample(held).map((chunk) => chunk.text)
      held = []
      return texts
    }
  }
}
