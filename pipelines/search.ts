/**
 * Search: a ranked list an agent can page, where recall gives a pack. The same first-pass legs as
 * recall, asked deeper and fused by RRF into one ranking of chunks; files (a module or a document),
 * chunks and symbols are read off that ranking in its order, so `kinds` filters after ranking and
 * never reorders, and a filtered page is still full. One payload for `cairn search --json` and the
 * MCP `search` tool. A test, fixture or benchmark chunk is weighed by `testFileWeight` unless the
 * query asks about tests, as stage 7 weighs it in recall: they repeat the code's names and crowd
 * out the implementation (bench:commits, eval/commits/README.md). Each result names the files one
 * import away, its tests among them, so a weighed-down test is still one step from its code. An
 * optional second stage steps from the confident files along imports and calls
 * (`searchExpansionSeeds`) and to the files the history changed with them (`coChangeSeeds`), and
 * fuses what each reaches as one more leg (docs/configuration.md).
 */
import { Clock, Effect, Option, Schema } from "effect"
import type { Chunk } from "../src/domain/Chunk.ts"
import type { LegStatus } from "../src/domain/ContextPack.ts"
import { NoteType } from "../src/domain/Chunk.ts"
import { fromSchemaError, InvalidInput } from "../src/domain/InvalidInput.ts"
import { CandidateStore, type CandidateStoreError } from "../src/ports/CandidateStore.ts"
import { CoChange } from "../src/ports/CoChange.ts"
import { GraphStore, type NoteEdge } from "../src/ports/GraphStore.ts"
import { consistently } from "../src/ports/ConsistentRead.ts"
import { IndexHealth, type IndexHealthReading } from "../src/ports/IndexHealth.ts"
import { compile, type RetrievalFilter } from "../src/ports/RetrievalFilter.ts"
import { terms } from "../src/text/Words.ts"
import { RetrievalConfig } from "../src/RetrievalConfig.ts"
import { testFileWeigher } from "../src/retrieval/adjust/testFiles.ts"
import { coChanged } from "../src/retrieval/coChange.ts"
import { expandFiles, rankedByWords } from "../src/retrieval/fileExpansion.ts"
import { Fusion, type RankedList } from "../src/retrieval/fuse.ts"
import { clampEchoedQuery } from "../src/retrieval/pack.ts"
import { analysedStopwords } from "../src/text/Stopwords.ts"
import type { RecallServices } from "./recall.ts"
import { firstPass, legGap } from "./legs.ts"
import { relatedPaths } from "./relatedPaths.ts"
import { reduceQuestion } from "./question.ts"
import { checkedReading } from "./staleness.ts"
import { underDeadline } from "./deadline.ts"

/** Deepest an agent may page: `offset + limit`. */
export const MAX_SEARCH_DEPTH = 200
/** Chunks asked of each leg per result wanted: a file is often found through several of its chunks. */
const CHUNKS_PER_RESULT = 4
const MAX_LEG_DEPTH = 1_000
const EXCERPT_LINES = 3
const EXCERPT_LINE_CHARS = 160

export const SearchKind = Schema.Literals(["module", "document", "chunk", "symbol"]).annotate({
  description: "module: a source file; document: a Markdown file; chunk: one section or declaration; symbol: a declared name"
})
export type SearchKind = typeof SearchKind.Type

/** Files: what an agent opens. */
export const DEFAULT_KINDS: ReadonlyArray<SearchKind> = ["module", "document"]

export const SearchRequest = Schema.Struct({
  query: Schema.String.annotate({ description: "What to look for: words, identifiers, a path or a question" }),
  kinds: Schema.optionalKey(Schema.Array(SearchKind).annotate({ description: "Result kinds, default files (module and document)" })),
  scope: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "Only files under these repository-relative path prefixes" })),
  types: Schema.optionalKey(Schema.Array(NoteType).annotate({ description: "Only these note types (code, decision, convention, state, reference, note)" })),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_SEARCH_DEPTH })).annotate({ description: "Results per page, 1 to 200 (default 10)" })),
  offset: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_SEARCH_DEPTH - 1 })).annotate({ description: "Results to skip; offset + limit is at most 200" })),
  explain: Schema.optionalKey(Schema.Boolean.annotate({ description: "Add each result's score components: its rank in every leg and the fused score" }))
})
export type SearchRequest = typeof SearchRequest.Type

