/**
 * The index pipeline end to end on the reference layers: a repository is indexed into the
 * in-memory IndexStore, what it holds is the reference corpus recall answers from, and the SQLite
 * backend, given the same repository, holds the same notes and chunks.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Recall from "../layers/Recall.ts"
import * as IndexStoreMemory from "../layers/reference/IndexStoreMemory.ts"
import * as SnapshotStoreMemory from "../layers/reference/SnapshotStoreMemory.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"
import { SnapshotStore } from "../src/ports/SnapshotStore.ts"
import { indexLayer, indexRepository } from "./indexRepository.ts"
import { recall } from "./recall.ts"

const NOW = Date.parse("2026-01-15T09:00:00Z")

const FILES: Readonly<Record<string, string>> = {
  "docs/budget.md": "# Token budget\n\nEvery pack is cut to the token budget: claims are added by score until the next one would exceed it, and the rest are dropped.\n\nSee [packing](packing.md).\n",
  "docs/packing.md": "# Packing\n\nThe packer orders claims by score and writes each with its source path and lines.\n",
  "docs/deploy.md": "# Deploying\n\nDeploys go out from the main branch through the release pipeline, never by hand.\n",
  "src/budget.ts": "/** Cuts a list of passages to a token budget. */\nexport const cut = (sizes: ReadonlyArray<number>, budget: number): number => {\n  let used = 0\n  let kept = 0\n  for (const size of sizes) {\n    if (used + size > budget) break\n    used += size\n    kept++\n  }\n  return kept\n}\n"
}

const repository = (): string => {
  const root = mkdtempSync(join(tmpdir(), "cairn-reference-index-"))
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, ".."), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const onReference = (store: IndexStore["Service"], snapshots: SnapshotStore["Service"]) =>
  Layer.mergeAll(Layer.succeed(IndexStore, store), Layer.succeed(SnapshotStore, snapshots), TokenCounterDefault.layer, NodeServices.layer)

/** What a reader of any IndexStore sees of an index: notes, and every note's chunks. */
const held = Effect.gen(function*() {
  const store = yield* IndexStore
  const notes = yield* store.noteHashes
  const manifest = yield* store.manifest
  return {
    notes: [...notes],
    chunks: [...(yield* store.storedChunks([...notes.keys()]))],
    counts: manifest === undefined ? undefined : [manifest.chunkCount, manifest.embeddedCount, manifest.noteCount, manifest.relationCount]
  }
})

describe("the index pipeline on the reference layers", () => {
  it.live("indexes a repository into the reference store, answers from it, refreshes one changed file, and holds what SQLite holds", () =>
    Effect.gen(function*() {
      const root = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const memory = IndexStoreMemory.make()
      // The run's snapshot, kept for the next run as the index is.
      const snapshots = yield* SnapshotStoreMemory.make

      const cold = yield* indexRepository({ root, now: NOW }).pipe(Effect.provide(onReference(memory.store, snapshots)))
      assert.isFalse(cold.upToDate)
      assert.isTrue(cold.retrained)
      assert.strictEqual(cold.notes, 4)
      const contents = yield* memory.contents
      assert.deepStrictEqual([...new Set(contents.chunks.map((chunk) => chunk.noteId))], ["docs/budget.md", "docs/deploy.md", "docs/packing.md", "src/budget.ts"])
      assert.deepStrictEqual(contents.edges.map((edge) => [edge.from, edge.to]), [["docs/budget.md", "docs/packing.md"]])
      // Every chunk was embedded by the model trained on them.
      assert.strictEqual(contents.vectors.size, contents.chunks.length)
      assert.strictEqual(contents.space?.modelId, "cairn/lsa")

      const pack = yield* recall({ text: "how is the token budget enforced?" }).pipe(Effect.provide(Recall.reference({ chunks: contents.chunks, edges: contents.edges })))
      assert.include(["docs/budget.md", "src/budget.ts"], pack.claims[0]?.note)
      assert.isAtMost(pack.usedTokens, pack.budgetTokens)

      // One file changes: only its note is indexed again, and its old chunks are gone.
      writeFileSync(join(root, "docs/deploy.md"), "# Deploying\n\nDeploys are rolled back with the release tool's revert command.\n")
      const warm = yield* indexRepository({ root, now: NOW + 60_000 }).pipe(Effect.provide(onReference(memory.store, snapshots)))
      assert.deepStrictEqual([warm.upToDate, warm.retrained, warm.notesIndexed, warm.notesUnchanged], [false, false, 1, 3])
      // The last run's snapshot, read back from the reference store, was patched rather than scanned again.
      assert.isTrue(warm.snapshotPatched)
      const after = yield* memory.contents
      const deploy = after.chunks.filter((chunk) => chunk.noteId === "docs/deploy.md")
      assert.isTrue(deploy.some((chunk) => chunk.text.includes("rolled back")))
      assert.isFalse(after.chunks.some((chunk) => chunk.text.includes("main branch")))
      assert.strictEqual(after.vectors.size, after.chunks.length)
      const memoryHeld = yield* held.pipe(Effect.provide(Layer.succeed(IndexStore, memory.store)))

      // The same repository in the SQLite backend, from scratch: the same notes, chunks and counts.
      const sqliteRoot = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(sqliteRoot, { recursive: true, force: true })))
      writeFileSync(join(sqliteRoot, "docs/deploy.md"), "# Deploying\n\nDeploys are rolled back with the release tool's revert command.\n")
      const sqliteHeld = yield* Effect.gen(function*() {
        yield* indexRepository({ root: sqliteRoot, now: NOW })
        return yield* held
      }).pipe(Effect.provide(indexLayer(sqliteRoot)), Effect.provide(NodeServices.layer))
      assert.deepStrictEqual(memoryHeld, sqliteHeld)
    }).pipe(Effect.scoped), 120_000) // two cold builds and a refresh, each training the embedder
})
