import { assert, describe, it } from "@effect/vitest"
import { readCairnBlock } from "./CairnBlock.ts"

describe("CairnBlock", () => {
  it("readCairnBlock - reads covers and relations with the line of each target", () => {
    const reading = readCairnBlock("covers:\n  - src/retrieval\n  - \"package:core\"\nrelations:\n  - kind: implements\n    target: docs/adr.md\n", 10)
    assert.deepStrictEqual(reading.notes, [])
    assert.deepStrictEqual(reading.references.map((r) => `${r.kind} ${r.verb ?? "-"} ${r.target} ${r.line}`), [
      "covers - src/retrieval 12",
      "covers - package:core 13",
      "verb implements docs/adr.md 16"
    ])
  })

  it("readCairnBlock - a schema violation names the field", () => {
    const reading = readCairnBlock("covers:\n  - 3\nrelations:\n  - kind: x\n    target: y\n    note: extra\n", 1)
    assert.deepStrictEqual(reading.references, [])
    assert.strictEqual(reading.notes.length, 1)
    assert.include(reading.notes[0]!.reason, "cairn.covers.0")
    assert.include(reading.notes[0]!.reason, "cairn.relations.0.note")
  })

  it("readCairnBlock - a block YAML cannot read is scanned line by line", () => {
    const reading = readCairnBlock("covers:\n  - src/a\n  - [broken\nrelations:\n  - kind: blocks\n    target: docs/b.md\n???\n", 4)
    assert.deepStrictEqual(reading.references.map((r) => `${r.kind} ${r.target} ${r.line}`), [
      "covers src/a 6",
      "covers [broken 7",
      "verb docs/b.md 10"
    ])
    assert.strictEqual(reading.notes[0]?.status, "partial")
    assert.include(reading.notes[0]!.reason, "lines not understood: 11")
  })
})
