/**
 * Behaviour every CoChange backend must show, run against each backend by its own test file. A
 * backend is given as a function from a described history (commits oldest first, each the paths it
 * changed; undefined for a root with no history at all) to a layer bound to a root holding it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Layer } from "effect"
import { CoChange } from "../../src/ports/CoChange.ts"
import type { ChangeHistory } from "../../src/domain/ChangeHistory.ts"

/** Oldest first; undefined is a root outside any history. */
export type CoChangeCommits = ReadonlyArray<ReadonlyArray<string>> | undefined

export type MakeCoChangeLayer<E> = (commits: CoChangeCommits) => Layer.Layer<CoChange, E>

const COMMITS: ReadonlyArray<ReadonlyArray<string>> = [
  ["src/parse.ts", "src/print.ts"],
  ["src/parse.ts", "src/lex.ts", "docs/grammar.md"],
  ["src/print.ts"],
  ["src/lex.ts", "src/parse.ts"]
]

/** Each commit of a history as its paths, newest first. */
const listed = (history: ChangeHistory) => history.commits.map((ids) => ids.map((id) => history.paths[id]!))

export const contract = <E>(name: string, make: MakeCoChangeLayer<E>, options: { readonly timeout?: number } = {}) =>
  describe(`CoChange contract: ${name}`, () => {
    const timeout = options.timeout ?? 30_000
    const historyOf = (commits: CoChangeCommits, window: number) =>
      Effect.gen(function*() {
        const source = yield* CoChange
        return yield* source.history(window)
      }).pipe(Effect.provide(make(commits)))

    it.effect("lists each commit's changed paths, newest first, each commit's paths in order", () =>
      Effect.gen(function*() {
        const history = Option.getOrThrow(yield* historyOf(COMMITS, 100))
        assert.deepStrictEqual(listed(history), [...COMMITS].reverse().map((paths) => [...paths].sort()))
        assert.deepStrictEqual(history.paths, [...history.paths].sort())
        assert.strictEqual(new Set(history.paths).size, history.paths.length)
      }), timeout)

    it.effect("holds at least the window's newest commits, and those first", () =>
      Effect.gen(function*() {
        const history = Option.getOrThrow(yield* historyOf(COMMITS, 2))
        assert.isAtLeast(history.commits.length, 2)
        assert.deepStrictEqual(listed(history).slice(0, 2), [["src/lex.ts", "src/parse.ts"], ["src/print.ts"]])
      }), timeout)

    it.effect("answers none for a root without history, and for an empty window", () =>
      Effect.gen(function*() {
        assert.isTrue(Option.isNone(yield* historyOf(undefined, 100)))
        assert.isTrue(Option.isNone(yield* historyOf(COMMITS, 0)))
      }), timeout)
  })
