/**
 * Stage 5, graph expansion: walk out from the notes that matched along the relations their authors
 * wrote and analysis observed, and admit neighbouring chunks at a discount. Four rules:
 * a neighbour inherits the *maximum* over its sources, never the sum (popularity buys nothing);
 * the verb decides how much survives, and `supersedes` is never followed; the discount is
 * `relationWeight × hopPenalty^hops`, recorded with the relation that admitted it, so a neighbour can
 * never outrank the seed that brought it; and `related` reports every outbound edge as written,
 * most canonical target first when the optional NoteSignals port is provided (else by id).
 */
import { Context, Effect, Layer } from "effect"
import * as Candidate from "../domain/Candidate.ts"
import type { Chunk } from "../domain/Chunk.ts"
import { byScoreThen, compareIds } from "../domain/Ranking.ts"
import { CandidateStore, type CandidateStoreError } from "../ports/CandidateStore.ts"
import { GraphStore, type GraphStoreError, type NoteEdge } from "../ports/GraphStore.ts"
import type { RetrievalFilter } from "../ports/RetrievalFilter.ts"
import { mayMoveRanking } from "../languages/Languages.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import { byCanonicality, canonicalityOf } from "./canonicality.ts"
import { rankedByWords } from "./fileExpansion.ts"

/** The one verb never followed: it points at what the author retired. */
export const NEVER_FOLLOWED = "supersedes"

export type ExpansionOptions = Pick<
  RetrievalConfigShape,
  "graphHops" | "graphHopPenalty" | "graphExpandLimit" | "graphSeedLimit" | "graphChunksPerNote" | "graphRelationWeights" | "graphDefaultRelationWeight" | "graphLanguageRelations"
>

export const relationWeight = (verb: string, options: ExpansionOptions): number =>
  verb === NEVER_FOLLOWED ? 0 : options.graphRelationWeights[verb] ?? options.graphDefaultRelationWeight

/** How a neighbour note was reached: the best path by inherited score. */
export interface Reached {
  readonly note: string
  /** Relevance base borrowed from the seed at the start of the path. */
  readonly rrf: number
  /** Product of the verbs' weights along the path. */
  readonly relationWeight: number
  readonly hops: number
  /** The verb and source of the last edge on the path. */
  readonly relation: string
  readonly from: string
  /** `rrf × relationWeight × hopPenalty^hops`: what the neighbour's chunks score. */
  readonly score: number
}

const better = (a: Reached, b: Reached): boolean =>
  a.score !== b.score ? a.score > b.score : a.relation !== b.relation ? a.relation < b.relation : a.from < b.from

/**
 * One hop of the walk: from `sources` (note → how it scores as a source) along `edges`, admitting
 * notes not yet `visited`. Pure; exported for tests.
 */
export const step = (
  sources: ReadonlyMap<string, { readonly rrf: number; readonly relationWeight: number; readonly hops: number }>,
  edges: ReadonlyArray<NoteEdge>,
  visited: ReadonlySet<string>,
  options: ExpansionOptions
): Map<string, Reached> => {
  const reached = new Map<string, Reached>()
  for (const edge of edges) {
    const source = sources.get(edge.from)
    if (source === undefined || visited.has(edge.to)) continue
    const weight = relationWeight(edge.verb, options)
    if (!(weight > 0)) continue
    const hops = source.hops + 1
    const pathWeight = source.relationWeight * weight
    const candidate: Reached = {
      note: edge.to,
      rrf: source.rrf,
      relationWeight: pathWeight,
      hops,
      relation: edge.verb,
      from: edge.from,
      score: source.rrf * pathWeight * options.graphHopPenalty ** hops
    }
    const current = reached.get(edge.to)
    if (current === undefined || better(candidate, current)) reached.set(edge.to, candidate)
  }
  return reached
}

const byEdge = (a: NoteEdge, b: NoteEdge): number =>
  compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)

