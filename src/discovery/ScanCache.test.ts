import { assert, describe, it } from "@effect/vitest"
import * as ScanCache from "./ScanCache.ts"

/** What `stampOf` and `entryCount` say of every path `hashEntries` could name, and of one it cannot. */
const lookups = (cache: ScanCache.ScanCache, paths: ReadonlyArray<string>) => ({
  stamps: Object.fromEntries(paths.map((path) => [path, cache.stampOf(path) ?? null])),
  count: cache.entryCount()
})

const fromEntries = (cache: ScanCache.ScanCache, paths: ReadonlyArray<string>) => {
  const entries = new Map(cache.hashEntries().map(([path, stamp]) => [path, stamp] as const))
  return { stamps: Object.fromEntries(paths.map((path) => [path, entries.get(path) ?? null])), count: entries.size }
}

describe("ScanCache", () => {
  it("stampOf and entryCount answer as hashEntries does, before a scan and after one that saw some files", () => {
    const paths = ["a.ts", "b.md", "c.ts", "never.ts"]
    const cache = ScanCache.make([["a.ts", "1:1", "ha"], ["b.md", "2:2", "hb"], ["c.ts", "3:3", "hc"]])
    assert.deepStrictEqual(lookups(cache, paths), fromEntries(cache, paths))
    assert.deepStrictEqual(lookups(cache, paths), { stamps: { "a.ts": "1:1", "b.md": "2:2", "c.ts": "3:3", "never.ts": null }, count: 3 })

    // A scan that looked at a.ts (on trust) and c.ts (read anew): b.md is no longer the cache's to vouch for.
    cache.startScan()
    assert.strictEqual(cache.hashOf("a.ts", "1:1"), "ha")
    cache.rememberHash("c.ts", "3:4", "hc2")
    assert.deepStrictEqual(lookups(cache, paths), fromEntries(cache, paths))
    assert.deepStrictEqual(lookups(cache, paths), { stamps: { "a.ts": "1:1", "b.md": null, "c.ts": "3:4", "never.ts": null }, count: 2 })
    assert.deepStrictEqual(lookups(cache.fork(), paths), lookups(cache, paths))
  })
})
