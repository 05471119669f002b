/**
 * Discovery's Markdown analyzer on heading-dense input: the document is parsed stretch by stretch
 * between first-column headings (one whole-file parse of 100,000 one-line headings took 0.9 GB and
 * 14 s), the snapshot lists a bounded number of headings, and what the whole-file parse read
 * (references defined in another stretch, a heading line inside a fence) reads the same.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import type { DocumentFacts } from "../../src/discovery/FileAnalysis.ts"
import { MarkdownAnalyzer, MAX_HEADINGS, MAX_PARSED_CHARS } from "../../src/discovery/MarkdownAnalyzer.ts"

const facts = (text: string): DocumentFacts => MarkdownAnalyzer.analyze("docs/dense.md", text).facts as DocumentFacts

// Enough sections of ordinary prose that the stretches around them are parsed apart.
const filler = (tag: string) =>
  Array.from({ length: Math.ceil((2 * MAX_PARSED_CHARS) / 60) }, (_, i) => `## ${tag} ${i}\n\nSome *plain* prose of section ${i}.\n`).join("\n")

describe("heading-dense Markdown in discovery", () => {
  it("analyze - headings beyond the bound are counted, reported and left out; the words stay", () => {
    for (const n of [10, MAX_HEADINGS, 5 * MAX_HEADINGS]) {
      const analysis = MarkdownAnalyzer.analyze("docs/dense.md", Array.from({ length: n }, (_, i) => `${"#".repeat(1 + (i % 3))} h${i}`).join("\n"))
      const doc = analysis.facts as DocumentFacts
      assert.strictEqual(doc.headings.length, Math.min(n, MAX_HEADINGS))
      assert.strictEqual(doc.title, "h0")
      assert.strictEqual(doc.wordCount, n)
      assert.strictEqual(analysis.notes.length, n > MAX_HEADINGS ? 1 : 0)
      if (n > MAX_HEADINGS) assert.include(analysis.notes[0]!.reason, `${n} headings`)
    }
  })

  it("analyze - a reference reads as one whether its definition is in its stretch or another", () => {
    const doc = facts(`# T\n\nSee [the guide][g] and [^1].\n\n${filler("a")}\n## Defs\n\n[g]: ./guide.md\n[^1]: A footnote.\n`)
    assert.deepStrictEqual(doc.references.filter((r) => r.target.includes("guide")).map((r) => `${r.kind} ${r.target} ${r.line}`), [
      "link ./guide.md 3",
      "link-text the guide 3"
    ])
    assert.strictEqual(doc.summary, "See the guide and .")
  }, 30_000) // analyses a document with thousands of filler sections

  it("analyze - a heading line inside a fence the segmenter cannot place is no heading", () => {
    // The indented fence belongs to the list item, which the column-0 fence closes; that fence
    // then holds `# not a heading` up to its own end.
    const text = `# T\n\n${filler("a")}\n- item\n  \`\`\`\n\`\`\`\n# not a heading\n\`\`\`\n\n${filler("b")}\n---\ntext\n---\n# last\n`
    const doc = facts(text)
    assert.notInclude(doc.headings.map((h) => h.text), "not a heading")
    assert.include(doc.headings.map((h) => h.text), "last")
  })

  it("analyze - 100,000 one-line headings (889 KB) are read within a 48 MB heap", () => {
    // In a process of its own with a heap limit: the whole-file parse needed about 0.9 GB.
    const script = [
      `import { MarkdownAnalyzer } from ${JSON.stringify(join(import.meta.dirname, "../../src/discovery/MarkdownAnalyzer.ts"))}`,
      "const text = Array.from({ length: 100000 }, (_, i) => `# h${i}`).join('\\n') + '\\n'",
      "const sections = Array.from({ length: 50000 }, (_, i) => `## Section ${i}\\n\\nShort body ${i}.\\n`).join('\\n')",
      "const a = MarkdownAnalyzer.analyze('d.md', text).facts, b = MarkdownAnalyzer.analyze('s.md', sections).facts",
      "process.stdout.write(JSON.stringify([a.headings.length, a.wordCount, b.headings.length, b.wordCount, b.summary]))"
    ].join("\n")
    const run = spawnSync(process.execPath, ["--max-old-space-size=48", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 })
    assert.strictEqual(run.status, 0, run.stderr.slice(0, 500))
    assert.deepStrictEqual(JSON.parse(run.stdout), [MAX_HEADINGS, 100_000, MAX_HEADINGS, 250_000, "Short body 0."])
  }, 150_000)
})
