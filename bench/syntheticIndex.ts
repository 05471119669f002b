/**
 * The synthetic index the serving benches share: chunks of Zipf-drawn words from a 6,000-word
 * pronounceable vocabulary (a few words very common, most rare), written straight through the
 * index writer with no vectors. Seeded, so every run benchmarks the same index.
 */
import { NodeServices } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import type { Chunk, ChunkId } from "../src/domain/Chunk.ts"
import * as Database from "../layers/sqlite/Database.ts"
import * as IndexStoreSqlite from "../layers/sqlite/IndexStoreSqlite.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "gra", "ben", "tor", "lin", "qua", "zer"]

/** The words the chunks are drawn from, most common first. */
export const vocabulary: ReadonlyArray<string> = (() => {
  let s = 11
  const next = (n: number) => (s = (s * 16807) % 2147483647) % n
  const words = new Set<string>()
  while (words.size < 6_000) words.add(Array.from({ length: 2 + next(3) }, () => SYLLABLES[next(SYLLABLES.length)]).join(""))
  return [...words]
})()

/** `count` chunks, five to a note, 60 words each. */
export const syntheticChunks = (count: number): Array<Chunk> => {
  let seed = 7
  const uniform = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const zipf = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(uniform() * Math.log(vocabulary.length + 1)) - 1))]!
  const chunks: Array<Chunk> = []
  for (let i = 0; i < count; i++) {
    const note = `docs/area-${i % 50}/note-${Math.floor(i / 5)}.md`
    const text = `Note ${Math.floor(i / 5)} > part ${i % 5}\n${Array.from({ length: 60 }, zipf).join(" ")}.`
    chunks.push({
      id: `${note}#b${i % 5}` as ChunkId, noteId: note, path: note, title: `Note ${Math.floor(i / 5)}`, headingPath: [`part ${i % 5}`], text, tags: [],
      noteType: "note", lineStart: 1 + (i % 5) * 10, lineEnd: 9 + (i % 5) * 10, blockId: `b${i % 5}`, contentSha: `${i}`.padStart(64, "0"),
      provenance: { authorKind: "human", author: null, createdAt: null, state: "unverified" }, status: "current", updated: null, isLinkList: false, symbols: []
    })
  }
  return chunks
}

/** Writes `chunks` as the whole index of `root` (its `.cairn/index.sqlite`), notes linked in a chain. */
export const writeSyntheticIndex = (root: string, chunks: ReadonlyArray<Chunk>): Promise<void> => {
  const notes = [...new Set(chunks.map((c) => c.noteId))]
  return Effect.runPromise(Effect.gen(function*() {
    const writer = yield* IndexStore
    yield* writer.write({
      replaceAll: true,
      chunks,
      notes: notes.map((id) => ({ id, contentHash: id })),
      relations: { from: notes, edges: notes.slice(1).map((id, i) => ({ from: id, to: notes[i]!, verb: "links-to" })) },
      manifest: { snapshotHash: "synthetic", builtAt: new Date().toISOString() }
    })
  }).pipe(
    Effect.provide(IndexStoreSqlite.layer.pipe(Layer.provideMerge(Database.layer({ path: Database.defaultPath(root) })))),
    Effect.provide(NodeServices.layer)
  ))
}
