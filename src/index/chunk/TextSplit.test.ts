import { assert, describe, it } from "@effect/vitest"
import { utf8Length } from "../../text/TokenCount.ts"
import { lineSpans, sentenceSpans, type Span, windowSpans, wordSpans } from "./TextSplit.ts"

const texts = (source: string, spans: ReadonlyArray<Span>) => spans.map((span) => source.slice(span.start, span.end))

describe("TextSplit", () => {
  it("lineSpans - non-blank lines without their breaks, a CR dropped, within the range", () => {
    const source = "zero\none\r\n\n  \nthree  \nfour"
    assert.deepStrictEqual(texts(source, lineSpans(source, 5, source.length)), ["one", "three  ", "four"])
  })

  it("sentenceSpans - cut after terminal punctuation and closing quotes, CJK full stops without a space", () => {
    const source = "It works. Does it? \"Yes!\" (Really.) 第一句。第二句 end"
    assert.deepStrictEqual(texts(source, sentenceSpans(source, 0, source.length)), [
      "It works.",
      "Does it?",
      "\"Yes!\"",
      "(Really.)",
      "第一句。",
      "第二句 end"
    ])
  })

  it("sentenceSpans - a decimal point or a path is not a sentence end", () => {
    const source = "Version 1.5 lives in src/a.ts today"
    assert.deepStrictEqual(texts(source, sentenceSpans(source, 0, source.length)), [source])
  })

  it("wordSpans - whitespace-separated runs", () => {
    const source = "  alpha\tbeta\n gamma "
    assert.deepStrictEqual(texts(source, wordSpans(source, 0, source.length)), ["alpha", "beta", "gamma"])
  })

  it("windowSpans - each window within the byte budget, covering the text in order, surrogate pairs whole", () => {
    const source = "ab😀cdé字😀😀x"
    const spans = windowSpans(source, 0, source.length, 4)
    assert.strictEqual(texts(source, spans).join(""), source)
    for (const text of texts(source, spans)) {
      assert.isAtMost(utf8Length(text), 4)
      assert.isFalse(/[\ud800-\udbff]$/.test(text), `window ends inside a pair: ${JSON.stringify(text)}`)
    }
    assert.deepStrictEqual(texts(source, spans), ["ab", "😀", "cdé", "字", "😀", "😀", "x"])
  })

  it("windowSpans - a code point wider than the budget still makes progress, one per window", () => {
    const source = "😀😀"
    assert.deepStrictEqual(texts(source, windowSpans(source, 0, source.length, 1)), ["😀", "😀"])
  })
})
