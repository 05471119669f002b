/**
 * The second stage of a file ranking: from the first pass's confident files (seeds), one step along
 * the code's own edges (imports, calls) to the files beside them. A neighbour scores
 * `seed weight × edge weight / √(seed degree)`, the best over its seeds and their edges, never the
 * sum: a hub's many neighbours each get little, and a file reached from several seeds is not
 * rewarded for popularity. The list it returns is fused with the first pass again by the caller,
 * so a neighbour rises only as far as fusion lets a second opinion lift it.
 */
import { byScoreThen, compareIds } from "../domain/Ranking.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"

/**
 * Whether a ranking holds a chunk for the query's words (a lexical, title/path or symbol leg ranked
 * it) rather than by meaning alone: the least a second stage asks of a seed.
 */
export const rankedByWords = (ranks: Readonly<Record<string, number>>): boolean =>
  ranks["lexical"] !== undefined || ranks["title_path"] !== undefined || ranks["symbol"] !== undefined

export interface ExpansionSeed {
  readonly path: string
  /** In (0, 1]: the seed's first-pass score over the best file's. */
  readonly weight: number
}

export interface ExpansionOptions {
  /** Weight of each verb as a way across; a verb not named is not followed. */
  readonly weights: Readonly<Record<string, number>>
  /** Neighbours returned at most. */
  readonly limit: number
  /** The neighbour's own factor (a test's weight when the query is not about tests); 1 when absent. */
  readonly weigh?: (path: string) => number
}

export interface Expanded {
  readonly path: string
  readonly score: number
  /** The seed whose edge gave the score. */
  readonly via: string
}

/** Neighbours of `seeds` over `edges` (any edges; only those touching a seed are read), best first. */
export const expandFiles = (
  seeds: ReadonlyArray<ExpansionSeed>,
  edges: ReadonlyArray<NoteEdge>,
  options: ExpansionOptions
): Array<Expanded> => {
  if (options.limit <= 0 || seeds.length === 0) return []
  // Per seed, each neighbour once at the weight of its strongest edge (imported and called: calls).
  const across = new Map<string, Map<string, number>>(seeds.map((seed) => [seed.path, new Map()]))
  for (const edge of edges) {
    const weight = options.weights[edge.verb]
    if (weight === undefined || weight <= 0 || edge.from === edge.to) continue
    for (const [seed, other] of [[edge.from, edge.to], [edge.to, edge.from]] as const) {
      const neighbours = across.get(seed)
      if (neighbours !== undefined) neighbours.set(other, Math.max(neighbours.get(other) ?? 0, weight))
    }
  }
  const best = new Map<string, Expanded>()
  for (const seed of seeds) {
    const neighbours = across.get(seed.path)!
    if (neighbours.size === 0) continue
    const spread = Math.sqrt(neighbours.size)
    for (const [path, weight] of neighbours) {
      const score = (seed.weight * weight * (options.weigh?.(path) ?? 1)) / spread
      const known = best.get(path)
      if (known === undefined || score > known.score || (score === known.score && compareIds(seed.path, known.via) < 0)) {
        best.set(path, { path, score, via: seed.path })
      }
    }
  }
  return [...best.values()]
    .sort(byScoreThen((expanded: Expanded) => expanded.path))
    .slice(0, options.limit)
}
