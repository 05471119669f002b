import { describe, expect, it } from "@effect/vitest"
import { type SentenceOptions, sentenceSpans } from "./Sentences.ts"

const texts = (text: string, options?: SentenceOptions) => sentenceSpans(text, options).map((s) => text.slice(s.start, s.end))

describe("sentenceSpans", () => {
  it("splits prose after a sentence end followed by white space", () => {
    expect(texts("The budget is exact. Gaps are free! Why? Because.")).toEqual(["The budget is exact.", "Gaps are free!", "Why?", "Because."])
  })

  it("keeps a dot inside a word or number with its sentence", () => {
    expect(texts("See docs/packing.md for v1.2 details. Then stop.")).toEqual(["See docs/packing.md for v1.2 details.", "Then stop."])
  })

  it("runs a sentence over the hard-wrapped lines of one paragraph", () => {
    expect(texts("The packer counts\nevery claim. Then it\nstops.\n\nNext paragraph")).toEqual(["The packer counts\nevery claim.", "Then it\nstops.", "Next paragraph"])
  })

  it("starts a new unit at each list item, heading and table row, and joins an item's continuation", () => {
    expect(texts("- first item\n  goes on\n- second item\n## Heading\nprose after\n| a | b |\n| c | d |")).toEqual([
      "- first item\n  goes on",
      "- second item",
      "## Heading",
      "prose after",
      "| a | b |",
      "| c | d |"
    ])
  })

  it("reads a code fence, or code, a line at a time, and skips fence lines", () => {
    expect(texts("```ts\nconst x = 1\nconst y = 2\n```\n")).toEqual(["const x = 1", "const y = 2"])
    expect(texts("const x = 1\nconst y = 2", { lines: true })).toEqual(["const x = 1", "const y = 2"])
  })

  it("keeps closing emphasis with its sentence and an ordered list's number with its item", () => {
    expect(texts("1. **The budget is exact.** Gaps are free.\n2) Next.")).toEqual(["1. **The budget is exact.**", "Gaps are free.", "2) Next."])
  })

  it("splits CJK prose at its full stops", () => {
    expect(texts("预算是精确的。差距不收费。")).toEqual(["预算是精确的。", "差距不收费。"])
  })

  it("gives spans that index the text given, trimmed", () => {
    const text = "  One.  Two.\nThree"
    for (const span of sentenceSpans(text)) expect(text.slice(span.start, span.end).trim()).toBe(text.slice(span.start, span.end))
    expect(sentenceSpans("")).toEqual([])
  })
})
