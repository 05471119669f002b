import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Digest from "effect/crypto/Digest"
import { Chunk } from "../../domain/Chunk.ts"
import { sha256Text } from "../../source/Hashing.ts"
import type { BlameLine } from "../../ports/History.ts"
import { chunkFile } from "./ChunkFile.ts"

const NOTE = [
  "---", //                               1
  "title: Queue choice",
  "type: decision",
  "tags: [infra, queue]",
  "status: superseded", //                5
  "superseded_by: adr-0009",
  "updated: 2025-06-01",
  "---",
  "# Use a queue",
  "", //                                  10
  "We chose a queue for payouts.",
  "",
  "## Consequences",
  "",
  "Retries become cheap.", //             15
  "",
  "## See also",
  "",
  "- [[adr-0009]]",
  "- [Runbook](../runbooks/queue.md)" // 20
].join("\n")

const decode = Schema.decodeUnknownSync(Chunk)
const provide = Effect.provide(Digest.layerWebCrypto)

describe("chunkFile", () => {
  it.effect("chunkFile - a Markdown note: every field filled as the Chunk schema documents it", () =>
    Effect.gen(function*() {
      const chunks = yield* chunkFile({ path: "docs/decisions/0004-queue.md", text: NOTE })
      assert.strictEqual(chunks.length, 3)
      for (const chunk of chunks) {
        decode(chunk)
        assert.strictEqual(chunk.id, `docs/decisions/0004-queue.md#${chunk.blockId}`)
        assert.match(chunk.blockId, /^[0-9a-f]{12}$/)
        assert.strictEqual(chunk.contentSha, yield* sha256Text(chunk.text))
        assert.strictEqual(chunk.noteId, "docs/decisions/0004-queue.md")
        assert.strictEqual(chunk.path, chunk.noteId)
        assert.strictEqual(chunk.title, "Queue choice")
        assert.deepStrictEqual(chunk.tags, ["infra", "queue"])
        assert.strictEqual(chunk.noteType, "decision")
        assert.strictEqual(chunk.status, "superseded")
        assert.strictEqual(chunk.updated, "2025-06-01")
        assert.deepStrictEqual(chunk.provenance, { authorKind: "human", author: null, createdAt: "2025-06-01T00:00:00Z", state: "superseded" })
        assert.deepStrictEqual(chunk.symbols, [])
      }
      assert.deepStrictEqual(chunks.map((c) => [c.headingPath, c.lineStart, c.lineEnd, c.isLinkList]), [
        [["Use a queue"], 9, 11, false],
        [["Use a queue", "Consequences"], 13, 15, false],
        [["Use a queue", "See also"], 17, 20, true]
      ])
      assert.strictEqual(chunks[1]!.text, "Queue choice > Use a queue > Consequences\nRetries become cheap.")
    }).pipe(provide))

  it.effect("chunkFile - an unchanged section keeps its block id when another paragraph changes and lines shift", () =>
    Effect.gen(function*() {
      const before = yield* chunkFile({ path: "n.md", text: "# T\n\n## A\n\nAlpha stays.\n\n## B\n\nBeta says one thing.\n" })
      const after = yield* chunkFile({ path: "n.md", text: "# T\n\nA new intro.\n\nWith two paragraphs.\n\n## A\n\nAlpha stays.\n\n## B\n\nBeta says another.\n" })
      const idOf = (chunks: ReadonlyArray<Chunk>, heading: string) => chunks.find((c) => c.headingPath.at(-1) === heading)!.id
      assert.strictEqual(idOf(after, "A"), idOf(before, "A"))
      assert.notStrictEqual(idOf(after, "B"), idOf(before, "B"))
      assert.notStrictEqual(after.find((c) => c.headingPath.at(-1) === "A")!.lineStart, before.find((c) => c.headingPath.at(-1) === "A")!.lineStart)
    }).pipe(provide))

  it.effect("chunkFile - two identical sections under one heading path get distinct ids", () =>
    Effect.gen(function*() {
      const chunks = yield* chunkFile({ path: "n.md", text: "# T\n\n## Example\n\nSame.\n\n## Example\n\nSame.\n" })
      assert.strictEqual(new Set(chunks.map((c) => c.id)).size, 2)
      assert.strictEqual(chunks[1]!.blockId, `${chunks[0]!.blockId}-2`)
    }).pipe(provide))

  it.effect("chunkFile - ages from history when given, per chunk; else frontmatter; else unknown", () =>
    Effect.gen(function*() {
      const text = "# T\n\nOld words.\n\n## New\n\nFresh words.\n"
      const at = (iso: string) => Date.parse(iso) / 1000
      const history: ReadonlyArray<BlameLine> = [
        { line: 1, authorTime: at("2020-01-01T00:00:00Z"), author: "Ada", authorMail: "ada@example.com" },
        { line: 3, authorTime: at("2021-02-03T04:05:06Z"), author: "Ada", authorMail: "ada@example.com" },
        { line: 5, authorTime: at("2020-01-01T00:00:00Z"), author: "Ada", authorMail: "ada@example.com" },
        { line: 7, authorTime: at("2026-03-04T05:06:07Z"), author: "docs-bot", authorMail: "docs-bot@example.com" }
      ]
      const blamed = yield* chunkFile({ path: "n.md", text, history })
      assert.deepStrictEqual(blamed.map((c) => [c.provenance.createdAt, c.provenance.author, c.provenance.authorKind]), [
        ["2021-02-03T04:05:06Z", "Ada", "human"],
        ["2026-03-04T05:06:07Z", "docs-bot", "agent"]
      ])
      assert.strictEqual(blamed[0]!.updated, "2026-03-04")
      const declared = yield* chunkFile({ path: "n.md", text: `---\ncreated: 2019-05-06\n---\n${text}` })
      assert.deepStrictEqual(declared.map((c) => c.provenance.createdAt), ["2019-05-06T00:00:00Z", "2019-05-06T00:00:00Z"])
      const unknown = yield* chunkFile({ path: "n.md", text })
      assert.deepStrictEqual(unknown.map((c) => [c.provenance.createdAt, c.updated]), [[null, null], [null, null]])
    }).pipe(provide))

  it.effect("chunkFile - frontmatter defaults apply unless the note declares its own", () =>
    Effect.gen(function*() {
      const defaults = { type: "runbook", verified: true, author: "ops-team" }
      const plain = yield* chunkFile({ path: "notes/a.md", text: "Body.\n", frontmatterDefaults: defaults })
      assert.deepStrictEqual([plain[0]!.noteType, plain[0]!.provenance.state, plain[0]!.provenance.author], ["reference", "verified", "ops-team"])
      const own = yield* chunkFile({ path: "notes/a.md", text: "---\ntype: convention\nverified: false\n---\nBody.\n", frontmatterDefaults: defaults })
      assert.deepStrictEqual([own[0]!.noteType, own[0]!.provenance.state], ["convention", "unverified"])
      const script = yield* chunkFile({ path: "notes/tool.py", text: "print(1)\n", frontmatterDefaults: defaults })
      assert.strictEqual(script[0]!.noteType, "code")
    }).pipe(provide))

  it.effect("chunkFile - a module: note type code, the path as title, symbols and line ranges", () =>
    Effect.gen(function*() {
      const chunks = yield* chunkFile({ path: "src/a.ts", text: "import x from \"x\"\n\nexport const a = 1\n\nexport function f() {\n  return a\n}\n" })
      assert.deepStrictEqual(chunks.map((c) => [c.symbols, c.lineStart, c.lineEnd, c.text.split("\n")[0]]), [
        [["a"], 1, 3, "src/a.ts"],
        [["f"], 5, 7, "src/a.ts > f"]
      ])
      assert.isTrue(chunks.every((c) => c.noteType === "code" && c.title === "src/a.ts" && c.headingPath.length === 0))
    }).pipe(provide))

  it.effect("chunkFile - a module that does not parse, and a format without a chunker, fall back to line windows", () =>
    Effect.gen(function*() {
      const broken = yield* chunkFile({ path: "src/b.ts", text: "export function (\n  oops\n" })
      assert.deepStrictEqual(broken.map((c) => [c.text, c.noteType, c.lineStart, c.lineEnd]), [["src/b.ts\nexport function (\n  oops", "code", 1, 2]])
      const yaml = yield* chunkFile({ path: "ops/runbooks/deploy.yaml", text: "steps:\n  - build\n" })
      assert.deepStrictEqual(yaml.map((c) => [c.text, c.noteType, c.title]), [["ops/runbooks/deploy.yaml\nsteps:\n  - build", "reference", "ops/runbooks/deploy.yaml"]])
    }).pipe(provide))

  it.effect("chunkFile - a 300 KB single-line file chunks without error, every chunk valid", () =>
    Effect.gen(function*() {
      for (const path of ["big.md", "big.ts", "big.txt"]) {
        const chunks = yield* chunkFile({ path, text: "k".repeat(300_000) })
        assert.isAbove(chunks.length, 100)
        assert.strictEqual(new Set(chunks.map((c) => c.id)).size, chunks.length)
        for (const chunk of chunks) decode(chunk)
      }
    }).pipe(provide), 30_000) // chunks 300 KB three times: as Markdown, code and text

  it.effect("chunkFile - the same input gives the same chunks", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* chunkFile({ path: "docs/decisions/0004-queue.md", text: NOTE }), yield* chunkFile({ path: "docs/decisions/0004-queue.md", text: NOTE }))
    }).pipe(provide))
})
