import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as Bpe from "./TokenCounterBpe.ts"
import { cl100kRanks, decode } from "./Cl100kRanks.ts"
import * as Js from "./TokenCounterJs.ts"
import * as Wasm from "./TokenCounterWasm.ts"
import * as Approximate from "./TokenCounterApproximate.ts"
import { contract } from "../contracts/TokenCounter.contract.ts"

contract("bpe (the default)", Bpe.layer)
contract("js-tiktoken", Js.layer)
contract("wasm", Wasm.layer)
contract("approximate", Approximate.layer)

const SAMPLES = [
  "",
  "hello world",
  "A file that mentions <|endoftext|> and <|fim_prefix|> as text.",
  "const x = await import('./a.js') // 字 😀 é\n\n\tindented",
  "Ünïcödé, 中文没有空格的句子很长很长, and emoji 👩‍👩‍👧‍👦 sequences.",
  "\ufeff# A page saved with a byte-order mark\u0085next line",
  "lone \ud800 and \udc00 surrogates",
  JSON.stringify({ ref: "src/x.ts:1-20#b7f3", text: "function f() {\n  return 1\n}" })
]

describe("TokenCounter layers", () => {
  it("js and wasm count identically, special-token text as plain text", () => {
    // js-tiktoken cuts with JavaScript's `\s`, which takes U+FEFF and leaves out U+0085.
    for (const text of SAMPLES.filter((sample) => !/[\ufeff\u0085]/.test(sample))) {
      assert.strictEqual(Wasm.counter.count(text), Js.counter.count(text), JSON.stringify(text))
    }
  }, 60_000) // loading js-tiktoken's listing and the WASM encoder takes seconds on a loaded machine

  it("the TypeScript counter counts as the WASM encoder, exactly and behind the guard", () => {
    for (const text of SAMPLES) {
      assert.strictEqual(Bpe.exactCountUnsafe(text), Wasm.exactCountUnsafe(text), JSON.stringify(text))
      assert.strictEqual(Bpe.counter.count(text), Wasm.counter.count(text), JSON.stringify(text))
    }
  })

  it("the TypeScript counter counts every source and doc of this repository as the WASM encoder", () => {
    const root = join(import.meta.dirname, "../..")
    const texts = ["src", "layers", "pipelines", "docs"].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(ts|md)$/.test(entry.name))
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    )
    assert.isAbove(texts.length, 200)
    let tokens = 0
    for (const text of texts) {
      const exact = Wasm.exactCountUnsafe(text)
      assert.strictEqual(Bpe.exactCountUnsafe(text), exact)
      tokens += exact
    }
    assert.isAbove(tokens, 300_000)
  }, 60_000)

  it("the rank table spells every byte, and refuses a listing that is not the shipped format", () => {
    const table = decode({ bpe_ranks: "! 0 IQ== Ig==\n\" 7 aGVsbG8=\n" })
    assert.strictEqual(table.rankOf(new Uint8Array([0x21]), 0, 1), 0)
    assert.strictEqual(table.rankOf(new Uint8Array([0x22]), 0, 1), 1)
    assert.strictEqual(table.rankOf(new TextEncoder().encode("hello"), 0, 5), 7)
    assert.strictEqual(table.rankOf(new TextEncoder().encode("hell"), 0, 4), -1)
    assert.throws(() => decode({ bpe_ranks: "! x IQ==\n" }), /first rank/)
    assert.throws(() => decode({ bpe_ranks: "! 0 I*==\n" }), /not base64/)
    // Byte-level BPE: each of the 256 bytes is a token of its own, so every piece can be spelt.
    const bytes = new Uint8Array(256).map((_, i) => i)
    const ranks = new Set(Array.from(bytes, (_, byte) => cl100kRanks().rankOf(bytes, byte, byte + 1)))
    assert.strictEqual(ranks.size, 256)
    assert.isFalse(ranks.has(-1))
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
    assert.isTrue(Js.counter.exact && Wasm.counter.exact && Bpe.counter.exact)
    assert.match(Approximate.counter.id, /^approximate/)
  })

  it("the guard over-counts a long run and equals the exact count on its neighbourhood", () => {
    const text = `intro words ${"z".repeat(700)} trailing words`
    const exact = Js.exactCountUnsafe(text)
    assert.isAtLeast(Js.counter.count(text), exact)
    assert.isAtLeast(Wasm.counter.count(text), Wasm.exactCountUnsafe(text))
  })
})
