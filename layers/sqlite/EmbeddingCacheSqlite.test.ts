import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { contract } from "../contracts/EmbeddingCache.contract.ts"
import * as EmbeddingCacheSqlite from "./EmbeddingCacheSqlite.ts"

// The port's behaviour, each test on a file of its own under one folder removed at the end.
const scratch = mkdtempSync(join(tmpdir(), "cairn-embedding-cache-contract-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let files = 0
contract("sqlite", () => EmbeddingCacheSqlite.layer(join(scratch, `${files++}`, "embeddings.sqlite")))

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
