/**
 * Behaviour every Reranker backend must show, run against each backend by its own test file: an
 * answer is an abstention or one finite score per passage in the order given, the score of a
 * passage does not hang on its place in the list, and an answer, when given, prefers the passage
 * that says what was asked.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Layer } from "effect"
import type { ChunkId } from "../../src/domain/Chunk.ts"
import { type Passage, Reranker } from "../../src/ports/Reranker.ts"

const passages = (texts: ReadonlyArray<string>): Array<Passage> => texts.map((text, i) => ({ id: `p/${i}.md#x` as ChunkId, text }))

const QUERY = "retry the request with exponential backoff"

const TEXTS: ReadonlyArray<string> = [
  "Retry the request with exponential backoff and jitter.",
  "The cat sat on the mat in the sun.",
  "",
  "日本語のテキスト 🙂",
  "a".repeat(20_000),
  "Retry the request with exponential backoff and jitter."
]

export const contract = <E>(name: string, layer: Layer.Layer<Reranker, E>) =>
  describe(`Reranker contract (${name})`, () => {
    const withReranker = <A, E2>(f: (reranker: Reranker["Service"]) => Effect.Effect<A, E2>) =>
      Effect.gen(function*() {
        return yield* f(yield* Reranker)
      }).pipe(Effect.provide(layer))

    it.effect("id - names the model for diagnostics and reports", () =>
      withReranker((reranker) => Effect.sync(() => assert.isAbove(reranker.id.trim().length, 0))))

    it.effect("score - abstains, or gives one finite score per passage; the same answer every time", () =>
      withReranker((reranker) =>
        Effect.gen(function*() {
          const answer = yield* reranker.score(QUERY, passages(TEXTS))
          if (Option.isSome(answer)) {
            assert.strictEqual(answer.value.length, TEXTS.length)
            for (const score of answer.value) assert.isTrue(Number.isFinite(score))
          }
          assert.deepStrictEqual(yield* reranker.score(QUERY, passages(TEXTS)), answer)
          for (const query of ["", " ?! ", "🙂"]) {
            const odd = yield* reranker.score(query, passages(TEXTS))
            if (Option.isSome(odd)) assert.strictEqual(odd.value.length, TEXTS.length, JSON.stringify(query))
          }
        })))

    it.effect("score - no passages: an abstention or no scores", () =>
      withReranker((reranker) =>
        Effect.gen(function*() {
          const answer = yield* reranker.score(QUERY, [])
          if (Option.isSome(answer)) assert.deepStrictEqual(answer.value, [])
        })))

    it.effect("score - a passage's score is the same wherever it stands in the list and whatever stands beside it", () =>
      withReranker((reranker) =>
        Effect.gen(function*() {
          const forward = yield* reranker.score(QUERY, passages(TEXTS))
          const reversed = yield* reranker.score(QUERY, passages([...TEXTS].reverse()))
          assert.deepStrictEqual(Option.map(reversed, (scores) => [...scores].reverse()), forward)
          const alone = yield* reranker.score(QUERY, passages([TEXTS[1]!]))
          assert.deepStrictEqual(alone, Option.map(forward, (scores) => [scores[1]!]))
          // The same words under two ids score alike.
          if (Option.isSome(forward)) assert.strictEqual(forward.value[0], forward.value[5])
        })))

    it.effect("score - when it gives an opinion, the passage that says what was asked beats one about nothing in common", () =>
      withReranker((reranker) =>
        Effect.gen(function*() {
          const answer = yield* reranker.score(QUERY, passages([TEXTS[1]!, TEXTS[0]!]))
          if (Option.isSome(answer)) assert.isAbove(answer.value[1]!, answer.value[0]!)
        })))
  })
