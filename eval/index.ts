/**
 * `cairn/eval`: the bench runner as a library: question sets and their schema, the corpora they are
 * asked of, the metrics, the conditions and baselines a run compares, the gate, and the reports.
 * The MiniSearch and Orama baselines need the optional packages `minisearch` and `@orama/orama`.
 */
import "../src/EffectAmbient.ts"
export * as Baselines from "./baselines.ts"
export * as Bootstrap from "./bootstrap.ts"
export * as Conditions from "./conditions.ts"
export * as Corpus from "./Corpus.ts"
export * as Gates from "./gates.ts"
export * as LoadCorpus from "./loadCorpus.ts"
export * as Metrics from "./metrics.ts"
export * as Question from "./Question.ts"
export * as Report from "./report.ts"
export * as Run from "./run.ts"
export * as Validate from "./validate.ts"
