import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { termTable } from "./TermTable.ts"

describe("TermTable", () => {
  it("idOf - the same term gets its first id, a new one the next; termOf gives each back exactly", () => {
    const table = termTable()
    const words = ["", "a", "ab", "ba", "日本語", "😀", "\u0000", "x".repeat(10_000), "h1", "h10", "h100"]
    // Enough terms to grow every buffer and rehash the slots several times.
    for (let i = 0; i < 20_000; i++) words.push(`t${i}`)
    words.forEach((word, i) => assert.strictEqual(table.idOf(word), i, word.slice(0, 20)))
    words.forEach((word, i) => assert.strictEqual(table.idOf(word), i, word.slice(0, 20)))
    assert.strictEqual(table.size(), words.length)
    words.forEach((word, i) => assert.strictEqual(table.termOf(i), word))
  })

  it("idOf - terms whose hashes share a slot stay apart", () => {
    // With 20,000 terms in at most 65,536 slots, many probe sequences overlap; a table that
    // compared hashes alone, or stopped at the first occupied slot, would merge some of them.
    const table = termTable()
    const ids = new Map<string, number>()
    for (let i = 0; i < 20_000; i++) ids.set(String(i * 7919), table.idOf(String(i * 7919)))
    assert.strictEqual(new Set(ids.values()).size, 20_000)
    for (const [term, id] of ids) assert.strictEqual(table.termOf(id), term)
  })

  it("release - the table's memory is freed at once, the buffers it outgrew already were", () => {
    // Counted before any collection could find unreachable buffers: a copy the table outgrew and
    // left for the collector would still be allocated after release.
    const before = process.memoryUsage().arrayBuffers
    const table = termTable()
    for (let i = 0; i < 200_000; i++) table.idOf(`h${i}`)
    const filled = process.memoryUsage().arrayBuffers - before
    table.release()
    const left = process.memoryUsage().arrayBuffers - before
    // 200,000 terms need at least their characters and two numbers each.
    assert.isAtLeast(filled, 200_000 * (5 * 2 + 8))
    assert.isAtMost(left, 0)
  })

  it("LSA training on 200,000 distinct terms that each occur once fits a 36 MB heap", () => {
    // Held as a Map of strings, the terms of a file of 100,000 unique headings cost training
    // about 21 MB; this run failed at a 40 MB limit then, and needs about 24 MB with the table.
    const script = [
      `import { train } from ${JSON.stringify(join(import.meta.dirname, "LatentSemanticEmbedder.ts"))}`,
      "const texts = Array.from({ length: 2500 }, (_, d) => Array.from({ length: 80 }, (_, i) => 'h' + (d * 80 + i)).join(' '))",
      "process.stdout.write(JSON.stringify(train(texts).vocabulary))"
    ].join("\n")
    // 36 MB: the table needs about 24 MB live, and on a loaded machine the collector runs late enough
    // to peak near 32; the Map of strings did not fit in 40.
    const run = spawnSync(process.execPath, ["--max-old-space-size=36", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 })
    assert.strictEqual(run.status, 0, run.stderr.slice(0, 500))
    // Every id and number occurs in one document, below the minimum document frequency of two;
    // the letter split off each id is in all of them.
    assert.deepStrictEqual(JSON.parse(run.stdout), ["h"])
  }, 90_000)
})
