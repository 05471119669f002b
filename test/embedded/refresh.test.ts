/**
 * Refreshing the embedded index from a one-shot process and from a long-lived one: an unchanged
 * repository is confirmed from a listing without a write, any change to what a scan reads takes
 * the full path, files in `.cairn/` that do not vouch for the committed build are not trusted, and
 * a long-lived process brings those files up to date when asked.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import * as IndexMemory from "../../pipelines/indexMemory.ts"
import { indexLayer, indexRepository, saveIndexMemory } from "../../pipelines/indexRepository.ts"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-refresh-"))
  write(root, "docs/rollback.md", "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n")
  write(root, "docs/retention.md", "# Log retention\n\nApplication logs are kept for 30 days.\n")
  write(root, "src/target.ts", "import { x } from \"./x.ts\"\nexport const rollbackTarget = (releases: Array<string>) => releases.at(-2) ?? x\n")
  write(root, "src/x.ts", "export const x = \"none\"\n")
  return root
}

const index = (root: string, memory?: IndexMemory.IndexMemory) =>
  Effect.runPromise(
    indexRepository({ root, now: Date.parse("2026-11-30T12:00:00Z"), ...(memory === undefined ? {} : { memory }) }).pipe(
      Effect.provide(indexLayer(root)),
      Effect.provide(NodeServices.layer)
    )
  )

const modified = (root: string, file: string) => statSync(join(root, ".cairn", file)).mtimeMs

describe("refresh from a one-shot process", () => {
  it("confirms an unchanged repository without writing, and takes the full path for any change a scan reads", async () => {
    const root = repository()
    try {
      const first = await index(root)
      assert.isFalse(first.upToDate)
      assert.strictEqual(first.notesIndexed, 4)
      const stamps = [modified(root, "snapshot.json"), modified(root, "scan-cache.json"), modified(root, "index.sqlite")]

      const again = await index(root)
      assert.isTrue(again.upToDate)
      assert.deepStrictEqual([again.notes, again.notesIndexed, again.summary.chunkCount], [4, 0, first.summary.chunkCount])
      assert.deepStrictEqual([modified(root, "snapshot.json"), modified(root, "scan-cache.json"), modified(root, "index.sqlite")], stamps)

      // A file no analyzer reads changes nothing the index holds.
      write(root, "assets/logo.png", "not really a png")
      assert.isTrue((await index(root)).upToDate)

      write(root, "docs/retention.md", "# Log retention\n\nApplication logs are kept for 90 days.\n")
      const edited = await index(root)
      assert.deepStrictEqual([edited.upToDate, edited.notesIndexed], [false, 1])
      assert.isTrue((await index(root)).upToDate)

      write(root, "docs/oncall.md", "# On call\n\nThe rota changes every Monday.\n")
      const added = await index(root)
      assert.deepStrictEqual([added.upToDate, added.notesIndexed, added.notes], [false, 1, 5])

      rmSync(join(root, "src/x.ts"))
      const deleted = await index(root)
      assert.deepStrictEqual([deleted.upToDate, deleted.notesDeleted, deleted.notes], [false, 1, 4])
      assert.isTrue((await index(root)).upToDate)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it("does not trust a scan cache that vouches for another build, or a snapshot file that is not one", async () => {
    const root = repository()
    try {
      const first = await index(root)
      const cacheFile = join(root, ".cairn", "scan-cache.json")
      const cache = JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, unknown>
      assert.strictEqual(cache["snapshotHash"], first.snapshotHash)

      // As if a build had died after writing its cache but before its commit.
      writeFileSync(cacheFile, JSON.stringify({ ...cache, snapshotHash: "0".repeat(64) }))
      const distrusted = await index(root)
      assert.deepStrictEqual([distrusted.upToDate, distrusted.notesIndexed, distrusted.summary.chunkCount], [false, 0, first.summary.chunkCount])
      assert.isTrue((await index(root)).upToDate)

      // A broken snapshot file, then one of the wrong shape: the scan runs cold and answers the same.
      for (const broken of ["{\"entities\":", JSON.stringify({ entities: 5, relations: [] })]) {
        writeFileSync(join(root, ".cairn", "snapshot.json"), broken)
        rmSync(cacheFile)
        const cold = await index(root)
        assert.deepStrictEqual([cold.upToDate, cold.notesIndexed, cold.summary.chunkCount], [false, 0, first.summary.chunkCount])
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})

describe("refresh from a long-lived process", () => {
  it("refreshes from memory, leaves the files of its first run until saved, then brings them up to date", async () => {
    const root = repository()
    try {
      const memory = IndexMemory.make()
      const first = await index(root, memory)
      assert.strictEqual(memory.saved, true)
      assert.isTrue((await index(root, memory)).upToDate)

      write(root, "src/x.ts", "export const x = \"previous\"\n")
      const edited = await index(root, memory)
      assert.deepStrictEqual([edited.upToDate, edited.notesIndexed], [false, 1])
      assert.strictEqual(memory.saved, false)
      const onDisk = () => JSON.parse(readFileSync(join(root, ".cairn", "snapshot.json"), "utf8")) as { contentHash: string }
      assert.strictEqual(onDisk().contentHash, first.snapshotHash)

      // A one-shot process meanwhile finds the files behind the index and scans; it answers the same.
      const other = await index(root)
      assert.deepStrictEqual([other.upToDate, other.notesIndexed, other.summary.chunkCount], [false, 0, edited.summary.chunkCount])

      write(root, "src/x.ts", "export const x = \"latest\"\n")
      const latest = await index(root, memory)
      await Effect.runPromise(saveIndexMemory(root, memory).pipe(Effect.provide(NodeServices.layer)))
      assert.strictEqual(memory.saved, true)
      assert.strictEqual(onDisk().contentHash, latest.snapshotHash)
      assert.isTrue((await index(root)).upToDate)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
