import { NodeServices } from "@effect/platform-node"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { redactor } from "../src/discovery/SecretScan.ts"
import { ChunkerPool, type ChunkerPoolShape, inProcess } from "../src/ports/ChunkerPool.ts"
import { grammarAnalyzer } from "../src/discovery/GrammarAnalyzer.ts"
import type { ChunkFileInput } from "../src/index/chunk/ChunkFile.ts"
import * as Grammars from "../src/languages/Grammars.ts"
import { languageOfPath } from "../src/languages/Languages.ts"
import * as UnitStash from "../src/languages/UnitStash.ts"
import { contentHash } from "../src/source/Hashing.ts"
import { counter } from "../layers/tokens/TokenCounterDefault.ts"
import { noteChunks } from "./noteChunks.ts"

describe("noteChunks", () => {
  it.effect("a part at a time, in chunk id order: each part's notes with all their chunks, a binary file without any, an unreadable one left out", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-parts-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const texts: Record<string, string> = {
        "b.md": "# B\n\nThe sweeper runs nightly.\n",
        "a.md": "# A\n\nThe cache keeps entries a day.\n\n## More\n\nAnd then some.\n",
        "a-b.md": "# A-B\n\nHyphens sort before the separator.\n",
        "c.ts": "/** Doubles. */\nexport const double = (n: number) => n * 2\n"
      }
      for (const [path, text] of Object.entries(texts)) writeFileSync(join(root, path), text)
      writeFileSync(join(root, "d.md"), Uint8Array.from([0, 1, 2, 3, 0, 0, 7]))
      const notes = ["b.md", "gone.md", "a.md", "d.md", "c.ts", "a-b.md"]
      const seen: Array<number> = []
      const parts = yield* Stream.runCollect(noteChunks({
        root,
        notes,
        hashes: new Map(notes.map((note) => [note, `hash:${note}`])),
        redact: redactor([]),
        counter,
        chunking: {},
        onChunked: (done) => seen.push(done),
        notesPerPart: 2
      }))
      assert.strictEqual(parts.length, 3)
      const ids = parts.flatMap((part) => part.chunks.map((chunk) => chunk.id))
      assert.deepStrictEqual(ids, [...ids].sort())
      assert.deepStrictEqual(parts.flatMap((part) => part.unread), ["gone.md"])
      assert.deepStrictEqual(parts.flatMap((part) => part.notes.map((note) => `${note.id}=${note.contentHash}`)).sort(), ["a-b.md=hash:a-b.md", "a.md=hash:a.md", "b.md=hash:b.md", "c.ts=hash:c.ts", "d.md=hash:d.md"])
      for (const part of parts) {
        const recorded = new Set(part.notes.map((note) => note.id))
        assert.isTrue(part.chunks.every((chunk) => recorded.has(chunk.noteId)))
      }
      assert.isFalse(ids.some((id) => id.startsWith("d.md#")))
      const alone = yield* inProcess.chunkAll(Object.entries(texts).map(([path, text]) => ({ path, text })), counter)
      assert.deepStrictEqual([...ids].sort(), alone.flat().map((chunk) => chunk.id).sort())
      assert.strictEqual(seen.at(-1), notes.length)
    }).pipe(Effect.provide([NodeServices.layer, NodeCrypto.layerDigest])), 30_000)

  it.effect("a file's units from the scan go with it to the chunker while its bytes are the ones parsed; a file changed since is parsed again", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-parts-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const python = languageOfPath("x.py")!
      yield* Effect.promise(() => Grammars.ready([python.grammar]))
      const scanned = { "a.py": "def kept():\n    return 1\n", "b.py": "def moved():\n    return 2\n" }
      const stash = UnitStash.make()
      for (const [path, text] of Object.entries(scanned)) {
        writeFileSync(join(root, path), text)
        stash.put(path, yield* contentHash(new TextEncoder().encode(text), false), grammarAnalyzer(python).analyze(path, text).units!)
      }
      writeFileSync(join(root, "b.py"), "def moved_since():\n    return 3\n")
      const requests: Array<ChunkFileInput> = []
      const recording: ChunkerPoolShape = {
        chunkAll: (batch, count, onProgress, chunking) => {
          requests.push(...batch)
          return inProcess.chunkAll(batch, count, onProgress, chunking)
        },
        session: Effect.sync(() => recording)
      }
      const parts = yield* Stream.runCollect(noteChunks({
        root,
        notes: ["a.py", "b.py"],
        hashes: new Map([["a.py", "a"], ["b.py", "b"]]),
        redact: redactor([]),
        counter,
        chunking: {},
        units: stash,
        onChunked: () => {}
      })).pipe(Effect.provideService(ChunkerPool, recording))
      assert.deepStrictEqual(requests.map((request) => [request.path, request.units !== undefined]), [["a.py", true], ["b.py", false]])
      assert.deepStrictEqual(parts.flatMap((part) => part.chunks.map((chunk) => chunk.text.split("\n")[0])), ["a.py > kept", "b.py > moved_since"])
      assert.isFalse(stash.holds("a.py") || stash.holds("b.py"))
    }).pipe(Effect.provide([NodeServices.layer, NodeCrypto.layerDigest])), 30_000)
})
