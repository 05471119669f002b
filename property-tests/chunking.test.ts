/**
 * Markdown chunking invariants over generated documents: chunks cover the body in order without
 * overlap and lose no text, a section's block ids survive edits elsewhere in the file, and the same
 * text always gives the same chunks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Digest from "effect/crypto/Digest"
import { chunkFile } from "../src/index/chunk/ChunkFile.ts"
import { defaults } from "../src/index/chunk/ChunkOptions.ts"
import { chunkMarkdown } from "../src/index/chunk/MarkdownChunker.ts"

// 200 generated cases take seconds on a loaded machine.
const RUNS = { timeout: 60_000, arbitrary: { runs: 200, seed: 20261207 } }

const WORDS = ["ledger", "queue", "retry", "payout", "Glasgow", "cap", "ramp", "schema", "déjà", "字段"] as const
const TEMPLATES = ["prose", "sentences", "list", "table", "code", "long", "links"] as const
const TABLE_HEADER = ["| key | value |", "|-----|-------|"]

const Block = Schema.Struct({
  template: Schema.Literals(TEMPLATES),
  word: Schema.Literals(WORDS),
  repeat: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 14 }))
})
type Block = typeof Block.Type

const Section = Schema.Struct({
  depth: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4 })),
  word: Schema.Literals(WORDS),
  blocks: Schema.Array(Block).check(Schema.isMaxLength(4))
})

const Doc = Schema.Struct({
  frontmatter: Schema.Boolean,
  preamble: Schema.Array(Block).check(Schema.isMaxLength(2)),
  sections: Schema.Array(Section).check(Schema.isMaxLength(6)),
  targetTokens: Schema.Int.check(Schema.isBetween({ minimum: 40, maximum: 400 }))
})
type Doc = typeof Doc.Type

const blockText = (block: Block): string => {
  const w = block.word
  switch (block.template) {
    case "prose":
      return Array.from({ length: block.repeat }, (_, i) => `${w} word${i} and more ${w}`).join(" ")
    case "sentences":
      return Array.from({ length: block.repeat }, (_, i) => `The ${w} number ${i} holds.`).join(" ")
    case "list":
      return Array.from({ length: block.repeat }, (_, i) => `- ${w} item ${i}\n  continued ${i}`).join("\n")
    case "table":
      return [...TABLE_HEADER, ...Array.from({ length: block.repeat }, (_, i) => `| ${w}${i} | ${i * 7} |`)].join("\n")
    case "code":
      return ["```ts", ...Array.from({ length: block.repeat }, (_, i) => `const ${w.length > 3 ? "v" : "w"}${i} = ${i}`), "```"].join("\n")
    case "long":
      return w.repeat(block.repeat * 60)
    case "links":
      return Array.from({ length: block.repeat }, (_, i) => `- [[${w}-${i}]]`).join("\n")
  }
}

/** The document's text; headings carry their index so no two sections share a heading path. */
const render = (doc: Doc, override?: { readonly section: number; readonly blocks: ReadonlyArray<Block> }): string => {
  const parts: Array<string> = []
  if (doc.frontmatter) parts.push("---\ntitle: Generated\ntags: [x]\n---")
  parts.push(...doc.preamble.map(blockText))
  doc.sections.forEach((section, i) => {
    parts.push(`${"#".repeat(section.depth)} ${section.word} ${i}`)
    const blocks = override?.section === i ? override.blocks : section.blocks
    parts.push(...blocks.map(blockText))
  })
  return `${parts.join("\n\n")}\n`
}

/** Lines that hold content: not blank, not frontmatter, not a heading. */
const contentLines = (text: string): Array<number> => {
  const lines = text.split("\n")
  const start = lines[0] === "---" ? lines.indexOf("---", 1) + 1 : 0
  const out: Array<number> = []
  let fenced = false
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith("```")) fenced = !fenced
    if (line.trim() === "" || (!fenced && /^#{1,6} /.test(line))) continue
    out.push(i + 1)
  }
  return out
}

