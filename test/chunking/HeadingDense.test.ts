/**
 * Heading-dense Markdown: a heading-only file yields chunks that carry its words, long runs of tiny
 * sections share chunks up to the target, and the parser is not handed the whole file (100,000
 * one-line headings took 0.8 GB of heap and 14 s, and gave no chunk).
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { blocks } from "../../src/index/chunk/MarkdownBlocks.ts"
import { defaults } from "../../src/index/chunk/ChunkOptions.ts"
import { chunkMarkdown } from "../../src/index/chunk/MarkdownChunker.ts"

const count = (text: string) => Math.ceil(text.length / 4)
const chunk = (text: string) => chunkMarkdown("docs/dense.md", text, {}, { ...defaults, count })

describe("heading-dense Markdown", () => {
  it("chunkMarkdown - a heading-only file gives chunks that carry every heading, each within the target", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `${"#".repeat(1 + (i % 3))} Heading ${i}`).join("\n") + "\n"
    const note = chunk(text)
    assert.isAbove(note.drafts.length, 0)
    assert.isBelow(note.drafts.length, 200)
    const all = note.drafts.map((draft) => draft.text).join("\n")
    // Heading 0 is the title, in every header; the others stand in the chunks' bodies.
    for (let i = 1; i < 2_000; i += 97) assert.include(all, `Heading ${i}\n`)
    for (const draft of note.drafts) assert.isAtMost(count(draft.text), defaults.targetTokens)
  })

  it("chunkMarkdown - a long run of tiny sections shares chunks up to the target; a short one keeps a chunk each", () => {
    const sections = (n: number) => Array.from({ length: n }, (_, i) => `## Section ${i}\n\nShort body ${i}.\n`).join("\n")
    const many = chunk(sections(5_000))
    assert.isBelow(many.drafts.length, 5_000 / 8)
    const bodies = many.drafts.map((draft) => draft.body).join("\n")
    for (let i = 0; i < 5_000; i += 101) assert.include(bodies, `## Section ${i}\n\nShort body ${i}.`)
    for (const draft of many.drafts) assert.isAtMost(count(draft.text), defaults.targetTokens)
    assert.deepStrictEqual(chunk(`# Doc\n\n${sections(3)}`).drafts.map((draft) => draft.headingPath), [["Section 0"], ["Section 1"], ["Section 2"]])
  })

  it("chunkMarkdown - a merged chunk fits the target with its own header, which may be longer than the run's", () => {
    // One run of tiny sections under two chains of long parents: the run's common path is empty,
    // a chunk's is a chain of three headings of 80 characters.
    const parents = (name: string) => [2, 3, 4].map((depth) => `${"#".repeat(depth)} ${name} ${depth} ${"long heading ".repeat(6)}`.slice(0, depth + 81))
    const children = (from: number) => Array.from({ length: 100 }, (_, i) => `##### Item ${from + i}\n\nTiny ${from + i}.`)
    const text = ["# Title", ...parents("First"), ...children(0), ...parents("Second"), ...children(100)].join("\n\n") + "\n"
    const note = chunk(text)
    assert.isTrue(note.drafts.some((draft) => draft.headingPath.length === 3), "chunks headed by their parents")
    for (const draft of note.drafts) assert.isAtMost(count(draft.text), defaults.targetTokens, draft.text.slice(0, 120))
  })

  it("blocks - cut at first-column headings, the blocks are those of one parse, fences and HTML left whole", () => {
    const lines = [
      "---", "# a YAML comment", "---", "Intro", "# One", "- a", "- b", "", "- c", "# Two", "```", "# not a heading", "```",
      "<!--", "# inside a comment", "-->", "Para", "## Three", "> quote", "Plain line", "still the paragraph"
    ]
    assert.deepStrictEqual([...blocks(lines)].map((b) => [b.kind, b.startLine, b.endLine, b.depth]), [
      ["yaml", 1, 3, 0], ["paragraph", 4, 4, 0], ["heading", 5, 5, 1], ["list", 6, 9, 0], ["heading", 10, 10, 1],
      ["other", 11, 13, 0], ["other", 14, 16, 0], ["paragraph", 17, 17, 0], ["heading", 18, 18, 2], ["blockquote", 19, 21, 0]
    ])
  })

  it("blocks - a stretch after a heading that opens with --- is no frontmatter: a break, then a setext heading", () => {
    const lines = ["# One", "---", "text", "---", "More"]
    assert.deepStrictEqual([...blocks(lines)].map((b) => [b.kind, b.startLine, b.endLine, b.depth]), [
      ["heading", 1, 1, 1], ["other", 2, 2, 0], ["heading", 3, 4, 2], ["paragraph", 5, 5, 0]
    ])
  })

  it("100,000 one-line headings (889 KB) are analysed and chunked within a 34 MB heap", () => {
    // In a process of its own with a heap limit. The imports alone need about 23 MB, so the file's
    // reading has about 11 MB, some 12x its bytes: the whole-file parse needed about 0.8 GB, and
    // the chunker that held an object per block, section and heading about 60 MB.
    const script = [
      `import { chunkMarkdown } from ${JSON.stringify(join(import.meta.dirname, "../../src/index/chunk/MarkdownChunker.ts"))}`,
      `import { MarkdownAnalyzer } from ${JSON.stringify(join(import.meta.dirname, "../../src/discovery/MarkdownAnalyzer.ts"))}`,
      `import { defaults } from ${JSON.stringify(join(import.meta.dirname, "../../src/index/chunk/ChunkOptions.ts"))}`,
      "const text = Array.from({ length: 100000 }, (_, i) => `# h${i}`).join('\\n') + '\\n'",
      "const note = chunkMarkdown('d.md', text, {}, { ...defaults, count: (s) => Math.ceil(s.length / 4) })",
      "const analysis = MarkdownAnalyzer.analyze('d.md', text)",
      "process.stdout.write(`${note.drafts.length} ${analysis.facts._tag}`)"
    ].join("\n")
    const run = spawnSync(process.execPath, ["--max-old-space-size=34", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 })
    assert.strictEqual(run.status, 0, run.stderr.slice(0, 500))
    const [drafts, tag] = run.stdout.split(" ")
    assert.isAbove(Number(drafts), 100)
    assert.strictEqual(tag, "document")
  }, 90_000)
})
