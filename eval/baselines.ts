/**
 * Baselines on the same questions, through the same packer and budget: what a user would get from
 * grep, from chance, from BM25 over whole files, and from the two libraries they might pick instead
 * (MiniSearch and Orama) indexing the same chunks. Each ranks chunks; the shipped packer does the rest.
 *
 * MiniSearch and Orama are optional peer dependencies, loaded when their baseline runs: an installed
 * cairn without them still benches, skips those two, and says which package each needs.
 */
import { Effect, Schema } from "effect"
import * as Candidate from "../src/domain/Candidate.ts"
import type { Chunk, ChunkId } from "../src/domain/Chunk.ts"
import { byScoreThen, compareIds } from "../src/domain/Ranking.ts"
import { words } from "../src/text/Words.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { makePack } from "../src/retrieval/pack.ts"
import { foldedStopwords } from "../src/text/Stopwords.ts"
import * as LexicalIndexMemory from "../layers/reference/LexicalIndexMemory.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import type { EvalCorpus } from "./Corpus.ts"
import type * as M from "./metrics.ts"
import { textOf } from "./Question.ts"
import type { LoadedQuestion } from "./run.ts"

export interface Baseline {
  readonly name: string
  readonly description: string
  /** Builds the ranker once per corpus; the ranker returns chunk ids best first. */
  readonly prepare: (corpus: EvalCorpus) => Effect.Effect<(question: LoadedQuestion) => Promise<ReadonlyArray<ChunkId>> | ReadonlyArray<ChunkId>, BaselineUnavailable>
}

/** A baseline whose optional package is not installed; the bench skips it and names the package. */
export class BaselineUnavailable extends Schema.TaggedError<BaselineUnavailable>()("BaselineUnavailable", {
  baseline: Schema.String,
  packageName: Schema.String
}) {
  override get message(): string {
    return `baseline skipped: ${skippedLine([{ name: this.baseline, packageName: this.packageName }])}`
  }
}

/** "minisearch needs minisearch (npm install minisearch), …", the install command quoted with `quote`. */
export const skippedLine = (skipped: ReadonlyArray<{ readonly name: string; readonly packageName: string }>, quote = ""): string =>
  skipped.map((s) => `${s.name} needs ${s.packageName} (${quote}npm install ${s.packageName}${quote})`).join(", ")

/**
 * The optional peer packages, each imported the first time its baseline runs; tests swap one for a
 * failing loader. Typed `unknown` here, and as the package where it is used, so the declarations
 * cairn ships name neither package: a user without them still type-checks `cairn/eval`.
 */
export interface OptionalPackages {
  readonly minisearch: () => Promise<unknown>
  readonly "@orama/orama": () => Promise<unknown>
}

export const optionalPackages: OptionalPackages = {
  minisearch: () => import("minisearch"),
  "@orama/orama": () => import("@orama/orama")
}

/**
 * Node's error for a package that is not installed. A file missing inside an installed package, or
 * a package missing under it, is a broken install instead, and stays a defect.
 */
const notInstalled = (error: unknown, packageName: string): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  error.message.startsWith(`Cannot find package '${packageName}' `)

const loadOptional = <A>(baseline: string, packageName: string, load: () => Promise<A>) =>
  Effect.tryPromise({ try: load, catch: (error) => error }).pipe(
    Effect.catch((error) =>
      notInstalled(error, packageName) ? Effect.fail(new BaselineUnavailable({ baseline, packageName })) : Effect.die(error))
  )

const searchable = (chunks: ReadonlyArray<Chunk>) => chunks.filter((c) => !c.isLinkList)

const queryWords = (text: string): Array<string> => {
  const stopwords = foldedStopwords(RetrievalConfig.defaults.gapStopwords)
  return [...new Set(words(text).filter((w) => !stopwords.has(w)))].slice(0, 64)
}

/** grep: a file scores the distinct query words it contains; its chunks follow in file order. */
const grep: Baseline = {
  name: "grep",
  description: "files ranked by distinct query words they contain",
  prepare: (corpus) => Effect.sync(() => {
    const byNote = new Map<string, Array<Chunk>>()
    for (const c of searchable(corpus.chunks)) {
      let list = byNote.get(c.noteId)
      if (list === undefined) byNote.set(c.noteId, (list = []))
      list.push(c)
    }
    const fileWords = new Map([...byNote].map(([note, chunks]) => [note, new Set(chunks.flatMap((c) => words(c.text)))]))
    return (q) => {
      const wanted = queryWords(textOf(q.question))
      const scored = [...fileWords].map(([note, set]) => ({ note, score: wanted.filter((w) => set.has(w)).length }))
        .filter((f) => f.score > 0)
        .sort(byScoreThen((file) => file.note))
      return scored.flatMap((f) => byNote.get(f.note)!.map((c) => c.id))
    }
  })
}

/** random: a seeded shuffle per question, so the floor reproduces. */
const random: Baseline = {
  name: "random",
  description: "chunks in a seeded random order",
  prepare: (corpus) => Effect.sync(() => {
    const ids = searchable(corpus.chunks).map((c) => c.id).sort(compareIds)
    return (q) => {
      let seed = [...q.question.id].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, 7)
      const next = () => {
        seed = (seed + 0x6d2b79f5) | 0
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296
      }
      const out = [...ids]
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[out[i], out[j]] = [out[j]!, out[i]!]
      }
      return out.slice(0, 50)
    }
  })
}