export interface Expansion {
  /** The seeds with `related` filled, then the admitted neighbours, in no particular order. */
  readonly candidates: ReadonlyArray<Candidate.Candidate>
  /** The edges of every listed note (and of the notes the walk stepped through), sorted: what link consensus and conflicts read later. */
  readonly edges: ReadonlyArray<NoteEdge>
}

const uniqueEdges = (edges: ReadonlyArray<NoteEdge>): Array<NoteEdge> => {
  const seen = new Set<string>()
  const out: Array<NoteEdge> = []
  for (const edge of [...edges].sort(byEdge)) {
    const key = `${edge.from}\u0000${edge.to}\u0000${edge.verb}`
    if (!seen.has(key)) {
      seen.add(key)
      out.push(edge)
    }
  }
  return out
}

/** Outbound targets of each of `notes`, distinct, in no particular order: what `related` reports. */
const relatedByNote = (edges: ReadonlyArray<NoteEdge>, notes: ReadonlySet<string>): Map<string, Set<string>> => {
  const related = new Map<string, Set<string>>()
  for (const edge of edges) {
    if (edge.from === edge.to || !notes.has(edge.from)) continue
    let targets = related.get(edge.from)
    if (targets === undefined) related.set(edge.from, (targets = new Set()))
    targets.add(edge.to)
  }
  return related
}

/**
 * The seed notes the walk starts from: with a limit, the notes of the best `limit` seeds (in fused
 * order) that a word leg ranked (search's seeds also need two query terms; the walk is not handed
 * the query); without one, every seed note.
 */
const walkedFrom = <A>(seeds: ReadonlyArray<Candidate.Candidate>, seedNotes: ReadonlyMap<string, A>, limit: number): ReadonlyMap<string, A> => {
  if (limit <= 0) return seedNotes
  const confident = new Map<string, A>()
  for (const seed of seeds.slice(0, limit)) {
    if (!rankedByWords(seed.legRanks)) continue
    const note = seedNotes.get(seed.chunk.noteId)
    if (note !== undefined) confident.set(seed.chunk.noteId, note)
  }
  return confident
}