const squash = (lines: ReadonlyArray<string>): string => lines.join("").replace(/\s+/g, "")

/** A body without the table header a split table repeats: the header rows lie outside the chunk's own lines. */
const ownBody = (body: string, lineStart: number, lines: ReadonlyArray<string>): Array<string> => {
  const bodyLines = body.split("\n")
  const repeated = bodyLines[0] === TABLE_HEADER[0] && bodyLines[1] === TABLE_HEADER[1] && lines[lineStart - 1] !== TABLE_HEADER[0] &&
    !/^#{1,6} /.test(lines[lineStart - 1]!)
  return repeated ? bodyLines.slice(2) : bodyLines
}

/** The section a chunk sits in, by the last heading line at or above its first line; -1 for the preamble. */
const sectionOf = (text: string, lineStart: number): number => {
  let section = -1
  text.split("\n").slice(0, lineStart).forEach((line) => {
    const heading = /^#{1,6} \S+ (\d+)$/.exec(line)
    if (heading !== null) section = Number(heading[1])
  })
  return section
}

describe("Markdown chunking", () => {
  it.prop("chunks cover every content line in order, without overlap, losing no text", { doc: Doc }, ({ doc }) => {
    const text = render(doc)
    const note = chunkMarkdown("docs/gen.md", text, {}, { ...defaults, targetTokens: doc.targetTokens })
    const drafts = note.drafts
    const lines = text.split("\n")
    for (let i = 1; i < drafts.length; i++) {
      const previous = drafts[i - 1]!
      const draft = drafts[i]!
      // Neighbours may share one line only when it was cut between them; the text check below
      // proves no line is in two chunks whole.
      assert.isTrue(draft.lineStart >= previous.lineEnd, `chunk ${i} starts before chunk ${i - 1} ends`)
    }
    for (const line of contentLines(text)) {
      assert.isTrue(drafts.some((d) => d.lineStart <= line && line <= d.lineEnd), `line ${line} is in no chunk`)
    }
    for (const draft of drafts) {
      assert.isTrue(draft.text === `${draft.text.split("\n")[0]}\n${draft.body}`)
      assert.isTrue(draft.text.startsWith(note.title))
    }
    const expected = squash(contentLines(text).map((n) => lines[n - 1]!))
    const actual = squash(drafts.flatMap((d) => ownBody(d.body, d.lineStart, lines)))
    assert.isTrue(actual === expected, "the chunks' text differs from the document's content")
  }, RUNS)

  it.effect.prop(
    "a section's block ids survive an edit of another section",
    { doc: Doc, edited: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5 })), blocks: Schema.Array(Block).check(Schema.isMaxLength(3)) },
    ({ doc, edited, blocks }) =>
      Effect.gen(function*() {
        const options = { targetTokens: doc.targetTokens }
        const beforeText = render(doc)
        const afterText = render(doc, { section: edited, blocks })
        const before = yield* chunkFile({ path: "docs/gen.md", text: beforeText }, options)
        const after = yield* chunkFile({ path: "docs/gen.md", text: afterText }, options)
        // The edited section's own chunks may change; every other section's keep their ids, though their lines move.
        const untouched = (chunks: ReadonlyArray<{ readonly lineStart: number; readonly id: string }>, text: string) =>
          chunks.filter((c) => sectionOf(text, c.lineStart) !== edited).map((c) => c.id)
        assert.deepStrictEqual(untouched(after, afterText), untouched(before, beforeText))
      }).pipe(Effect.provide(Digest.layerWebCrypto)),
    RUNS
  )

  it.effect.prop("the same text always gives the same chunks", { doc: Doc }, ({ doc }) =>
    Effect.gen(function*() {
      const text = render(doc)
      const first = yield* chunkFile({ path: "docs/gen.md", text }, { targetTokens: doc.targetTokens })
      const second = yield* chunkFile({ path: "docs/gen.md", text }, { targetTokens: doc.targetTokens })
      assert.deepStrictEqual(second, first)
    }).pipe(Effect.provide(Digest.layerWebCrypto)), RUNS)
})
