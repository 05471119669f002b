/**
 * Refreshing the embedded index from a one-shot process and from a long-lived one: an unchanged
 * repository is confirmed from a listing without a write, any change to what a scan reads takes
 * the full path, files in `.cairn/` that do not vouch for the committed build are not trusted, and
 * a long-lived process brings those files up to date when asked.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, FileSystem, Option } from "effect"
import { patch } from "../../pipelines/discover.ts"
import { unchangedSince } from "../../pipelines/unchanged.ts"
import * as IndexMemory from "../../pipelines/indexMemory.ts"
import { indexLayer, indexRepository, pendingChanges, saveIndexMemory } from "../../pipelines/indexRepository.ts"
import * as ScanCacheFile from "../../pipelines/scanCacheFile.ts"
import * as SnapshotStoreFile from "../../layers/node/SnapshotStoreFile.ts"

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

/** An index run while another connection holds the write lock past the busy timeout. */
const indexWhileLocked = async (root: string, memory?: IndexMemory.IndexMemory): Promise<"committed" | "failed"> => {
  const other = new DatabaseSync(join(root, ".cairn", "index.sqlite"))
  other.exec("BEGIN IMMEDIATE")
  try {
    return await index(root, memory).then(() => "committed" as const, () => "failed" as const)
  } finally {
    other.exec("ROLLBACK")
    other.close()
  }
}

/**
 * The content hash of the snapshot file, recomputed from its JSON alone, and the hash it and the
 * index carry: a refresh that takes unit digests from the scan cache must still arrive at the hash
 * the units' JSON gives.
 */
