/**
 * Stage 8, dedup: one survivor per claim, so a paragraph two notes copied, or a body a note restates,
 * spends the token budget once.
 *
 * Complete link, never single link: candidates are visited in rank order and each joins the first
 * cluster (in order of creation) whose every member it matches at `dedupCosine` or above, else
 * starts its own. Single link would let `A~B~C` swallow a `C` that says something else than `A`,
 * deleting an answer. Each cluster then elects its survivor (see {@link electionOrder}); the other
 * members are returned beside it, since near-duplicates are where a `24h` and a `1h` hide and the
 * conflict detector reads them. Survivors come back in presentation order. Chunk ids are unique in
 * a candidate list, so the result does not depend on the order of the input.
 */
import { Context, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { ChunkId } from "../domain/Chunk.ts"
import { instantMillis } from "../domain/Instant.ts"
import { compareIds, sortCandidates } from "../domain/Ranking.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import { isDuplicate, makeProfiler } from "./dedup/similarity.ts"

export type DedupOptions = Pick<RetrievalConfigShape, "dedupCosine" | "dedupShingleSize">

/** Embeddings by chunk; a chunk without one (or with another width) is compared by its words. */
export type Vectors = ReadonlyMap<ChunkId, ReadonlyArray<number>>

export interface Cluster {
  readonly survivor: ChunkId
  /** The candidates folded into the survivor, survivor excluded, in rank order; never empty. */
  readonly members: Array<Candidate>
}

export interface Deduped {
  /** One candidate per cluster, sorted by `Ranking.byScoreDescThenId`. */
  readonly survivors: Array<Candidate>
  /** Clusters of two or more, in the order of their survivors in `survivors`. */
  readonly collapsed: Array<Cluster>
}

/** Unknown or unreadable creation times count as the oldest. */
const createdMillis = (candidate: Candidate): number => {
  const createdAt = candidate.chunk.provenance.createdAt
  const millis = createdAt === null ? Number.NaN : instantMillis(createdAt)
  return Number.isNaN(millis) ? -Infinity : millis
}

const rung = (flag: boolean): number => (flag ? 0 : 1)

/**
 * Who survives a cluster, best first: higher score, then verified, then written by a human, then
 * fresher (later `createdAt`), then the smaller chunk id.
 */
export const electionOrder = (a: Candidate, b: Candidate): number => {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1
  const verified = rung(a.chunk.provenance.state === "verified") - rung(b.chunk.provenance.state === "verified")
  if (verified !== 0) return verified
  const human = rung(a.chunk.provenance.authorKind === "human") - rung(b.chunk.provenance.authorKind === "human")
  if (human !== 0) return human
  const ta = createdMillis(a), tb = createdMillis(b)
  if (ta !== tb) return ta > tb ? -1 : 1
  return compareIds(a.chunk.id, b.chunk.id)
}

/**
 * Cluster and elect. `pruning: "exhaustive"` computes every similarity in full; it exists to prove
 * the pruned default returns the same result, and to measure what pruning saves.
 */
export const dedup = (
  candidates: ReadonlyArray<Candidate>,
  vectors: Vectors,
  options: DedupOptions,
  pruning: "pruned" | "exhaustive" = "pruned"
): Deduped => {
  const ranked = sortCandidates(candidates)
  const profile = makeProfiler(options.dedupShingleSize)
  const profiles = ranked.map((c) => profile(c.chunk, vectors.get(c.chunk.id)))
  const clusters: Array<Array<number>> = []
  for (let i = 0; i < ranked.length; i++) {
    const home = clusters.find((members) =>
      members.every((m) => isDuplicate(profiles[i]!, profiles[m]!, options.dedupCosine, pruning === "pruned"))
    )
    if (home === undefined) clusters.push([i])
    else home.push(i)
  }
  const elected = clusters.map((members) => {
    const cluster = members.map((m) => ranked[m]!)
    const survivor = [...cluster].sort(electionOrder)[0]!
    return { survivor, members: cluster.filter((c) => c !== survivor) }
  })
  const survivors = sortCandidates(elected.map((e) => e.survivor))
  const bySurvivor = new Map(elected.map((e) => [e.survivor.chunk.id, e.members]))
  const collapsed = survivors.flatMap((s): Array<Cluster> => {
    const members = bySurvivor.get(s.chunk.id) ?? []
    return members.length === 0 ? [] : [{ survivor: s.chunk.id, members }]
  })
  return { survivors, collapsed }
}

export class Dedup extends Context.Service<Dedup, {
  /** Every input candidate is either a survivor or a member of exactly one collapsed cluster. */
  readonly dedup: (candidates: ReadonlyArray<Candidate>, vectors: Vectors, options: DedupOptions) => Deduped
}>()("cairn/retrieval/Dedup") {}

export const layer: Layer.Layer<Dedup> = Layer.succeed(Dedup, {
  dedup: (candidates, vectors, options) => dedup(candidates, vectors, options)
})

/** No collapse: every candidate survives, in presentation order. For ablations. */
export const layerOff: Layer.Layer<Dedup> = Layer.succeed(Dedup, {
  dedup: (candidates) => ({ survivors: sortCandidates(candidates), collapsed: [] })
})