/** How far the index answering is behind the files, as a pack reports it (camelCase). */
export const HealthView = Schema.Struct({
  embeddingCoverage: Schema.Finite,
  lagSeconds: Schema.Finite,
  filesChanged: Schema.optionalKey(Schema.Int)
})

export const healthView = (reading: IndexHealthReading): typeof HealthView.Type => ({
  embeddingCoverage: reading.embeddingCoverage,
  lagSeconds: reading.lagSeconds,
  ...(reading.filesChanged === undefined ? {} : { filesChanged: reading.filesChanged })
})

export const SearchComponents = Schema.Struct({
  /** The fused reciprocal-rank score of the result's best chunk. */
  rrf: Schema.Finite,
  /** `testFileWeight` for a test, fixture or benchmark file when the query does not ask about tests, else 1: `score = rrf × testWeight`. */
  testWeight: Schema.Finite,
  /** 1-based rank of that chunk in each leg that returned it. */
  ranks: Schema.Record(Schema.String, Schema.Int),
  /**
   * With the second stage on (`searchExpansionSeeds` above 0) and the chunk its file's among the
   * neighbours: its rank in that leg (also in `ranks`, as `expansion`) and the seed it was reached from.
   */
  expansion: Schema.optionalKey(Schema.Struct({ rank: Schema.Int, via: Schema.String })),
  /**
   * With the co-change leg on (`coChangeSeeds` above 0) and the file among those the history
   * changed with a seed: its rank in that leg (also in `ranks`, as `cochange`) and that seed.
   */
  cochange: Schema.optionalKey(Schema.Struct({ rank: Schema.Int, via: Schema.String }))
})

export const SearchResult = Schema.Struct({
  kind: SearchKind,
  path: Schema.String,
  /** 1-based inclusive lines of the best-ranked chunk (the declaration for a symbol). */
  lineStart: Schema.Int,
  lineEnd: Schema.Int,
  title: Schema.String,
  /** The chunk id (`path#blockId`) the result was ranked by: `lookup` and `ask` accept it. */
  chunk: Schema.String,
  /** The declared name, for a symbol. */
  symbol: Schema.optionalKey(Schema.String),
  /** Up to three lines of the chunk that hold the query's words, `line: text`. */
  excerpt: Schema.String,
  /**
   * Files one step away in the graph (pipelines/relatedPaths.ts): what the file imports, what imports
   * it, what it calls, what calls it, and its tests (or, for a test, its subject); up to ten of
   * each, in path order.
   */
  related: Schema.Struct({
    imports: Schema.Array(Schema.String),
    importedBy: Schema.Array(Schema.String),
    calls: Schema.Array(Schema.String),
    calledBy: Schema.Array(Schema.String),
    testSiblings: Schema.Array(Schema.String)
  }),
  /** Four significant digits of `components.rrf × components.testWeight`; only the order among results means anything. */
  score: Schema.Finite,
  components: Schema.optionalKey(SearchComponents)
})
export type SearchResult = typeof SearchResult.Type

export const SearchResponse = Schema.Struct({
  /** The query as asked, cut as a pack cuts its echoed question when it is very long. */
  query: Schema.String,
  kinds: Schema.Array(SearchKind),
  offset: Schema.Int,
  limit: Schema.Int,
  /** Results of these kinds in the ranking, up to the depth searched (`offset + limit` or more). */
  total: Schema.Int,
  results: Schema.Array(SearchResult),
  legs: Schema.Array(Schema.Struct({ name: Schema.String, status: Schema.String, hits: Schema.Int })),
  /** A leg that failed or ran out of time (the ranking is missing what it would have found), or a query reduced to its rarest terms. */
  gaps: Schema.Array(Schema.String),
  indexHealth: HealthView
})
export type SearchResponse = typeof SearchResponse.Type

const decodeStrict = Schema.decodeUnknownEffect(SearchRequest)

export const decodeSearch = (input: unknown): Effect.Effect<SearchRequest, InvalidInput> =>
  decodeStrict(input, { onExcessProperty: "error" }).pipe(Effect.mapError((error) => fromSchemaError("search", error)))

const significant = (x: number): number => Number(x.toPrecision(4))

