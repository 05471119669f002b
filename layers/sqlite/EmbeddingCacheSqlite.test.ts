import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as EmbeddingCacheSqlite from "./EmbeddingCacheSqlite.ts"

const withRoot = <A, E>(use: (root: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "cairn-embedding-cache-"))),
    use,
    (root) => Effect.sync(() => rmSync(root, { recursive: true, force: true }))
  )

const space = { modelId: "openai:m", version: "http/1 openai m 3", dimension: 3 }

describe("EmbeddingCacheSqlite", () => {
  it.effect("a vector put is got back, after the file is closed and opened again", () =>
    withRoot((root) =>
      Effect.gen(function*() {
        const path = EmbeddingCacheSqlite.defaultPath(root)
        yield* Effect.scoped(Effect.gen(function*() {
          const cache = yield* EmbeddingCacheSqlite.make(path)
          yield* cache.put(space, [["a", [0.6, 0.8, 0]], ["b", Float32Array.from([0, 0, 1])]])
        }))
        const found = yield* Effect.scoped(Effect.flatMap(EmbeddingCacheSqlite.make(path), (cache) => cache.get(space, ["a", "b", "c"])))
        assert.deepStrictEqual([...found.keys()].sort(), ["a", "b"])
        assert.deepStrictEqual([...found.get("a")!], [Math.fround(0.6), Math.fround(0.8), 0])
        assert.deepStrictEqual([...found.get("b")!], [0, 0, 1])
      })), 10_000)

  it.effect("vectors of one space are never served to another model, version or dimension", () =>
    withRoot((root) =>
      Effect.scoped(Effect.gen(function*() {
        const cache = yield* EmbeddingCacheSqlite.make(EmbeddingCacheSqlite.defaultPath(root))
        yield* cache.put(space, [["a", [1, 0, 0]]])
        for (const other of [{ ...space, modelId: "openai:n" }, { ...space, version: "v2" }, { ...space, dimension: 4 }]) {
          assert.strictEqual((yield* cache.get(other, ["a"])).size, 0)
        }
        // A hash already cached keeps its first vector: the same text embeds alike in one space.
        yield* cache.put(space, [["a", [0, 1, 0]]])
        assert.deepStrictEqual([...(yield* cache.get(space, ["a"])).get("a")!], [1, 0, 0])
      }))), 10_000)

  it.effect("more hashes than one statement binds are looked up whole", () =>
    withRoot((root) =>
      Effect.scoped(Effect.gen(function*() {
        const cache = yield* EmbeddingCacheSqlite.make(EmbeddingCacheSqlite.defaultPath(root))
        const hashes = Array.from({ length: 1_234 }, (_, i) => `h${i}`)
        yield* cache.put(space, hashes.map((hash) => [hash, [1, 0, 0]] as const))
        assert.strictEqual((yield* cache.get(space, hashes)).size, 1_234)
      }))), 10_000)

  it.effect("a cache that cannot be made fails with a typed error naming the path", () =>
    withRoot((root) =>
      Effect.gen(function*() {
        // Its folder would have to be made under a file.
        writeFileSync(join(root, "file"), "")
        const path = join(root, "file", "embeddings.sqlite")
        const error = yield* Effect.flip(Effect.scoped(EmbeddingCacheSqlite.make(path)))
        assert.strictEqual(error._tag, "EmbeddingCacheError")
        assert.include(error.message, path)
      })), 10_000)
})
