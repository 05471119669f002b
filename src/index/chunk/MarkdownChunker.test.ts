import { assert, describe, it } from "@effect/vitest"
import { utf8Length } from "../../text/TokenCount.ts"
import { defaults } from "./ChunkOptions.ts"
import { chunkMarkdown } from "./MarkdownChunker.ts"

const chunk = (text: string, targetTokens = 350, path = "docs/guide.md") => chunkMarkdown(path, text, {}, { ...defaults, targetTokens })

const GUIDE = [
  "---", //              1
  "title: Deploy guide",
  "tags: [ops, deploy]",
  "---",
  "Read this first.", // 5
  "",
  "# Deploying", //      7
  "",
  "Overview of the flow.",
  "", //                 10
  "## Setup",
  "",
  "Install the tools.",
  "",
  "### Linux", //        15
  "",
  "Use the package manager.",
  "",
  "## Rollback",
  "", //                 20
  "Revert the release."
].join("\n")

describe("chunkMarkdown", () => {
  it("chunkMarkdown - one chunk per heading section, with its heading path and line range", () => {
    const note = chunk(GUIDE)
    assert.strictEqual(note.title, "Deploy guide")
    assert.deepStrictEqual(
      note.drafts.map((d) => [d.headingPath, d.lineStart, d.lineEnd]),
      [
        [[], 5, 5],
        [["Deploying"], 7, 9],
        [["Deploying", "Setup"], 11, 13],
        [["Deploying", "Setup", "Linux"], 15, 17],
        [["Deploying", "Rollback"], 19, 21]
      ]
    )
  })

  it("chunkMarkdown - each text opens with `{title} > {heading path}`, then the section without its heading line", () => {
    const texts = chunk(GUIDE).drafts.map((d) => d.text)
    assert.deepStrictEqual(texts, [
      "Deploy guide\nRead this first.",
      "Deploy guide > Deploying\nOverview of the flow.",
      "Deploy guide > Deploying > Setup\nInstall the tools.",
      "Deploy guide > Deploying > Setup > Linux\nUse the package manager.",
      "Deploy guide > Deploying > Rollback\nRevert the release."
    ])
  })

  it("chunkMarkdown - frontmatter is read into fields and never becomes chunk text", () => {
    const note = chunk(GUIDE)
    assert.deepStrictEqual(note.fields["tags"], ["ops", "deploy"])
    assert.isTrue(note.drafts.every((d) => !d.text.includes("tags:") && !d.text.includes("---")))
  })

  it("chunkMarkdown - the title is the first `#` heading when frontmatter has none, and leaves the heading path", () => {
    const note = chunk("# Runbook\n\nIntro.\n\n## Restart\n\nRun it.\n")
    assert.strictEqual(note.title, "Runbook")
    assert.deepStrictEqual(note.drafts.map((d) => d.text), ["Runbook\nIntro.", "Runbook > Restart\nRun it."])
  })

  it("chunkMarkdown - without frontmatter title or headings the title is the file name", () => {
    const note = chunk("Just words.\n", 350, "notes/on-call.md")
    assert.strictEqual(note.title, "on-call")
    assert.deepStrictEqual(note.drafts.map((d) => d.text), ["on-call\nJust words."])
  })

  it("chunkMarkdown - heading text is read as a reader sees it", () => {
    const note = chunk("# The `cairn` **tool**\n\n## Using [links](x.md)\n\nBody.\n")
    assert.strictEqual(note.title, "The cairn tool")
    assert.deepStrictEqual(note.drafts[0]!.headingPath, ["Using links"])
  })

  it("chunkMarkdown - a heading inside a fenced code block is code, not a section", () => {
    const note = chunk("# T\n\n```sh\n# not a heading\necho hi\n```\n")
    assert.strictEqual(note.drafts.length, 1)
    assert.deepStrictEqual(note.drafts[0]!.headingPath, [])
    assert.include(note.drafts[0]!.text, "# not a heading")
  })

  it("chunkMarkdown - a section with no body of its own gives no chunk", () => {
    const note = chunk("# T\n\n## Empty\n\n## Full\n\nText.\n")
    assert.deepStrictEqual(note.drafts.map((d) => d.headingPath), [["Full"]])
  })

  it("chunkMarkdown - small sections are never merged, so each keeps its own heading path", () => {
    const note = chunk("# T\n\n## A\n\na\n\n## B\n\nb\n", 10_000)
    assert.deepStrictEqual(note.drafts.map((d) => d.headingPath), [["A"], ["B"]])
  })

  it("chunkMarkdown - table rows stay whole lines as written", () => {
    const note = chunk("# T\n\n| city | cap |\n| --- | --- |\n| Glasgow | 2 weeks |\n| Leeds | 1 week |\n")
    const lines = note.drafts[0]!.text.split("\n")
    assert.includeMembers(lines, ["| city | cap |", "| Glasgow | 2 weeks |", "| Leeds | 1 week |"])
  })

  it("chunkMarkdown - a long table is split between rows, and every piece opens with the header rows", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `| row${i} | value ${i} |`)
    const note = chunk(["# T", "", "| key | value |", "|-----|-------|", ...rows].join("\n"), 120)
    assert.isAbove(note.drafts.length, 2)
    for (const draft of note.drafts) {
      const lines = draft.text.split("\n")
      assert.deepStrictEqual(lines.slice(1, 3), ["| key | value |", "|-----|-------|"])
      assert.isTrue(lines.slice(3).every((line) => /^\| row\d+ \| value \d+ \|$/.test(line)))
      assert.isAtMost(utf8Length(draft.text), 120)
    }
    const all = note.drafts.flatMap((d) => d.text.split("\n").slice(3))
    assert.deepStrictEqual(all, rows)
  })

  it("chunkMarkdown - an over-long section is split between blocks, then list items, then sentences, each chunk within the target", () => {
    const paragraph = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} says a little.`).join(" ")
    const list = Array.from({ length: 8 }, (_, i) => `- item ${i} with\n  a second line`).join("\n")
    const note = chunk(`# T\n\n## Long\n\n${paragraph}\n\n${list}\n`, 90)
    assert.isAbove(note.drafts.length, 4)
    for (const draft of note.drafts) {
      assert.isAtMost(utf8Length(draft.text), 90)
      assert.isTrue(draft.text.startsWith("T > Long\n"))
    }
    const bodies = note.drafts.map((d) => d.body)
    // A sentence is never cut, and neither is a list item that fits.
    assert.isTrue(bodies.filter((b) => b.startsWith("Sentence")).every((b) => /\.$/.test(b)))
    assert.isTrue(bodies.filter((b) => b.startsWith("- item")).every((b) => b.split("\n").length % 2 === 0))
    // The first piece starts at the heading line; the rest follow in order without overlap.
    assert.strictEqual(note.drafts[0]!.lineStart, 3)
    for (let i = 1; i < note.drafts.length; i++) assert.isAtLeast(note.drafts[i]!.lineStart, note.drafts[i - 1]!.lineEnd)
  })

  it("chunkMarkdown - a link list and a Relations list are flagged; prose with links is not", () => {
    const note = chunk([
      "# T",
      "",
      "## See also",
      "",
      "- [Setup](setup.md)",
      "- [[rollback]]",
      "",
      "## Relations",
      "",
      "- supersedes [[old-guide]]",
      "- depends on [[ledger]] since the March migration moved payouts",
      "",
      "## Prose",
      "",
      "Read [the setup](setup.md) before you start, it explains the keys."
    ].join("\n"))
    assert.deepStrictEqual(note.drafts.map((d) => [d.headingPath.at(-1), d.isLinkList]), [
      ["See also", true],
      ["Relations", true],
      ["Prose", false]
    ])
  })

  it("chunkMarkdown - generated regions are cairn's own output and are left out", () => {
    const note = chunk("# T\n\nKept.\n\n<!-- cairn:generated -->\n\nGenerated text.\n\n<!-- /cairn:generated -->\n")
    assert.deepStrictEqual(note.drafts.map((d) => d.body), ["Kept."])
  })

  it("chunkMarkdown - a 300 KB single line chunks into pieces that rebuild it, each within the target", () => {
    const line = "z".repeat(300_000)
    const note = chunk(line)
    // Compared as booleans so a failure does not print 300 KB.
    assert.isTrue(note.drafts.map((d) => d.body).join("") === line)
    assert.isTrue(note.drafts.every((d) => utf8Length(d.text) <= 350 && d.lineStart === 1 && d.lineEnd === 1))
  })

  it("chunkMarkdown - emphasis and link syntax repeated on one long line parse as plain blocks", () => {
    const line = "*a[b](".repeat(50_000)
    const note = chunk(line)
    assert.isTrue(note.drafts.map((d) => d.body).join("") === line)
  })
})