/** The lines of a chunk's body that hold the most query terms, in line order, numbered. */
export const excerptOf = (chunk: Chunk, queryTerms: ReadonlySet<string>): string => {
  // The first line of a chunk's text is its `{title} > {heading path}` header, not a source line.
  const body = chunk.text.split("\n").slice(1)
  const scored = body.map((line, i) => {
    let hits = 0
    if (queryTerms.size > 0 && line.trim() !== "") for (const term of new Set(terms(line))) if (queryTerms.has(term)) hits++
    return { i, line, hits }
  })
  const matching = scored.filter((s) => s.hits > 0).sort((a, b) => b.hits - a.hits || a.i - b.i).slice(0, EXCERPT_LINES)
  const chosen = matching.length > 0 ? matching : scored.filter((s) => s.line.trim() !== "").slice(0, 1)
  return chosen
    .sort((a, b) => a.i - b.i)
    .map(({ i, line }) => {
      const text = line.trim()
      const cut = text.length > EXCERPT_LINE_CHARS ? `${text.slice(0, EXCERPT_LINE_CHARS - 1)}…` : text
      return `${Math.min(chunk.lineStart + i, chunk.lineEnd)}: ${cut}`
    })
    .join("\n")
}

const toFilter = (request: SearchRequest): RetrievalFilter => ({
  ...(request.scope === undefined || request.scope.length === 0 ? {} : { paths: request.scope }),
  ...(request.types === undefined ? {} : { types: request.types })
})

interface Ranked {
  readonly chunk: Chunk
  readonly rrf: number
  readonly testWeight: number
  readonly score: number
  readonly ranks: Readonly<Record<string, number>>
  readonly expansion?: { readonly rank: number; readonly via: string }
  readonly cochange?: { readonly rank: number; readonly via: string }
}

const EXPANSION_LEG = "expansion"
const COCHANGE_LEG = "cochange"

/**
 * A file the first pass is sure of: ranked by a lexical, title/path or symbol leg (never the dense
 * leg alone), and named by the title/path channel, declaring a name the query implicates, or
 * holding two of the query's terms (its one term, for a one-word query).
 */
const isConfident = (entry: Ranked, queryTerms: ReadonlySet<string>): boolean => {
  if (!rankedByWords(entry.ranks)) return false
  if (entry.ranks["title_path"] !== undefined || entry.ranks["symbol"] !== undefined) return true
  const needed = Math.min(2, queryTerms.size)
  let matched = 0
  for (const term of new Set(terms(entry.chunk.text))) if (queryTerms.has(term) && ++matched >= needed) return true
  return false
}

/** Each file once, at its best chunk, in the ranking's order. */
const filesOf = (ranked: ReadonlyArray<Ranked>): Array<Ranked> => {
  const seen = new Set<string>()
  return ranked.filter((entry) => !seen.has(entry.chunk.path) && (seen.add(entry.chunk.path), true))
}

/** One leg of the second stage: the files it reached, best first, each with the seed it came from. */
interface StageLeg {
  readonly name: string
  readonly status: LegStatus
  readonly reached: ReadonlyArray<{ readonly path: string; readonly via: string }>
  readonly requested: number
  readonly weight: number
  readonly gap?: string
}

interface SecondStage {
  readonly ranked: ReadonlyArray<Ranked>
  readonly legs: ReadonlyArray<{ readonly name: string; readonly status: LegStatus; readonly hits: number }>
  readonly gaps: ReadonlyArray<string>
}

const stageLeg = (name: string, status: LegStatus, gap?: string): StageLeg => ({
  name, status, reached: [], requested: 0, weight: 0, ...(gap === undefined ? {} : { gap })
})

/** The confident files among the first `count` of the ranking, each weighed by its score over the best. */
const seedsOf = (files: ReadonlyArray<Ranked>, count: number, queryTerms: ReadonlySet<string>) => {
  const best = files[0]?.score ?? 0
  return best <= 0 ? [] : files.slice(0, count)
    .filter((entry) => isConfident(entry, queryTerms))
    .map((entry) => ({ path: entry.chunk.path, weight: entry.score / best }))
}

