/**
 * Chunking settings through the index: a smaller token target makes smaller chunks, an index built
 * under other settings is rebuilt rather than mixed, the same settings again find it up to date,
 * and settings out of range fail naming the field with the index untouched.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { indexLayer, indexRepository } from "../../pipelines/indexRepository.ts"
import type { ChunkingConfig } from "../../src/index/chunk/ChunkingConfig.ts"

const paragraph = (topic: string, i: number) =>
  `The ${topic} service keeps its queue for ${i} hours, retries each message ${i % 5 + 1} times and then parks it for an operator to look at.`

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-chunking-"))
  mkdirSync(join(root, "docs"))
  for (const topic of ["billing", "search"]) {
    const sections = Array.from({ length: 6 }, (_, s) =>
      `## Part ${s}\n\n${Array.from({ length: 8 }, (_, i) => paragraph(topic, s * 8 + i)).join(" ")}\n`)
    writeFileSync(join(root, `docs/${topic}.md`), `# ${topic}\n\n${sections.join("\n")}`)
  }
  return root
}

const index = (root: string, chunking?: unknown) =>
  Effect.runPromise(
    indexRepository({ root, now: Date.parse("2026-12-01T12:00:00Z"), chunking: chunking as ChunkingConfig | undefined }).pipe(
      Effect.provide(indexLayer(root)),
      Effect.provide(NodeServices.layer),
      Effect.result
    )
  )

const stored = (root: string) => {
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
  try {
    const sizes = (db.prepare("SELECT length(text) AS n FROM chunks").all() as Array<{ n: number }>).map((row) => row.n)
    const manifest = db.prepare("SELECT generation, chunking FROM manifest").get() as { generation: number; chunking: string }
    return { chunks: sizes.length, largest: Math.max(...sizes), generation: manifest.generation, chunking: manifest.chunking }
  } finally {
    db.close()
  }
}

describe("chunking settings", () => {
  it("a smaller target re-chunks every note; the same settings find the index up to date; other settings rebuild it", async () => {
    const root = repository()
    try {
      const first = await index(root)
      assert.strictEqual(first._tag, "Success")
      const byDefault = stored(root)
      assert.strictEqual(byDefault.chunking, JSON.stringify({ targetTokens: 350, agentPatterns: ["-bot", "[bot]", "bot@"], redaction: ["secrets/1"], rules: "code/2" }))

      const small = await index(root, { targetTokens: 100 })
      assert.isTrue(small._tag === "Success" && !small.success.upToDate && small.success.retrained && small.success.notesIndexed === 2)
      const smaller = stored(root)
      assert.isAbove(smaller.chunks, byDefault.chunks)
      assert.isBelow(smaller.largest, byDefault.largest)
      assert.strictEqual(JSON.parse(smaller.chunking).targetTokens, 100)

      const again = await index(root, { targetTokens: 100 })
      assert.isTrue(again._tag === "Success" && again.success.upToDate)
      assert.strictEqual(stored(root).generation, smaller.generation)

      const back = await index(root)
      assert.isTrue(back._tag === "Success" && back.success.retrained && back.success.notesIndexed === 2)
      assert.deepStrictEqual({ ...stored(root), generation: 0 }, { ...byDefault, generation: 0 })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it("settings out of range or unknown fail naming the field, and the index stays as it was", async () => {
    const root = repository()
    try {
      assert.strictEqual((await index(root))._tag, "Success")
      const before = stored(root)
      for (const [settings, field] of [[{ targetTokens: 10 }, "targetTokens"], [{ agentPatterns: [""] }, "agentPatterns.0"], [{ target: 200 }, "target"]] as const) {
        const result = await index(root, settings)
        assert.isTrue(result._tag === "Failure", JSON.stringify(settings))
        const error = result._tag === "Failure" ? result.failure : undefined
        assert.deepInclude(error, { _tag: "InvalidInput", subject: "chunking", field })
      }
      assert.deepStrictEqual(stored(root), before)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
