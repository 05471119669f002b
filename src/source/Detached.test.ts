import { assert, describe, it } from "@effect/vitest"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { detached } from "./Detached.ts"
import { parseModule } from "../discovery/OxcModule.ts"

setFlagsFromString("--expose-gc")
const utf8 = new TextDecoder()
const collect = runInNewContext("gc") as () => void

/**
 * Heap growth, in MB, from keeping what `keep` returns of 400 distinct 100 KB sources (small enough
 * to live on the heap: Node keeps a decoded string of a MB or more outside it).
 */
const retainedMb = (keep: (source: string, i: number) => unknown): number => {
  collect()
  const before = process.memoryUsage().heapUsed
  const kept = Array.from({ length: 400 }, (_, i) => {
    // Distinct sources, each decoded from bytes as a file read from disk is.
    const source = `${`/* ${i} ${"x".repeat(100_000)} */\n`}export const longExportedName${i} = 1\nimport { a } from "./a-rather-long-specifier-${i}.js"\n`
    return keep(utf8.decode(Buffer.from(source)), i)
  })
  collect()
  const grown = (process.memoryUsage().heapUsed - before) / 1_048_576
  assert.strictEqual(kept.length, 400)
  return grown
}

describe("detached", () => {
  it("keeps the characters and not the string they were cut from", () => {
    const whole = "a".repeat(1000) + "identifier_longer_than_thirteen"
    assert.strictEqual(detached(whole.slice(1000)), "identifier_longer_than_thirteen")
    assert.strictEqual(detached("short"), "short")
    assert.strictEqual(detached(""), "")
    // Without it, 400 names cut from 100 KB sources keep all 40 MB; with it, next to nothing.
    assert.isAbove(retainedMb((source) => source.slice(source.indexOf("longExportedName"))), 30)
    assert.isBelow(retainedMb((source) => detached(source.slice(source.indexOf("longExportedName")))), 5)
  }, 30_000) // allocates and collects some 40 MB of sources

  it("a parsed module's names and specifiers do not keep its source alive", () => {
    const grown = retainedMb((source, i) => {
      const parsed = parseModule(`m${i}.ts`, source)
      assert.strictEqual(parsed.exports[0]?.name, `longExportedName${i}`)
      assert.strictEqual(parsed.imports[0]?.specifier, `./a-rather-long-specifier-${i}.js`)
      return parsed
    })
    assert.isBelow(grown, 5)
  }, 30_000) // parses 400 modules of 100 KB
})