/** The step along imports and calls (src/retrieval/fileExpansion.ts). */
const expansionLeg = Effect.fn("search.expansionLeg")(function*(files: ReadonlyArray<Ranked>, queryTerms: ReadonlySet<string>, weigh: (path: string) => number) {
  const config = yield* RetrievalConfig
  if (config.searchExpansionSeeds <= 0 || config.searchExpansionLimit <= 0) return stageLeg(EXPANSION_LEG, "skipped")
  const seeds = seedsOf(files, config.searchExpansionSeeds, queryTerms)
  if (seeds.length === 0) return stageLeg(EXPANSION_LEG, "empty")
  const graph = yield* GraphStore
  const edges = yield* graph.edgesOf(seeds.map((seed) => seed.path).sort()).pipe(Effect.result)
  if (edges._tag === "Failure") return stageLeg(EXPANSION_LEG, "failed", `the second stage of the file ranking is missing: ${edges.failure.message}`)
  const reached = expandFiles(seeds, edges.success, { weights: config.searchExpansionRelationWeights, limit: config.searchExpansionLimit, weigh })
  return { name: EXPANSION_LEG, status: "ok", reached, requested: config.searchExpansionLimit, weight: config.searchExpansionWeight } satisfies StageLeg
})

/**
 * The files the history changed with the seeds (src/retrieval/coChange.ts), under the soft deadline:
 * the first question at a new commit may read the log. On, but with no history to read (no git, no
 * commit, a backend without one), it is `skipped` and a gap says why.
 */
const coChangeLeg = Effect.fn("search.coChangeLeg")(function*(files: ReadonlyArray<Ranked>, queryTerms: ReadonlySet<string>, weigh: (path: string) => number) {
  const config = yield* RetrievalConfig
  if (config.coChangeSeeds <= 0 || config.coChangeLimit <= 0 || config.coChangeWindow <= 0) return stageLeg(COCHANGE_LEG, "skipped")
  const seeds = seedsOf(files, config.coChangeSeeds, queryTerms)
  if (seeds.length === 0) return stageLeg(COCHANGE_LEG, "empty")
  const source = yield* Effect.serviceOption(CoChange)
  const read = yield* underDeadline(Option.isNone(source) ? Effect.succeed(Option.none()) : source.value.history(config.coChangeWindow), config.softTimeoutMs)
  if (read.status !== "done") return stageLeg(COCHANGE_LEG, read.status, legGap({ name: COCHANGE_LEG, ...read }).text)
  if (Option.isNone(read.value)) {
    return stageLeg(COCHANGE_LEG, "skipped", "the co-change leg is on but has no history to read: the root is not a git work tree with a commit, or git cannot run")
  }
  const reached = coChanged(read.value.value, seeds, {
    window: config.coChangeWindow,
    maxFiles: config.coChangeMaxFiles,
    minCount: config.coChangeMinCount,
    skipTop: config.coChangeSkipTop,
    limit: config.coChangeLimit,
    weigh
  })
  return { name: COCHANGE_LEG, status: "ok", reached, requested: config.coChangeLimit, weight: config.coChangeWeight } satisfies StageLeg
})

/**
 * Search's second stage: from the confident files among the first pass's best, a step along
 * imports and calls (`expansion`) and to the files the history changed with them (`cochange`).
 * What each reaches (each file at its best chunk, or its first when the first pass never ranked
 * it) is fused with the first pass's legs again as one more leg. So two legs that agree still
 * outvote a step, and a neighbour rises by as much as one leg's opinion. Both off, the ranking
 * stands and each says `skipped`; a graph that cannot be read says `failed` and leaves a gap.
 */
