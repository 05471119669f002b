import { assert, describe, it } from "@effect/vitest"
import type { DocumentFacts } from "./FileAnalysis.ts"
import { MarkdownAnalyzer, SUMMARY_LIMIT } from "./MarkdownAnalyzer.ts"

const facts = (text: string, path = "docs/guide.md"): DocumentFacts => {
  const analysis = MarkdownAnalyzer.analyze(path, text)
  assert.strictEqual(analysis.facts?._tag, "document")
  return analysis.facts as DocumentFacts
}

const DOC = `---
title: The Guide
type: guide
owner: search-team
tier: 2
superseded_by: docs/new.md
unrelated: ignored
---
# Heading One

First paragraph mentions \`src/a.ts\` and [the other doc](./other.md#part) and [[Wiki Page|alias]].

## Two
### Three
#### Four is too deep

<!-- cairn:generated hash=1 -->
Generated \`src/ignored.ts\` and [x](ignored.md).
<!-- /cairn:generated -->

[ref]: ../ref.md
See [r][ref] and https://example.com and [home](https://example.com).

## Relations
- depends_on [[storage]]
- owned-by [team](../team.md)
- not a relation line
`

describe("MarkdownAnalyzer", () => {
  it("analyze - reads title, headings to depth three and the frontmatter subset", () => {
    const doc = facts(DOC)
    assert.strictEqual(doc.title, "The Guide")
    assert.deepStrictEqual(doc.headings.map((h) => `${h.depth} ${h.text} ${h.line}`), [
      "1 Heading One 9",
      "2 Two 13",
      "3 Three 14",
      "2 Relations 24"
    ])
    assert.deepStrictEqual(doc.frontmatter, { owner: "search-team", superseded_by: "docs/new.md", tier: "2", type: "guide" })
  })

  it("analyze - records references in document order and skips generated regions", () => {
    const doc = facts(DOC)
    assert.deepStrictEqual(doc.generatedRegions, [{ startLine: 17, endLine: 19 }])
    assert.deepStrictEqual(doc.references.map((r) => `${r.kind} ${r.target} ${r.line}${r.verb ? ` ${r.verb}` : ""}`), [
      "code src/a.ts 11",
      "link ./other.md#part 11",
      "link-text the other doc 11",
      "wikilink Wiki Page 11",
      "link ../ref.md 22",
      "link-text r 22",
      "link-text home 22",
      "verb storage 25 depends_on",
      "verb ../team.md 26 owned-by"
    ])
  })

  it("analyze - reports a relations line it cannot read", () => {
    const notes = MarkdownAnalyzer.analyze("docs/guide.md", DOC).notes
    assert.deepStrictEqual(notes.map((n) => n.status), ["partial"])
    assert.include(notes[0]!.reason, "line 27")
  })

  it("analyze - an unclosed generated marker owns the rest of the file", () => {
    const doc = facts("# T\n\n`src/a.ts`\n<!-- cairn:generated -->\n`src/b.ts`\n\nmore `src/c.ts`\n")
    assert.deepStrictEqual(doc.generatedRegions, [{ startLine: 4, endLine: 8 }])
    assert.deepStrictEqual(doc.references.map((r) => r.target), ["src/a.ts"])
  })

  it("analyze - bounds the summary and counts words", () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ")
    const doc = facts(`# Title\n\n${long}\n`)
    assert.isAtMost(doc.summary.length, SUMMARY_LIMIT)
    assert.isTrue(doc.summary.endsWith("…"))
    assert.strictEqual(doc.wordCount, 201)
  })

  it("analyze - falls back to the file name for a title and survives a BOM", () => {
    const doc = facts("\uFEFFjust text, no heading\n", "notes/plain-note.md")
    assert.strictEqual(doc.title, "plain-note")
    assert.strictEqual(doc.summary, "just text, no heading")
  })

  it("analyze - malformed frontmatter is partial, not fatal", () => {
    const analysis = MarkdownAnalyzer.analyze("docs/x.md", "---\ntype: [unclosed\n---\n# X\n")
    assert.strictEqual(analysis.facts?._tag, "document")
    assert.deepStrictEqual(analysis.notes.map((n) => n.status), ["partial"])
  })
})
