/**
 * Behaviour every SymbolIndex backend must show, run against each backend by its own test file. A
 * backend is given as a function from chunks to a layer indexing exactly those chunks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Layer } from "effect"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { SymbolIndex } from "../../src/ports/SymbolIndex.ts"
import { analysedStopwords, STOPWORDS } from "../../src/text/Stopwords.ts"
import { makeChunk } from "./ChunkFixtures.ts"

export type MakeSymbolLayer<E> = (chunks: ReadonlyArray<Chunk>) => Layer.Layer<SymbolIndex, E>

const code = (id: string, symbols: Array<string>, body: string, extra: Partial<Chunk> = {}): Chunk =>
  makeChunk({ id, text: `${id.split("#")[0]} > ${symbols.join(", ")}\n${body}`, noteType: "code", symbols, lineEnd: body.split("\n").length, ...extra })

const CHUNKS: ReadonlyArray<Chunk> = [
  code("src/backup.ts#a", ["scheduleNightlyBackup"], "export function scheduleNightlyBackup(hour: number) {}"),
  code("src/old.ts#a", ["scheduleNightlyBackup"], "export function scheduleNightlyBackup() {}", { status: "superseded" }),
  code("lib/backup.js#a", ["NightlyBackup"], "class NightlyBackup {\n  rotateBackups(n) {}\n}"),
  // Prose never declares: its symbols, were any recorded, are not names of code.
  makeChunk({ id: "docs/backup.md#a", text: "Backups\nThe nightly backup.", noteType: "reference", symbols: ["scheduleNightlyBackup"] })
]

const stopwords = analysedStopwords(STOPWORDS)

export const contract = <E>(name: string, makeLayer: MakeSymbolLayer<E>) => {
  describe(`SymbolIndex contract: ${name}`, () => {
    it.effect("ranks declarations of code by name, honours the filter and the limit, and skips superseded chunks", () =>
      Effect.gen(function*() {
        const index = yield* SymbolIndex
        const found = yield* index.search("where is scheduleNightlyBackup", 10, {}, stopwords)
        assert.deepStrictEqual(found.map((m) => [m.path, m.name, m.match]), [
          ["src/backup.ts", "scheduleNightlyBackup", "exact"],
          ["lib/backup.js", "NightlyBackup", "parts"]
        ])
        const methods = yield* index.search("rotate backups", 10, {}, stopwords)
        assert.deepStrictEqual(methods.map((m) => [m.name, m.kind, m.line]), [["rotateBackups", "method", 2]])
        const scoped = yield* index.search("nightly backup", 10, { paths: ["lib"] }, stopwords)
        assert.deepStrictEqual(scoped.map((m) => m.path), ["lib/backup.js"])
        assert.lengthOf(yield* index.search("nightly backup", 1, {}, stopwords), 1)
        const withOld = yield* index.search("scheduleNightlyBackup", 10, { includeSuperseded: true }, stopwords)
        assert.include(withOld.map((m) => m.path), "src/old.ts")
      }).pipe(Effect.provide(makeLayer(CHUNKS))), 30_000)

    it.effect("an index without code finds nothing", () =>
      Effect.gen(function*() {
        const index = yield* SymbolIndex
        assert.deepStrictEqual(yield* index.search("scheduleNightlyBackup", 10, {}, stopwords), [])
      }).pipe(Effect.provide(makeLayer(CHUNKS.slice(3)))), 30_000)
  })
}
