import { assert, describe, it } from "@effect/vitest"
import { utf8Length } from "../../text/TokenCount.ts"
import { pack, type Unit } from "./Packer.ts"

const lineUnits = (source: string): Array<Unit> => {
  const out: Array<Unit> = []
  let offset = 0
  for (const line of source.split("\n")) {
    if (line.trim() !== "") out.push({ start: offset, end: offset + line.length })
    offset += line.length + 1
  }
  return out
}

describe("pack", () => {
  it("pack - groups units while they fit, keeping the whitespace between them", () => {
    const source = "aaaa\n\nbbbb\ncccc\ndddd"
    const pieces = pack(source, lineUnits(source), 12, utf8Length)
    assert.deepStrictEqual(pieces.map((p) => p.text), ["aaaa\n\nbbbb", "cccc\ndddd"])
    assert.deepStrictEqual(pieces.map((p) => [p.start, p.end]), [[0, 10], [11, 20]])
  })

  it("pack - units that are not adjacent are joined by one line break", () => {
    const source = "keep1\nSKIPPED\nkeep2"
    const pieces = pack(source, [{ start: 0, end: 5 }, { start: 14, end: 19 }], 100, utf8Length)
    assert.deepStrictEqual(pieces.map((p) => p.text), ["keep1\nkeep2"])
  })

  it("pack - a unit too big alone is split along its children, the first and last stretched to its edges", () => {
    const source = "head { one; two; three; } tail"
    const unit: Unit = {
      start: 0,
      end: 25,
      children: () => [{ start: 7, end: 11 }, { start: 12, end: 16 }, { start: 17, end: 23 }]
    }
    const pieces = pack(source, [unit, { start: 26, end: 30 }], 12, utf8Length)
    assert.deepStrictEqual(pieces.map((p) => p.text), ["head { one;", "two;", "three; }", "tail"])
  })

  it("pack - every piece of a split table opens with its header rows, and still fits", () => {
    const source = "| h |\n|---|\n| 1 |\n| 2 |\n| 3 |"
    const rows = [{ start: 12, end: 17 }, { start: 18, end: 23 }, { start: 24, end: 29 }]
    const unit: Unit = { start: 0, end: source.length, children: () => rows, repeat: "| h |\n|---|" }
    const pieces = pack(source, [unit], 24, utf8Length)
    assert.deepStrictEqual(pieces.map((p) => p.text), ["| h |\n|---|\n| 1 |\n| 2 |", "| h |\n|---|\n| 3 |"])
    assert.deepStrictEqual(pieces.map((p) => [p.start, p.end]), [[0, 23], [24, 29]])
    for (const piece of pieces) assert.isAtMost(utf8Length(piece.text), 24)
  })

  it("pack - a header that would take over half the budget is not repeated; its rows are packed as plain lines", () => {
    const source = "| a long header |\n|---|\n| 1 |\n| 2 |"
    const rows = [{ start: 24, end: 29 }, { start: 30, end: 35 }]
    const unit: Unit = { start: 0, end: source.length, children: () => rows, repeat: "| a long header |\n|---|" }
    const pieces = pack(source, [unit], 30, utf8Length)
    assert.isTrue(pieces.every((p) => !p.text.includes("long header") || p.start === 0))
    assert.strictEqual(pieces.map((p) => p.text).join("\n"), source)
  })

  it("pack - without children a unit is split by lines, then sentences, then words, then byte windows", () => {
    const sentences = "One two three. Four five six."
    assert.deepStrictEqual(pack(sentences, [{ start: 0, end: sentences.length }], 15, utf8Length).map((p) => p.text), [
      "One two three.",
      "Four five six."
    ])
    const words = "alpha beta gamma delta"
    assert.deepStrictEqual(pack(words, [{ start: 0, end: words.length }], 11, utf8Length).map((p) => p.text), [
      "alpha beta",
      "gamma delta"
    ])
    const run = "x".repeat(25)
    assert.deepStrictEqual(pack(run, [{ start: 0, end: 25 }], 10, utf8Length).map((p) => p.text.length), [10, 10, 5])
  })

  it("pack - a counter that charges more than bytes still terminates, each piece within budget down to one code point", () => {
    const heavy = (text: string) => 3 * text.length
    const pieces = pack("abcdefgh", [{ start: 0, end: 8 }], 6, heavy)
    assert.strictEqual(pieces.map((p) => p.text).join(""), "abcdefgh")
    for (const piece of pieces) assert.isAtMost(heavy(piece.text), 6)
  })

  it("pack - a 300 KB unbroken line is packed into pieces that each fit and together rebuild it", () => {
    const line = "q".repeat(300_000)
    const pieces = pack(line, [{ start: 0, end: line.length }], 350, utf8Length)
    assert.strictEqual(pieces.map((p) => p.text).join(""), line)
    assert.isTrue(pieces.every((p) => p.text.length <= 350))
  })
})