export const expandWith = Effect.fnUntraced(function*(
  seeds: ReadonlyArray<Candidate.Candidate>,
  filter: RetrievalFilter,
  options: ExpansionOptions
): Effect.fn.Return<Expansion, GraphStoreError | CandidateStoreError, GraphStore | CandidateStore> {
  const graph = yield* GraphStore
  const store = yield* CandidateStore

  // A seed note scores as its best chunk.
  const seedNotes = new Map<string, { rrf: number; relationWeight: number; hops: number; score: number }>()
  for (const seed of seeds) {
    const current = seedNotes.get(seed.chunk.noteId)
    if (current === undefined || seed.score > current.score) {
      seedNotes.set(seed.chunk.noteId, { rrf: seed.score, relationWeight: 1, hops: 0, score: seed.score })
    }
  }
  const visited = new Set(seedNotes.keys())
  const reached = new Map<string, Reached>()
  const fetched: Array<NoteEdge> = []
  const fetchedFor = new Set<string>()
  const wantHops = options.graphExpandLimit > 0 ? options.graphHops : 0
  let frontier: ReadonlyMap<string, { rrf: number; relationWeight: number; hops: number }> = walkedFrom(seeds, seedNotes, options.graphSeedLimit)
  const fetchEdges = Effect.fnUntraced(function*(candidates: Iterable<string>) {
    const notes = [...new Set(candidates)].filter((note) => !fetchedFor.has(note)).sort(compareIds)
    if (notes.length === 0) return
    // A relation of a tree-sitter language moves a ranking only where a measurement adopted it.
    for (const edge of yield* graph.edgesOf(notes)) if (mayMoveRanking(edge.from, edge.verb, options.graphLanguageRelations)) fetched.push(edge)
    for (const note of notes) fetchedFor.add(note)
  })
  // Each round fetches the frontier's edges (the seeds' even with expansion off, since `related`
  // reports them), then walks one hop along them. The last hop's notes are not fetched here: of
  // those only the admitted are listed, and only their edges are read later, so they are fetched
  // once admitted (a hub's neighbours can number thousands, and their edges most of the stage).
  for (let hop = 0; frontier.size > 0; hop++) {
    if (hop > 0 && hop >= wantHops) break
    yield* fetchEdges(frontier.keys())
    if (hop >= wantHops) break
    const next = step(frontier, uniqueEdges(fetched), visited, options)
    for (const [note, how] of next) {
      visited.add(note)
      reached.set(note, how)
    }
    frontier = next
  }

  // Admit neighbours best first, a few chunks each, up to the total limit.
  const order = [...reached.values()].sort(byScoreThen((r) => r.note))
  const already = new Set(seeds.map((seed) => seed.chunk.id))
  const admitted: Array<Candidate.Candidate> = []
  // Notes are read in order, only as many at a time as chunks are still wanted: a hub two hops away
  // reaches thousands of notes, and reading every one's chunks to admit twenty was most of the stage.
  for (let next = 0; admitted.length < options.graphExpandLimit && next < order.length;) {
    const batch = order.slice(next, next + options.graphExpandLimit - admitted.length)
    next += batch.length
    const chunks = yield* store.chunksOfNotes(batch.map((r) => r.note), options.graphChunksPerNote, filter)
    const byNote = new Map<string, Array<Chunk>>()
    for (const chunk of chunks) {
      let list = byNote.get(chunk.noteId)
      if (list === undefined) byNote.set(chunk.noteId, (list = []))
      list.push(chunk)
    }
    outer: for (const how of batch) {
      for (const chunk of byNote.get(how.note) ?? []) {
        if (admitted.length >= options.graphExpandLimit) break outer
        if (already.has(chunk.id)) continue
        already.add(chunk.id)
        const base = Candidate.make(chunk, how.rrf)
        admitted.push({
          ...Candidate.withComponents(base, {
            ...base.components,
            relationWeight: how.relationWeight,
            hopPenalty: options.graphHopPenalty ** how.hops
          }),
          graph: { hops: how.hops, relation: how.relation, from: how.from }
        })
      }
    }
  }

  // Seeds the walk did not start from still report their edges in `related`.
  yield* fetchEdges([...seedNotes.keys(), ...admitted.map((candidate) => candidate.chunk.noteId)])
  const edges = uniqueEdges(fetched)
  const listed = [...seeds, ...admitted]
  const targets = relatedByNote(edges, new Set(listed.map((candidate) => candidate.chunk.noteId)))
  // Where a reader should go next: the most canonical target first, when the corpus says which.
  const scores = targets.size === 0 ? undefined : yield* canonicalityOf([...targets.values()].flatMap((set) => [...set]))
  const relatedOrder = byCanonicality(scores)
  const related = new Map([...targets].map(([note, set]) => [note, [...set].sort(relatedOrder)]))
  const withRelated = (candidate: Candidate.Candidate): Candidate.Candidate => ({
    ...candidate,
    related: related.get(candidate.chunk.noteId) ?? []
  })
  return { candidates: listed.map(withRelated), edges }
})

export class GraphExpansion extends Context.Service<GraphExpansion, {
  readonly expand: (
    seeds: ReadonlyArray<Candidate.Candidate>,
    filter: RetrievalFilter,
    options: ExpansionOptions
  ) => Effect.Effect<Expansion, GraphStoreError | CandidateStoreError>
}>()("cairn/retrieval/GraphExpansion") {}

/** The shipped walk over whatever GraphStore and CandidateStore are provided. */
export const layer: Layer.Layer<GraphExpansion, never, GraphStore | CandidateStore> = Layer.effect(
  GraphExpansion,
  Effect.gen(function*() {
    const context = yield* Effect.context<GraphStore | CandidateStore>()
    return GraphExpansion.of({
      expand: (seeds, filter, options) => expandWith(seeds, filter, options).pipe(Effect.provide(context))
    })
  })
)

/** Expansion switched off: seeds pass through, with no edges fetched. An ablation. */
export const layerOff: Layer.Layer<GraphExpansion> = Layer.succeed(GraphExpansion, {
  expand: (seeds) => Effect.succeed({ candidates: seeds, edges: [] })
})
