/**
 * An evaluation question, as written from a corpus before anyone looked at what retrieval returns.
 * Three kinds share one shape: positive (non-empty `relevant`), negative (`relevant: []`, the corpus
 * does not answer it) and adversarial (`kind`, hostile input with `expect` contracts).
 */
import { Effect, Schema } from "effect"
import { NoteType } from "../src/domain/Chunk.ts"

export const Difficulty = Schema.Literals(["easy", "medium", "hard"])
export const Split = Schema.Literals(["dev", "heldout"])
export const AnswerType = Schema.Literals(["fact", "how-to", "why", "who", "when", "quantity", "list"])

/** A hostile payload too large to inline: `repeat` written `times` times. */
export const Generator = Schema.Struct({ repeat: Schema.String, times: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })) })

export const Freshness = Schema.Struct({
  fresher: Schema.String,
  staler: Schema.String,
  fresherUpdated: Schema.optionalKey(Schema.String),
  stalerUpdated: Schema.optionalKey(Schema.String),
  fresherAgeDays: Schema.optionalKey(Schema.Finite),
  stalerAgeDays: Schema.optionalKey(Schema.Finite),
  why: Schema.optionalKey(Schema.String)
})

export const Question = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9-]*$/)),
  question: Schema.String,
  intent: NoteType,
  difficulty: Difficulty,
  answerType: Schema.optionalKey(AnswerType),
  /** Corpus-relative paths that answer it (graded 2); empty for negatives and adversarials. */
  relevant: Schema.Array(Schema.String),
  primary: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** Related but not answering (graded 1 in nDCG). */
  nearest: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The heading line of the answering section of `primary`. */
  primaryBlock: Schema.optionalKey(Schema.String),
  relevantBlocks: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Each must occur on one line of some relevant document. */
  mustContain: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The decoy: text in the corpus that must not come back (for negatives: text nowhere in it). */
  mustNotContain: Schema.optionalKey(Schema.Array(Schema.String)),
  split: Split,
  notes: Schema.optionalKey(Schema.String),
  expectConflict: Schema.optionalKey(Schema.String),
  freshness: Schema.optionalKey(Freshness),
  gapId: Schema.optionalKey(Schema.String),
  kind: Schema.optionalKey(Schema.String),
  generator: Schema.optionalKey(Generator),
  pastedFrom: Schema.optionalKey(Schema.String),
  expect: Schema.optionalKey(Schema.Struct({
    claims: Schema.optionalKey(Schema.String),
    gaps: Schema.optionalKey(Schema.String),
    noCrash: Schema.optionalKey(Schema.Boolean),
    budgetRespected: Schema.optionalKey(Schema.Boolean),
    claimsOrGaps: Schema.optionalKey(Schema.Boolean)
  }))
})
export type Question = typeof Question.Type

/** A file is a bare array or `{ set, description, questions }`. */
export const QuestionFile = Schema.Union([
  Schema.Array(Question),
  Schema.Struct({ set: Schema.optionalKey(Schema.String), description: Schema.optionalKey(Schema.String), questions: Schema.Array(Question) })
])

export const decodeQuestionFile = (input: unknown): Effect.Effect<ReadonlyArray<Question>, Schema.SchemaError> =>
  Effect.map(Schema.decodeUnknownEffect(QuestionFile)(input, { errors: "all" }), (file) => (Array.isArray(file) ? file : (file as { questions: ReadonlyArray<Question> }).questions))

export type QuestionKind = "positive" | "negative" | "adversarial"

export const kindOf = (question: Question): QuestionKind =>
  question.kind !== undefined || question.expect?.noCrash !== undefined
    ? "adversarial"
    : question.relevant.length === 0 ? "negative" : "positive"

/** The text sent to recall: the question, or its generator's payload. */
export const textOf = (question: Question): string =>
  question.generator === undefined ? question.question : question.generator.repeat.repeat(question.generator.times)