const secondStage = Effect.fn("search.secondStage")(function*(
  ranked: ReadonlyArray<Ranked>,
  lists: ReadonlyArray<RankedList>,
  queryTerms: ReadonlySet<string>,
  filter: RetrievalFilter,
  weigh: (path: string) => number
) {
  const files = filesOf(ranked)
  const stages = [yield* expansionLeg(files, queryTerms, weigh), yield* coChangeLeg(files, queryTerms, weigh)]
  const atFile = new Map(files.map((entry) => [entry.chunk.path, entry.chunk]))
  const unranked = [...new Set(stages.flatMap((leg) => leg.reached.map((item) => item.path)))].filter((path) => !atFile.has(path)).sort()
  const store = yield* CandidateStore
  const passes = compile(filter)
  const entered = unranked.length === 0 ? [] : yield* store.chunksOfNotes(unranked, 1, filter)
  for (const chunk of entered) if (passes(chunk) && !atFile.has(chunk.path)) atFile.set(chunk.path, chunk)
  const legs = stages.map((leg) => {
    const neighbours = leg.reached.filter((item) => atFile.has(item.path))
    return { ...leg, neighbours, status: leg.status === "ok" && neighbours.length === 0 ? "empty" as const : leg.status }
  })
  const report = legs.map((leg) => ({ name: leg.name, status: leg.status, hits: leg.neighbours.length }))
  const gaps = legs.flatMap((leg) => (leg.gap === undefined ? [] : [leg.gap]))
  const active = legs.filter((leg) => leg.neighbours.length > 0)
  if (active.length === 0) return { ranked, legs: report, gaps } satisfies SecondStage
  const chunkById = new Map<string, Chunk>([...ranked.map((entry) => entry.chunk), ...atFile.values()].map((chunk) => [chunk.id, chunk]))
  const via = new Map(active.map((leg) => [leg.name, new Map(leg.neighbours.map((item) => [atFile.get(item.path)!.id, item.via]))]))
  const fusion = yield* Fusion
  const config = yield* RetrievalConfig
  const fused = fusion.fuse([
    ...lists,
    ...active.map((leg) => ({ leg: leg.name, ids: leg.neighbours.map((item) => atFile.get(item.path)!.id), requested: leg.requested, weight: leg.weight }))
  ], { ...config, fusedLimit: Number.MAX_SAFE_INTEGER })
  const again = fused.flatMap((entry): Array<Ranked> => {
    const chunk = chunkById.get(entry.id)
    if (chunk === undefined) return []
    const testWeight = weigh(chunk.path)
    const reachedBy = (name: string) => {
      const rank = entry.ranks[name]
      const from = via.get(name)?.get(entry.id)
      return rank === undefined || from === undefined ? undefined : { rank, via: from }
    }
    const expansion = reachedBy(EXPANSION_LEG)
    const cochange = reachedBy(COCHANGE_LEG)
    return [{
      chunk,
      rrf: entry.rrf,
      testWeight,
      score: entry.rrf * testWeight,
      ranks: entry.ranks,
      ...(expansion === undefined ? {} : { expansion }),
      ...(cochange === undefined ? {} : { cochange })
    }]
  })
  // Stable: equal scores keep the fused order.
  again.sort((a, b) => b.score - a.score)
  return { ranked: again, legs: report, gaps } satisfies SecondStage
})

/** Every result of `kinds` the ranking holds, in its order: a file at its best chunk, a symbol at its declaring chunk. */
const resultsOf = (ranked: ReadonlyArray<Ranked>, kinds: ReadonlySet<SearchKind>) => {
  const out: Array<{ readonly kind: SearchKind; readonly entry: Ranked; readonly symbol?: string }> = []
  const seenFiles = new Set<string>()
  const seenSymbols = new Set<string>()
  for (const entry of ranked) {
    const fileKind: SearchKind = entry.chunk.noteType === "code" ? "module" : "document"
    if (kinds.has(fileKind) && !seenFiles.has(entry.chunk.path)) {
      seenFiles.add(entry.chunk.path)
      out.push({ kind: fileKind, entry })
    }
    if (kinds.has("chunk")) out.push({ kind: "chunk", entry })
    if (kinds.has("symbol")) {
      for (const symbol of entry.chunk.symbols) {
        const key = `${entry.chunk.path}\u0000${symbol}`
        if (seenSymbols.has(key)) continue
        seenSymbols.add(key)
        out.push({ kind: "symbol", entry, symbol })
      }
    }
  }
  return out
}

