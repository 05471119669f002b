/**
 * Stage 4, reciprocal-rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009), with absence scored:
 * a leg asked for 50 that returned 50 has said "worse than fiftieth" about everything else, so an id
 * absent from a non-empty list is placed at `max(list length, requested limit) + rrfAbsentRankOffset`.
 * With an infinite offset absence contributes nothing and this is textbook RRF. A list that came back
 * empty contributes nothing at all: an empty leg failed or found no term, and neither is evidence.
 */
import { Context, Layer } from "effect"
import type { ChunkId } from "../domain/Chunk.ts"
import { compareIds } from "../domain/Ranking.ts"

export interface RankedList {
  /** The leg's name; lists are combined in name order so sums are taken in one canonical order. */
  readonly leg: string
  /** Best first; a repeated id keeps its first rank. */
  readonly ids: ReadonlyArray<ChunkId>
  /** The limit the leg was asked for. */
  readonly requested: number
  /** What one of its reciprocal ranks counts, 1 when absent: a second opinion may count for less. */
  readonly weight?: number
}

export interface Fused {
  readonly id: ChunkId
  readonly rrf: number
  /** 1-based rank in each leg that returned the id. */
  readonly ranks: Readonly<Record<string, number>>
}

export interface FusionOptions {
  readonly rrfK: number
  readonly rrfAbsentRankOffset: number
  readonly fusedLimit: number
}

export const fuse = (lists: ReadonlyArray<RankedList>, options: FusionOptions): Array<Fused> => {
  const ordered = lists.filter((list) => list.ids.length > 0).sort((a, b) => compareIds(a.leg, b.leg))
  const rankMaps = ordered.map((list) => {
    const ranks = new Map<ChunkId, number>()
    list.ids.forEach((id, index) => {
      if (!ranks.has(id)) ranks.set(id, index + 1)
    })
    return ranks
  })
  const weights = ordered.map((list) => list.weight ?? 1)
  const absentContribution = ordered.map((list, i) =>
    Number.isFinite(options.rrfAbsentRankOffset)
      ? weights[i]! / (options.rrfK + Math.max(list.ids.length, list.requested) + options.rrfAbsentRankOffset)
      : 0
  )
  const ids = new Set<ChunkId>()
  for (const list of ordered) for (const id of list.ids) ids.add(id)
  const fused: Array<Fused> = []
  for (const id of ids) {
    let rrf = 0
    const ranks: Record<string, number> = {}
    for (let i = 0; i < ordered.length; i++) {
      const rank = rankMaps[i]!.get(id)
      if (rank === undefined) rrf += absentContribution[i]!
      else {
        rrf += weights[i]! / (options.rrfK + rank)
        ranks[ordered[i]!.leg] = rank
      }
    }
    fused.push({ id, rrf, ranks })
  }
  return fused
    .sort((a, b) => (a.rrf !== b.rrf ? b.rrf - a.rrf : compareIds(a.id, b.id)))
    .slice(0, Math.max(0, options.fusedLimit))
}

export class Fusion extends Context.Service<Fusion, {
  readonly fuse: (lists: ReadonlyArray<RankedList>, options: FusionOptions) => Array<Fused>
}>()("cairn/retrieval/Fusion") {}

export const layer: Layer.Layer<Fusion> = Layer.succeed(Fusion, { fuse })