const snapshotHashes = (root: string) => {
  const { contentHash, coverage, entities, relations, ...head } = JSON.parse(readFileSync(join(root, ".cairn", "snapshot.json"), "utf8")) as {
    contentHash: string
    coverage: Array<unknown>
    entities: Array<{ id: string }>
    relations: Array<{ from: string }>
  }
  const sha = (text: string) => createHash("sha256").update(text).digest()
  const parts = [
    sha(JSON.stringify({ ...head, counts: [entities.length, relations.length, coverage.length] })),
    ...entities.map((e) => sha([JSON.stringify(e), ...relations.filter((r) => r.from === e.id).map((r) => JSON.stringify(r))].join("\n"))),
    sha(JSON.stringify(coverage))
  ]
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
  try {
    const indexed = (db.prepare("SELECT snapshot_hash FROM manifest WHERE key = 1").get() as { snapshot_hash: string }).snapshot_hash
    return { recomputed: createHash("sha256").update(Buffer.concat(parts)).digest("hex"), file: contentHash, indexed }
  } finally {
    db.close()
  }
}

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
      // A temporary file an hour old, left by a writer that died, is cleared by the next write.
      const leftover = join(root, ".cairn", "snapshot.json.2147483646.tmp")
      writeFileSync(leftover, "half a snapshot")
      utimesSync(leftover, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000))
      const edited = await index(root)
      assert.deepStrictEqual([edited.upToDate, edited.notesIndexed], [false, 1])
      assert.isFalse(existsSync(leftover))
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

  it("a one-shot refresh that cannot commit leaves the files of the last build as they were, and no temporaries", async () => {
    const root = repository()
    try {
      await index(root)
      const files = () => ["snapshot.json", "scan-cache.json"].map((file) => readFileSync(join(root, ".cairn", file), "utf8"))
      const before = files()
      write(root, "docs/retention.md", "# Log retention\n\nApplication logs are kept for 45 days.\n")
      assert.strictEqual(await indexWhileLocked(root), "failed")
      // The scan's files were written aside before the index write failed; none were put in place.
      assert.deepStrictEqual(files(), before)
      assert.deepStrictEqual(readdirSync(join(root, ".cairn")).filter((name) => name.endsWith(".tmp")), [])
      const next = await index(root)
      assert.deepStrictEqual([next.upToDate, next.notesIndexed], [false, 1])
      assert.notDeepEqual(files(), before)
      assert.isTrue((await index(root)).upToDate)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})

/** What the index holds, row ids aside: chunks, notes, relations. */
const tables = (root: string) => {
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
  try {
    return {
      chunks: db.prepare("SELECT id, note_id, content_sha, text FROM chunks ORDER BY id").all(),
      notes: db.prepare("SELECT id, chunk_count, lead_chunk, content_hash FROM notes ORDER BY id").all(),
      relations: db.prepare("SELECT from_note, to_note, verb FROM relations ORDER BY from_note, to_note, verb").all()
    }
  } finally {
    db.close()
  }
}

describe("pending changes", () => {
  it("answers from a listing when nothing moved, and names what moved otherwise", async () => {
    const root = repository()
    try {
      await index(root)
      const pending = () =>
        Effect.runPromise(pendingChanges({ root }).pipe(Effect.provide(indexLayer(root)), Effect.provide(NodeServices.layer)))
      assert.deepStrictEqual(await pending(), { added: [], changed: [], deleted: [] })
      write(root, "docs/retention.md", "# Log retention\n\nApplication logs are kept for 60 days.\n")
      write(root, "docs/new.md", "# New\n\nA new note.\n")
      rmSync(join(root, "src/x.ts"))
      assert.deepStrictEqual(await pending(), { added: ["docs/new.md"], changed: ["docs/retention.md"], deleted: ["src/x.ts"] })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})

describe("refresh against a cold build", () => {
  it("after edits that move links, an export and a deletion, an index refreshed in place holds what a cold build holds", async () => {
    // One tree refreshed by one-shot runs, one by a long-lived process, one built cold after every edit.
    const oneShot = repository()
    const longLived = repository()
    const cold = mkdtempSync(join(tmpdir(), "cairn-cold-"))
    try {
      const guide = "# Guide\n\nSee [rollback](./rollback.md) and `rollbackTarget` in the code.\n"
      for (const root of [oneShot, longLived]) {
        write(root, "docs/guide.md", guide)
        // An import of a module that does not exist yet: it resolves once the module appears.
        write(root, "src/early.ts", "import { later } from \"./later.ts\"\nexport const early = () => later\n")
      }
      const memory = IndexMemory.make()
      await index(oneShot)
      await index(longLived, memory)
      const edits: ReadonlyArray<(root: string) => void> = [
        (root) => write(root, "docs/guide.md", "# Guide\n\nSee [retention](./retention.md) now, and `rollbackTarget`.\n"),
        // The symbol a document mentions moves to another module: the document's link resolves anew.
        (root) => {
          write(root, "src/target.ts", "export const unrelated = 1\n")
          write(root, "src/x.ts", "export const x = \"none\"\nexport const rollbackTarget = (releases: Array<string>) => releases.at(-2)\n")
        },
        (root) => rmSync(join(root, "docs/retention.md")),
        (root) => write(root, "docs/retention.md", "# Log retention\n\nKept for 7 days; see [guide](./guide.md).\n"),
        (root) => write(root, "src/later.ts", "export const later = 2\n")
      ]
      for (const edit of edits) {
        edit(oneShot)
        edit(longLived)
        assert.isFalse((await index(oneShot)).upToDate)
        assert.isFalse((await index(longLived, memory)).upToDate)
        rmSync(cold, { recursive: true, force: true })
        cpSync(oneShot, cold, { recursive: true, filter: (source) => !source.includes(".cairn") })
        await index(cold)
        const expected = tables(cold)
        assert.deepStrictEqual(tables(oneShot), expected)
        assert.deepStrictEqual(tables(longLived), expected)
        // The one-shot runs after the first take what they reuse from the scan cache's memo.
        assert.property(JSON.parse(readFileSync(join(oneShot, ".cairn", "scan-cache.json"), "utf8")), "snapshot")
        const hashes = snapshotHashes(oneShot)
        assert.deepStrictEqual(hashes, { recomputed: hashes.file, file: hashes.indexed, indexed: hashes.indexed })
      }
    } finally {
      for (const root of [oneShot, longLived, cold]) rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})

describe("refresh from a long-lived process", () => {
  it("a refresh that cannot commit leaves nothing vouching for it: the next refresh indexes the edit", async () => {
    const root = repository()
    try {
      const memory = IndexMemory.make()
      await index(root, memory)
      write(root, "docs/retention.md", "# Log retention\n\nApplication logs are kept for 45 days.\n")
      assert.strictEqual(await indexWhileLocked(root, memory), "failed")
      const next = await index(root, memory)
      assert.deepStrictEqual([next.upToDate, next.notesIndexed], [false, 1])
      assert.isTrue((await index(root, memory)).upToDate)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it("a file the last scan did not see is not vouched for by an older scan's stamp", async () => {
    const root = repository()
    const aside = mkdtempSync(join(tmpdir(), "cairn-aside-"))
    try {
      const memory = IndexMemory.make()
      await index(root, memory)
      // Moving a folder out and back keeps its files' stamps (times and inode) as they were.
      // Two files leave and two others come, so the count of files alone does not change.
      renameSync(join(root, "src"), join(aside, "src"))
      write(root, "docs/extra.md", "# Extra\n\nA note that comes and goes.\n")
      write(root, "docs/more.md", "# More\n\nAnother note that comes and goes.\n")
      assert.strictEqual((await index(root, memory)).notesDeleted, 2)
      renameSync(join(aside, "src"), join(root, "src"))
      rmSync(join(root, "docs/extra.md"))
      rmSync(join(root, "docs/more.md"))
      const back = await index(root, memory)
      assert.deepStrictEqual([back.upToDate, back.notesIndexed, back.notesDeleted], [false, 2, 2])
    } finally {
      rmSync(root, { recursive: true, force: true })
      rmSync(aside, { recursive: true, force: true })
    }
  }, 60_000)

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

describe("a one-shot refresh that patches the last snapshot", () => {
  /** The scan cache's entries (stamps aside: they differ between two trees) and its memo, stamp aside. */
  const scanCache = (root: string) => {
    const { entries, snapshot, ...rest } = JSON.parse(readFileSync(join(root, ".cairn", "scan-cache.json"), "utf8")) as {
      entries: Array<[string, string, string]>
      snapshot: Record<string, unknown>
    }
    const { stamp: _stamp, ...memo } = snapshot
    return { ...rest, entries: entries.map(([path, , hash]) => [path, hash]), memo }
  }
  /** The scan cache without its memo: the next refresh of this tree can only scan. */
  const forgetMemo = (root: string) => {
    const file = join(root, ".cairn", "scan-cache.json")
    const { snapshot: _snapshot, ...rest } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
    writeFileSync(file, JSON.stringify(rest))
  }
  const modules = (root: string, accented: boolean) => {
    // A snapshot file with a character outside ASCII is read as text, one without as bytes.
    if (accented) write(root, "docs/café.md", "# Café\n\nA naïve note about `b`.\n")
    write(root, "src/a.ts", "import { b } from \"./b.ts\"\nimport { Effect } from \"effect\"\nexport const a = () => Effect.succeed(b + 1)\n")
    write(root, "src/b.ts", "export const b = 2\n")
    write(root, "src/c.ts", "export function c() {\n  return 3\n}\n")
    write(root, "src/barrel.ts", "export * from \"./c.ts\"\nexport { b as base } from \"./b.ts\"\n")
    write(root, "src/use.ts", "import { c } from \"./barrel.ts\"\nexport const use = () => c()\n")
    write(root, "docs/guide.md", "# Guide\n\nThe answer is `a`, built on [b](../src/b.ts).\n")
    write(root, "package.json", "{\"name\": \"fixture\", \"version\": \"1.0.0\"}\n")
  }

  interface Edit {
    readonly name: string
    readonly patches: boolean
    readonly edit: (root: string) => void
  }

  /** Two copies of one tree take the same edits: one may patch, the other always scans. */
  const twins = async (tree: () => string, edits: ReadonlyArray<Edit>, check?: (root: string) => void) => {
    const patched = tree()
    const scanned = tree()
    try {
      await index(patched)
      await index(scanned)
      check?.(patched)
      for (const { edit, name, patches } of edits) {
        edit(patched)
        edit(scanned)
        forgetMemo(scanned)
        const [fromPatch, fromScan] = [await index(patched), await index(scanned)]
        assert.strictEqual(fromPatch.snapshotPatched, patches, name)
        assert.isFalse(fromScan.snapshotPatched, name)
        assert.deepStrictEqual({ ...fromPatch, snapshotPatched: false }, fromScan, name)
        assert.strictEqual(readFileSync(join(patched, ".cairn", "snapshot.json"), "utf8"), readFileSync(join(scanned, ".cairn", "snapshot.json"), "utf8"), name)
        assert.deepStrictEqual(scanCache(patched), scanCache(scanned), name)
        assert.deepStrictEqual(tables(patched), tables(scanned), name)
        const hashes = snapshotHashes(patched)
        assert.deepStrictEqual(hashes, { recomputed: hashes.file, file: hashes.indexed, indexed: hashes.indexed }, name)
        assert.isTrue((await index(patched)).upToDate, name)
      }
    } finally {
      for (const root of [patched, scanned]) rmSync(root, { recursive: true, force: true })
    }
  }

  const againstScans = (accented: boolean) =>
    twins(
      () => {
        const root = repository()
        modules(root, accented)
        return root
      },
      [
        { name: "a body and its imports", patches: true, edit: (root) => write(root, "src/a.ts", "import { b } from \"./b.ts\"\nimport { c } from \"./c.ts\"\nimport { Effect } from \"effect\"\nexport const a = () => Effect.succeed(b + c())\n") },
        { name: "two modules at once", patches: true, edit: (root) => {
          write(root, "src/b.ts", "// the base value\nexport const b = 2\n")
          write(root, "src/c.ts", "export function c() {\n  return 3 // always\n}\n")
        } },
        { name: "a file rewritten as it was", patches: true, edit: (root) => {
          const file = join(root, "src/c.ts")
          writeFileSync(file, readFileSync(file))
          utimesSync(file, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000))
        } },
        { name: "an import of a module the tree lacks", patches: true, edit: (root) => write(root, "src/b.ts", "import { gone } from \"./gone.ts\"\nexport const b = 2\n") },
        { name: "a module edit beside a new file no analyzer reads", patches: true, edit: (root) => {
          write(root, "assets/logo.png", "not really a png")
          write(root, "src/c.ts", "export function c() {\n  return 4\n}\n")
        } },
        { name: "a call through a barrel", patches: true, edit: (root) =>
          write(root, "src/use.ts", "import { c } from \"./barrel.ts\"\nexport const use = () =>\n  c() + c()\n") },
        // The caller does not move, but its call now lands elsewhere: only a scan follows it again.
        { name: "a barrel re-exporting the name from another module", patches: false, edit: (root) =>
          write(root, "src/barrel.ts", "export { b as c } from \"./b.ts\"\nexport { b as base } from \"./b.ts\"\n") },
        { name: "another declared name", patches: false, edit: (root) => write(root, "src/b.ts", "export const b = 2\nexport const b2 = 3\n") },
        { name: "an external package dropped", patches: false, edit: (root) => write(root, "src/a.ts", "import { b } from \"./b.ts\"\nexport const a = () => b\n") },
        { name: "a document", patches: true, edit: (root) => write(root, "docs/guide.md", "# Guide\n\nThe answer is `a`.\n") },
        { name: "a document naming a symbol, a document and a wikilink", patches: true, edit: (root) =>
          write(root, "docs/guide.md", "# Guide\n\nSee `c` in [rollback](./rollback.md), and [[retention]].\n") },
        { name: "a document and a module at once", patches: true, edit: (root) => {
          write(root, "docs/rollback.md", "# Rolling back\n\nRun `deployctl rollback` and read the [guide](./guide.md).\n")
          write(root, "src/c.ts", "export function c() {\n  return 5\n}\n")
        } },
        { name: "a manifest", patches: false, edit: (root) => write(root, "package.json", "{\"name\": \"fixture\", \"version\": \"1.0.1\"}\n") },
        { name: "a new module", patches: false, edit: (root) => write(root, "src/d.ts", "export const d = 4\n") }
      ],
      (root) => assert.strictEqual(/[^\x00-\x7f]/.test(readFileSync(join(root, ".cairn", "snapshot.json"), "utf8")), accented)
    )

  it("writes the snapshot, scan cache and index a full scan would, and scans whenever a patch cannot say", () => againstScans(false), 120_000)

  it("does the same when the snapshot file holds characters outside ASCII", () => againstScans(true), 120_000)

  it("does the same for a tree of documents alone", () =>
    twins(
      () => {
        const root = mkdtempSync(join(tmpdir(), "cairn-documents-"))
        write(root, "handbook/onboarding.md", "# Onboarding\n\nRead the [release runbook](../runbooks/release.md) first.\n")
        write(root, "runbooks/release.md", "# Release\n\nTag, build, then announce in the channel.\n")
        write(root, "decisions/0001-queues.md", "---\nstatus: accepted\n---\n# Queues\n\nWe keep one queue per tenant.\n")
        return root
      },
      [
        { name: "a document's text", patches: true, edit: (root) => write(root, "runbooks/release.md", "# Release\n\nTag, build, sign, then announce.\n") },
        { name: "a document's links", patches: true, edit: (root) =>
          write(root, "handbook/onboarding.md", "# Onboarding\n\nRead [[0001-queues]] and the [runbook](../runbooks/releases.md).\n") },
        { name: "a new document", patches: false, edit: (root) => write(root, "handbook/faq.md", "# FAQ\n\nAsk in the channel.\n") }
      ]
    ), 120_000)

  it("scans when the index lacks a note the snapshot has, and the scan puts it back", async () => {
    const root = repository()
    try {
      await index(root)
      const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"))
      db.exec("DELETE FROM notes WHERE id = 'docs/retention.md'")
      db.close()
      write(root, "src/x.ts", "export const x = \"moved\"\n")
      const report = await index(root)
      assert.deepStrictEqual([report.snapshotPatched, report.notesIndexed], [false, 2])
      assert.include(tables(root).notes.map((note) => (note as { id: string }).id), "docs/retention.md")
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it("leaves a moved file listed without a stamp to the full scan, which does not remember it", async () => {
    const root = repository()
    try {
      await index(root)
      write(root, "src/x.ts", "export const x = \"moved\"\n")
      const patched = await Effect.runPromise(Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const config = { exclude: [".cairn/"] }
        const remembered = yield* ScanCacheFile.read(fs, join(root, ".cairn", "scan-cache.json"))
        const { listing } = yield* unchangedSince({ root, config, cache: remembered.cache })
        const stored = Option.getOrThrow(yield* (yield* SnapshotStoreFile.make(join(root, ".cairn", "snapshot.json"))).readStored(remembered.memo!))
        // Each patch on a fresh copy of the remembered cache, which a patch brings up to date.
        const cacheOf = () => ScanCacheFile.read(fs, join(root, ".cairn", "scan-cache.json")).pipe(Effect.map((file) => file.cache))
        const listed = (stampless: boolean) => ({ ...listing, files: listing.files.map((file) => file.path === "src/x.ts" && stampless ? { ...file, stamp: "" } : file) })
        return {
          stamped: (yield* patch({ root, stored, config, cache: yield* cacheOf(), listing: listed(false) })) !== undefined,
          stampless: (yield* patch({ root, stored, config, cache: yield* cacheOf(), listing: listed(true) })) !== undefined
        }
      }).pipe(Effect.provide(NodeServices.layer)))
      assert.deepStrictEqual(patched, { stamped: true, stampless: false })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
