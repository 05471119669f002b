/**
 * An index run under faulty input: binary files are not chunked, a file that vanishes between the
 * scan and chunking costs that file alone, and the next run converges.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { indexLayer, type IndexProgress, indexRepository } from "../../pipelines/indexRepository.ts"

const write = (root: string, path: string, bytes: string | Uint8Array) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), bytes)
}

const index = (root: string, onProgress?: (event: IndexProgress) => void) =>
  Effect.runPromise(
    indexRepository({ root, now: Date.parse("2026-11-30T12:00:00Z"), ...(onProgress === undefined ? {} : { onProgress }) }).pipe(
      Effect.provide(indexLayer(root)),
      Effect.provide(NodeServices.layer)
    )
  )

const chunkedPaths = (root: string): Array<string> => {
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
  try {
    return (db.prepare("SELECT DISTINCT path FROM chunks ORDER BY path").all() as Array<{ path: string }>).map((row) => row.path)
  } finally {
    db.close()
  }
}

describe("indexRepository under faulty input", () => {
  it("index - files discovery reports as skipped-binary are neither chunked nor stored", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-binary-"))
    try {
      write(root, "docs/guide.md", "# Guide\n\nDeploys roll back with `deployctl rollback`.\n")
      // Random-looking bytes named .ts, and Markdown with a NUL early on.
      write(root, "src/blob.ts", Uint8Array.from({ length: 600 }, (_, i) => (i * 37 + 11) % 256))
      write(root, "docs/early-nul.md", "# Looks like text\u0000\n\nBut is binary by git's rule.\n")
      await index(root)
      assert.deepStrictEqual(chunkedPaths(root), ["docs/guide.md"])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it("index - a file deleted between the scan and chunking costs that file alone; the next run converges", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-vanish-"))
    try {
      write(root, "docs/guide.md", "# Guide\n\nDeploys roll back with `deployctl rollback`.\n")
      write(root, "docs/draft.md", "# Draft\n\nAbout to be deleted by a checkout.\n")
      write(root, "src/a.ts", "export const a = 1\n")
      const first = await index(root, (event) => {
        if (event._tag === "Discovered") rmSync(join(root, "docs/draft.md"))
      })
      assert.strictEqual(first.upToDate, false)
      assert.deepStrictEqual(chunkedPaths(root), ["docs/guide.md", "src/a.ts"])
      const second = await index(root)
      assert.deepStrictEqual([second.notes, second.notesDeleted], [2, 0])
      assert.deepStrictEqual(chunkedPaths(root), ["docs/guide.md", "src/a.ts"])
      assert.isTrue((await index(root)).upToDate)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