export const search = Effect.fn("search")(function*(
  input: unknown
): Effect.fn.Return<SearchResponse, InvalidInput | CandidateStoreError, RecallServices | GraphStore> {
  const request = yield* decodeSearch(input)
  const offset = request.offset ?? 0
  const limit = request.limit ?? 10
  if (offset + limit > MAX_SEARCH_DEPTH) {
    return yield* new InvalidInput({ subject: "search", field: "offset", detail: `offset + limit must be at most ${MAX_SEARCH_DEPTH}, got ${offset + limit}` })
  }
  const kinds = request.kinds === undefined || request.kinds.length === 0 ? DEFAULT_KINDS : [...new Set(request.kinds)].sort()
  // The one clock read, for the index's lag.
  const now = yield* Clock.currentTimeMillis
  const config = yield* RetrievalConfig
  const fusion = yield* Fusion
  const store = yield* CandidateStore
  const health = yield* IndexHealth
  const graph = yield* GraphStore
  const reading = yield* checkedReading(health, now).pipe(
    Effect.catch(() => Effect.succeed<IndexHealthReading>({ embeddingCoverage: 0, lagSeconds: 0 }))
  )
  const depth = Math.min(MAX_LEG_DEPTH, Math.max(config.lexicalLimit, (offset + limit) * CHUNKS_PER_RESULT))
  const filter = toFilter(request)
  // A long query is reduced to its rarest terms before any leg runs, as recall's question is.
  const stopwords = analysedStopwords(config.gapStopwords)
  const question = yield* reduceQuestion(request.query, stopwords)
  const legs = yield* firstPass(question.reduction.text, filter, {
    lexicalLimit: depth,
    denseLimit: depth,
    titlePathLimit: Math.max(config.titlePathLimit, offset + limit),
    titlePathMinScore: config.titlePathMinScore,
    // On, the symbol leg is asked as deep as the page, as the title/path channel is.
    symbolLimit: config.symbolLimit === 0 ? 0 : Math.max(config.symbolLimit, offset + limit),
    softTimeoutMs: config.softTimeoutMs,
    stopwords
  }, reading)
  const lists = legs.flatMap((leg) => (leg.list === undefined ? [] : [leg.list]))
  const fused = fusion.fuse(lists, { ...config, fusedLimit: Number.MAX_SAFE_INTEGER })
  const chunks = yield* store.get(fused.map((entry) => entry.id))
  // The filter again in memory, so a leg that filters loosely leaks nothing; link lists name, never answer.
  const passes = compile(filter)
  const weigh = testFileWeigher(question.reduction.text, config.testFileWeight)
  const ranked = chunks.flatMap((chunk, i): Array<Ranked> => {
    if (!passes(chunk) || chunk.isLinkList) return []
    const testWeight = weigh(chunk.path)
    return [{ chunk, rrf: fused[i]!.rrf, testWeight, score: fused[i]!.rrf * testWeight, ranks: fused[i]!.ranks }]
  })
  // Stable: equal scores keep the fused order.
  ranked.sort((a, b) => b.score - a.score)
  const queryTerms = new Set(terms(question.reduction.text))
  const second = yield* secondStage(ranked, lists, queryTerms, filter, weigh)
  const all = resultsOf(second.ranked, new Set(kinds))
  const page = all.slice(offset, offset + limit)
  // The page's files only, in one read; without the graph the results stand and a gap says so.
  const edges = yield* graph.edgesOf([...new Set(page.map(({ entry }) => entry.chunk.path))].sort()).pipe(
    Effect.map((found): { readonly edges: ReadonlyArray<NoteEdge>; readonly gap?: string } => ({ edges: found })),
    Effect.catch((error) => Effect.succeed({ edges: [], gap: `related paths are missing: ${error.message}` }))
  )
  const results = page.map(({ entry, kind, symbol }): SearchResult => ({
    kind,
    path: entry.chunk.path,
    lineStart: entry.chunk.lineStart,
    lineEnd: entry.chunk.lineEnd,
    title: entry.chunk.title,
    chunk: entry.chunk.id,
    ...(symbol === undefined ? {} : { symbol }),
    excerpt: excerptOf(entry.chunk, queryTerms),
    related: relatedPaths(entry.chunk.path, edges.edges),
    score: significant(entry.score),
    ...(request.explain === true
      ? {
        components: {
          rrf: entry.rrf,
          testWeight: entry.testWeight,
          ranks: entry.ranks,
          ...(entry.expansion === undefined ? {} : { expansion: entry.expansion }),
          ...(entry.cochange === undefined ? {} : { cochange: entry.cochange })
        }
      }
      : {})
  }))
  return {
    // Echoed as the pack echoes a question: bounded, so a megabyte asked is not a megabyte answered.
    query: clampEchoedQuery(request.query),
    kinds,
    offset,
    limit,
    total: all.length,
    results,
    legs: [
      ...legs.map((leg) => ({ name: leg.name, status: leg.status satisfies LegStatus, hits: leg.list?.ids.length ?? 0 })),
      ...second.legs
    ],
    gaps: [
      ...legs.filter((leg) => leg.status === "failed" || leg.status === "timed_out").map((leg) => legGap(leg).text),
      ...(question.gap === undefined ? [] : [question.gap.text]),
      ...second.gaps,
      ...(edges.gap === undefined ? [] : [edges.gap])
    ],
    indexHealth: healthView(reading)
  }
  // Every read of the search from one commit, as recall reads.
}, consistently)