/** BM25 over whole files (one document per note); a file's chunks follow in file order. */
const wholeFileBm25: Baseline = {
  name: "whole-file-bm25",
  description: "BM25 over whole files instead of chunks",
  prepare: Effect.fn("wholeFileBm25.prepare")(function*(corpus: EvalCorpus) {
    const byNote = new Map<string, Array<Chunk>>()
    for (const c of searchable(corpus.chunks)) {
      let list = byNote.get(c.noteId)
      if (list === undefined) byNote.set(c.noteId, (list = []))
      list.push(c)
    }
    const files: Array<Chunk> = [...byNote].map(([note, chunks]) => ({ ...chunks[0]!, id: note as ChunkId, text: chunks.map((c) => c.text).join("\n") }))
    const index = yield* LexicalIndexMemory.make(files, RetrievalConfig.defaults.lexicalWeights).pipe(Effect.orDie)
    return async (q: LoadedQuestion) => {
      const hits = await Effect.runPromise(index.search(textOf(q.question), 50, {}).pipe(Effect.orElseSucceed(() => [])))
      return hits.flatMap((hit) => byNote.get(hit.id)!.map((c) => c.id))
    }
  })
}

const miniSearch = (packages: OptionalPackages): Baseline => ({
  name: "minisearch",
  description: "MiniSearch 7.2 over the same chunks (text, title), default options",
  prepare: (corpus) => Effect.map(loadOptional("minisearch", "minisearch", packages.minisearch as () => Promise<typeof import("minisearch")>), ({ default: MiniSearch }) => {
    const index = new MiniSearch<{ id: string; text: string; title: string }>({ fields: ["text", "title"] })
    index.addAll(searchable(corpus.chunks).map((c) => ({ id: c.id, text: c.text, title: c.title })))
    return (q: LoadedQuestion) => index.search(textOf(q.question).slice(0, 2_000)).slice(0, 50).map((r) => r.id as ChunkId)
  })
})

const orama = (packages: OptionalPackages): Baseline => ({
  name: "orama",
  description: "Orama 3.1 full-text search over the same chunks (text, title), default options",
  prepare: (corpus) => Effect.flatMap(loadOptional("orama", "@orama/orama", packages["@orama/orama"] as () => Promise<typeof import("@orama/orama")>), ({ create, insertMultiple, search }) => Effect.promise(async () => {
    const db = create({ schema: { chunk: "string", text: "string", title: "string" } as const })
    await insertMultiple(db, searchable(corpus.chunks).map((c) => ({ chunk: c.id, text: c.text, title: c.title })))
    return async (q: LoadedQuestion) => {
      const result = await search(db, { term: textOf(q.question).slice(0, 2_000), properties: ["text", "title"], limit: 50 })
      return result.hits.map((hit) => (hit.document as { chunk: string }).chunk as ChunkId)
    }
  }))
})

export const makeBaselines = (packages: OptionalPackages = optionalPackages): ReadonlyArray<Baseline> =>
  [grep, random, wholeFileBm25, miniSearch(packages), orama(packages)]

export const BASELINES: ReadonlyArray<Baseline> = makeBaselines()

/**
 * Run one baseline: its ranking, cut to `rerankLimit` as recall cuts, rank-scored (1 / rank) so the
 * packer keeps its order, packed with the shipped packer and counter at the same budget.
 */
export const runBaseline = Effect.fn("baselines.runBaseline")(function*(baseline: Baseline, corpus: EvalCorpus, questions: ReadonlyArray<LoadedQuestion>, budgetTokens: number) {
  const rank = yield* baseline.prepare(corpus)
  const byId = new Map(corpus.chunks.map((c) => [c.id, c]))
  const pack = makePack(TokenCounterDefault.counter.count, RetrievalConfig.defaults)
  const observations: Array<M.Observation & { readonly file: string }> = []
  for (const q of questions) {
    const started = performance.now()
    const ids = (yield* Effect.promise(async () => rank(q))).slice(0, RetrievalConfig.defaults.rerankLimit)
    const candidates = ids.flatMap((id, i) => {
      const chunk = byId.get(id)
      return chunk === undefined ? [] : [Candidate.make(chunk, 1 / (i + 1))]
    })
    const result = pack({
      query: { text: textOf(q.question), budgetTokens, filters: {}, explain: false },
      candidates,
      conflicts: [],
      gaps: [],
      indexHealth: { embeddingCoverage: 1, lagSeconds: 0 }
    })
    observations.push({
      file: q.file,
      question: q.question,
      claims: result.claims.map((c) => ({ note: c.note, ref: c.ref, text: c.text, heading: c.heading })),
      gaps: result.gaps,
      conflicts: [],
      usedTokens: result.usedTokens,
      budgetTokens,
      candidateNotes: candidates.map((c) => c.chunk.noteId),
      latencyMs: performance.now() - started,
      stageMs: {}
    })
  }
  return observations
})
