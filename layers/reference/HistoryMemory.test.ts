import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { History } from "../../src/ports/History.ts"
import { blameOf, contract } from "../contracts/History.contract.ts"
import * as HistoryMemory from "./HistoryMemory.ts"

contract("memory", (repository) => HistoryMemory.layer(Object.fromEntries(blameOf(repository)), { isRepository: repository.workTree }))

const line = (n: number, authorTime: number) => ({ line: n, authorTime, author: "Ada", authorMail: "ada@example.com" })

describe("HistoryMemory", () => {
  it.effect("blame - the lines held for a path in line order; none for a path without history", () =>
    Effect.gen(function*() {
      const history = yield* History
      assert.isTrue(yield* history.isRepository)
      assert.deepStrictEqual(Option.getOrThrow(yield* history.blame("a.md")).map((l) => l.line), [1, 2])
      assert.isTrue(Option.isNone(yield* history.blame("b.md")))
      const error = yield* Effect.flip(history.blame("broken.md"))
      assert.strictEqual(error._tag, "HistoryError")
    }).pipe(Effect.provide(HistoryMemory.layer({ "a.md": [line(2, 20), line(1, 10)], "broken.md": { error: "bad object" } }))))

  it.effect("blame - outside a repository every blame is none", () =>
    Effect.gen(function*() {
      const history = yield* History
      assert.isFalse(yield* history.isRepository)
      assert.isTrue(Option.isNone(yield* history.blame("a.md")))
    }).pipe(Effect.provide(HistoryMemory.layer({ "a.md": [line(1, 10)] }, { isRepository: false }))))
})
