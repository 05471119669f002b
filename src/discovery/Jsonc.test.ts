import { assert, describe, it } from "@effect/vitest"
import { parseJsonc } from "./Jsonc.ts"

describe("Jsonc", () => {
  it("parseJsonc - drops comments and trailing commas but keeps them inside strings", () => {
    const text = `{
      // line comment
      "a": "x // not a comment, ]",
      /* block */ "b": [1, 2,],
    }`
    assert.deepStrictEqual(parseJsonc(text), { a: "x // not a comment, ]", b: [1, 2] })
  })

  it("parseJsonc - still rejects malformed input", () => {
    assert.throws(() => parseJsonc(`{ "a": }`))
  })
})
