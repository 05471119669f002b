import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { decodeQuery, DEFAULT_BUDGET_TOKENS, MAX_BUDGET_TOKENS } from "./Query.ts"

describe("Query", () => {
  it.effect("decodeQuery - fills the default budget, empty filters and explain off", () =>
    Effect.gen(function*() {
      const query = yield* decodeQuery({ text: "how is the budget enforced?" })
      assert.strictEqual(query.budgetTokens, DEFAULT_BUDGET_TOKENS)
      assert.deepStrictEqual(query.filters, {})
      assert.strictEqual(query.explain, false)
    }))

  it.effect("decodeQuery - accepts a zero budget and the maximum", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* decodeQuery({ text: "q", budgetTokens: 0 })).budgetTokens, 0)
      assert.strictEqual((yield* decodeQuery({ text: "q", budgetTokens: MAX_BUDGET_TOKENS })).budgetTokens, MAX_BUDGET_TOKENS)
    }))

  const rejects = (input: unknown, field: string) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeQuery(input))
      assert.strictEqual(error._tag, "InvalidInput")
      assert.strictEqual(error.subject, "query")
      assert.strictEqual(error.field, field)
    })

  it.effect("decodeQuery - a negative budget names budgetTokens", () => rejects({ text: "q", budgetTokens: -1 }, "budgetTokens"))
  it.effect("decodeQuery - a budget over the maximum names budgetTokens", () =>
    rejects({ text: "q", budgetTokens: MAX_BUDGET_TOKENS + 1 }, "budgetTokens"))
  it.effect("decodeQuery - a fractional budget names budgetTokens", () => rejects({ text: "q", budgetTokens: 10.5 }, "budgetTokens"))
  it.effect("decodeQuery - non-string text names text", () => rejects({ text: 42 }, "text"))
  it.effect("decodeQuery - an unknown key is refused by name", () => rejects({ text: "q", budget: 10 }, "budget"))
  it.effect("decodeQuery - an unknown note type names its position", () =>
    rejects({ text: "q", filters: { types: ["note", "memo"] } }, "filters.types.1"))

  it.effect("decodeQuery - the error message names the allowed range", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeQuery({ text: "q", budgetTokens: 99_999 }))
      assert.include(error.detail, "32000")
    }))
})

describe("Query since", () => {
  it.effect("decodeQuery - since takes the dates the legs can read, and refuses a zoneless time", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* decodeQuery({ text: "q", filters: { since: "2024-05-10" } })).filters.since, "2024-05-10")
      assert.strictEqual((yield* decodeQuery({ text: "q", filters: { since: "2024-05-10T12:00+02:00" } })).filters.since, "2024-05-10T12:00+02:00")
      const error = yield* Effect.flip(decodeQuery({ text: "q", filters: { since: "2024-05-10T12:00" } }))
      assert.strictEqual(error.field, "filters.since")
      const impossible = yield* Effect.flip(decodeQuery({ text: "q", filters: { since: "2024-02-30" } }))
      assert.strictEqual(impossible.field, "filters.since")
    }))
})
