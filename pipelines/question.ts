/**
 * A question's text as the legs and every later stage read it: the question itself when it is
 * within the bounds of `src/retrieval/reduce.ts`, else at most `MAX_QUESTION_TERMS` of its terms,
 * the rarest by the lexical index's document frequencies, stopwords aside, with the `query_reduced` gap that says
 * what was cut. An index that cannot count keeps the earliest terms; its failure shows in the
 * lexical leg.
 */
import { Effect } from "effect"
import type { Gap } from "../src/domain/Gap.ts"
import { LexicalIndex } from "../src/ports/LexicalIndex.ts"
import * as Reduce from "../src/retrieval/reduce.ts"

export interface Question {
  readonly reduction: Reduce.Reduction
  readonly gap: Gap | undefined
}

export const reduceQuestion = Effect.fn("reduceQuestion")(function*(
  text: string,
  stopwords: ReadonlySet<string>
): Effect.fn.Return<Question, never, LexicalIndex> {
  if (Reduce.withinBounds(text)) return { reduction: Reduce.unchanged(text), gap: undefined }
  const lexical = yield* LexicalIndex
  const reading = Reduce.read(text, stopwords)
  const frequencies = yield* lexical.documentFrequencies(reading.lookups, Reduce.FREQUENCY_CAP).pipe(
    Effect.catch(() => Effect.succeed<ReadonlyArray<number>>([]))
  )
  const reduction = Reduce.select(reading, frequencies)
  return { reduction, gap: { reason: "query_reduced", text: Reduce.describe(reduction) } }
})
