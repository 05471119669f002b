import { assert, describe, it } from "@effect/vitest"
import * as Js from "./TokenCounterJs.ts"
import * as Wasm from "./TokenCounterWasm.ts"
import * as Approximate from "./TokenCounterApproximate.ts"

const SAMPLES = [
  "",
  "hello world",
  "A file that mentions <|endoftext|> and <|fim_prefix|> as text.",
  "const x = await import('./a.js') // 字 😀 é\n\n\tindented",
  "Ünïcödé, 中文没有空格的句子很长很长, and emoji 👩‍👩‍👧‍👦 sequences.",
  JSON.stringify({ ref: "src/x.ts:1-20#b7f3", text: "function f() {\n  return 1\n}" })
]

describe("TokenCounter layers", () => {
  it("js and wasm count identically, special-token text as plain text", () => {
    for (const text of SAMPLES) assert.strictEqual(Wasm.counter.count(text), Js.counter.count(text), JSON.stringify(text))
  })

  it("special-token text never throws and costs more than one token", () => {
    assert.isAbove(Js.counter.count("<|endoftext|>"), 1)
    assert.isAbove(Wasm.counter.count("<|endoftext|>"), 1)
  })

  it("hand-checked counts", () => {
    assert.strictEqual(Js.counter.count("hello world"), 2)
    assert.strictEqual(Js.counter.count(""), 0)
  })

  it("the approximate counter labels itself an estimate", () => {
    assert.isFalse(Approximate.counter.exact)
    assert.isTrue(Js.counter.exact && Wasm.counter.exact)
    assert.match(Approximate.counter.id, /^approximate/)
  })

  it("the guard over-counts a long run and equals the exact count on its neighbourhood", () => {
    const text = `intro words ${"z".repeat(700)} trailing words`
    const exact = Js.exactCountUnsafe(text)
    assert.isAtLeast(Js.counter.count(text), exact)
    assert.isAtLeast(Wasm.counter.count(text), Wasm.exactCountUnsafe(text))
  })
})
