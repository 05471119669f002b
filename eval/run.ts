/**
 * The bench runner: every question through recall under each condition, at the corpus's anchor
 * date, with bounded concurrency and progress; then every metric per condition and, against the
 * first condition, a paired bootstrap interval for each delta with the questions gained and lost.
 */
import { Duration, Effect, Exit, Layer, ManagedRuntime, Result } from "effect"
import * as ContextPack from "../src/domain/ContextPack.ts"
import * as Recall from "../layers/Recall.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { recallTrace } from "../pipelines/recall.ts"
import type { Answerability } from "../src/retrieval/answerability.ts"
import { anchored } from "./AnchoredClock.ts"
import { pairedBootstrap, type PairedDelta } from "./bootstrap.ts"
import { type Baseline, runBaseline } from "./baselines.ts"
import type { Condition } from "./conditions.ts"
import { corpusContains, type EvalCorpus } from "./Corpus.ts"
import * as M from "./metrics.ts"
import { kindOf, type Question, textOf } from "./Question.ts"

export interface LoadedQuestion {
  /** The file it came from, relative to the question-set folder. */
  readonly file: string
  readonly question: Question
}

export interface BenchOptions {
  readonly corpus: EvalCorpus
  readonly questions: ReadonlyArray<LoadedQuestion>
  readonly conditions: ReadonlyArray<Condition>
  readonly budgetTokens?: number
  readonly concurrency?: number
  /** Baselines run on the same questions through the same packer and budget. */
  readonly baselines?: ReadonlyArray<Baseline>
  readonly onProgress?: (event: { readonly condition: string; readonly done: number; readonly total: number }) => void
}

export interface ConditionResult {
  readonly condition: string
  readonly description: string
  /** Token counter the packs were measured with; an estimate is labelled as such. */
  readonly tokenCounter: string
  readonly observations: ReadonlyArray<M.Observation & { readonly file: string; readonly components?: unknown; readonly answerability?: Answerability }>
  readonly summary: ConditionSummary
}

export interface ConditionSummary {
  readonly ranking: M.RankingSummary
  readonly verdicts: M.VerdictSummary
  readonly negatives: ReturnType<typeof M.negativeRates>
  readonly traps: ReturnType<typeof M.decoyTraps>
  readonly conflicts: ReturnType<typeof M.conflictScores>
  readonly staleness: ReturnType<typeof M.staleness>
  readonly tokens: ReturnType<typeof M.tokenDistribution>
  readonly latency: ReturnType<typeof M.latency>
  readonly errors: ReadonlyArray<string>
}

export interface BenchResult {
  readonly corpus: string
  readonly anchor: string
  readonly budgetTokens: number
  readonly questionCount: number
  readonly conditions: ReadonlyArray<ConditionResult>
  readonly baselines: ReadonlyArray<{ readonly name: string; readonly description: string; readonly summary: ConditionSummary }>
  /** Baselines not run because their optional package is not installed, with the package each needs. */
  readonly skippedBaselines: ReadonlyArray<{ readonly name: string; readonly packageName: string }>
  /** Per condition after the first: metric → paired delta against the first. */
  readonly deltas: ReadonlyArray<{ readonly condition: string; readonly against: string; readonly metrics: Readonly<Record<string, PairedDelta>> }>
}

export const summarise = (corpus: EvalCorpus, observations: ReadonlyArray<M.Observation>): ConditionSummary => ({
  ranking: M.rankingSummary(observations),
  verdicts: M.summariseVerdicts(observations),
  negatives: M.negativeRates(observations),
  traps: M.decoyTraps(observations, corpusContains(corpus)),
  conflicts: M.conflictScores(observations, corpus.conflicts),
  staleness: M.staleness(observations, corpus.staleNotes),
  tokens: M.tokenDistribution(observations),
  latency: M.latency(observations),
  errors: observations.flatMap((o) => (o.error === undefined ? [] : [`${o.question.id}: ${o.error}`]))
})

/** Per-question values of the metrics whose deltas are reported. */
const perQuestion: Readonly<Record<string, (o: M.Observation) => number | undefined>> = {
  hitAt5: (o) => (kindOf(o.question) === "positive" ? M.hitAt(o, 5) : undefined),
  precisionAt5: (o) => (kindOf(o.question) === "positive" ? M.precisionAt(o, 5) : undefined),
  mrr: (o) => (kindOf(o.question) === "positive" ? M.reciprocalRank(o) : undefined),
  ndcgAt10: (o) => (kindOf(o.question) === "positive" ? M.ndcgAt(o, 10) : undefined),
  cch: (o) => {
    const v = M.verdict(o)
    return v === undefined ? undefined : v === "correct-cited" || v === "honest-gap" ? 1 : 0
  }
}

const keyed = (observations: ReadonlyArray<M.Observation>, metric: (o: M.Observation) => number | undefined) =>
  new Map(observations.flatMap((o) => {
    const value = metric(o)
    return value === undefined ? [] : [[o.question.id, value] as const]
  }))

const observe = Effect.fn("run.observe")(function*(runtime: ManagedRuntime.ManagedRuntime<Recall.RecallLayerServices, unknown>,
  corpus: EvalCorpus,
  loaded: LoadedQuestion,
  budgetTokens: number) {
    const q = loaded.question
    const traced = yield* Effect.promise(() =>
      runtime.runPromiseExit(
        Effect.timed(recallTrace({ text: textOf(q), budgetTokens }, { measure: true })).pipe(anchored(corpus.anchor))
      )
    )
    if (Exit.isFailure(traced)) {
      return {
        file: loaded.file, question: q, claims: [], gaps: [], conflicts: [], usedTokens: 0, budgetTokens,
        candidateNotes: [], latencyMs: 0, stageMs: {}, error: String(traced.cause)
      }
    }
    const [duration, trace] = traced.value
    const pack = trace.pack
    return {
      file: loaded.file,
      question: q,
      claims: pack.claims.map((c) => ({ note: c.note, ref: c.ref, text: c.text, heading: c.heading })),
      gaps: pack.gaps,
      conflicts: pack.conflicts,
      usedTokens: pack.usedTokens,
      budgetTokens: pack.budgetTokens,
      candidateNotes: trace.candidates.map((c) => c.chunk.noteId),
      latencyMs: Duration.toMillis(duration),
      stageMs: trace.timingsMs,
      packBytes: ContextPack.serialise(pack).length,
      answerability: trace.answerability,
      components: trace.candidates.slice(0, 10).map((c) => ({ ref: `${c.chunk.path}:${c.chunk.lineStart}-${c.chunk.lineEnd}#${c.chunk.blockId}`, note: c.chunk.noteId, score: c.score, ...c.components }))
    }
  })

export const runBench = Effect.fn("runBench")(function*(options: BenchOptions) {
  const budgetTokens = options.budgetTokens ?? 4_000
  const concurrency = options.concurrency ?? 4
  const results: Array<ConditionResult> = []
  for (const condition of options.conditions) {
    const { canonicality } = options.corpus
    const layer = Recall.reference({
      chunks: options.corpus.chunks,
      edges: options.corpus.edges,
      ...(canonicality === undefined ? {} : { canonicality })
    }, condition.options)
    const runtime = ManagedRuntime.make(layer as Layer.Layer<Recall.RecallLayerServices, unknown>)
    let done = 0
    const observations = yield* Effect.forEach(options.questions, (loaded) =>
      observe(runtime, options.corpus, loaded, budgetTokens).pipe(
        Effect.tap(() => Effect.sync(() => options.onProgress?.({ condition: condition.name, done: ++done, total: options.questions.length })))
      ), { concurrency })
    yield* Effect.promise(() => runtime.dispose())
    const counterId = condition.options.tokenCounter === undefined ? TokenCounterDefault.counter.id : "approximate/4-chars-per-token (an estimate)"
    results.push({
      condition: condition.name,
      description: condition.description,
      tokenCounter: counterId,
      observations: observations.map(({ components, ...o }) => ({ ...o, components })),
      summary: summarise(options.corpus, observations)
    })
  }
  const [first, ...rest] = results
  const deltas = first === undefined ? [] : rest.map((other) => ({
    condition: other.condition,
    against: first.condition,
    metrics: Object.fromEntries(Object.entries(perQuestion).map(([name, metric]) => [
      name,
      pairedBootstrap(keyed(first.observations, metric), keyed(other.observations, metric))
    ]))
  }))
  const baselines: Array<BenchResult["baselines"][number]> = []
  const skippedBaselines: Array<BenchResult["skippedBaselines"][number]> = []
  for (const baseline of options.baselines ?? []) {
    const ran = yield* Effect.result(runBaseline(baseline, options.corpus, options.questions, budgetTokens))
    if (Result.isFailure(ran)) skippedBaselines.push({ name: ran.failure.baseline, packageName: ran.failure.packageName })
    else baselines.push({ name: baseline.name, description: baseline.description, summary: summarise(options.corpus, ran.success) })
  }
  return {
    corpus: options.corpus.name,
    anchor: new Date(options.corpus.anchor).toISOString(),
    budgetTokens,
    questionCount: options.questions.length,
    conditions: results,
    baselines,
    skippedBaselines,
    deltas
  } satisfies BenchResult
})
