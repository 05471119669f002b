/**
 * bench:recall — recall latency over the reference layers on generated corpora of 10,000 and
 * 100,000 chunks: p50/p95 per stage and in total, for BM25-only and hybrid (latent semantic dense
 * leg) conditions, with MiniSearch searching the same chunks in the same run for comparison, and
 * every leg on (the symbol leg too) over the same corpus with every fifth note a module whose chunks
 * declare names made of its words (`kaloMineParser`), so the symbol leg has declarations to rank.
 * Prints figures; asserts nothing. `BENCH_SIZES=10000` limits the sizes, `BENCH_QUERIES` the queries.
 */
import { performance } from "node:perf_hooks"
import MiniSearch from "minisearch"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Chunk } from "../src/domain/Chunk.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import * as Recall from "../layers/Recall.ts"
import { recall, recallTrace, type RecallServices } from "../pipelines/recall.ts"
import { chunk } from "../test/support/Fixtures.ts"

const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100)
const CHUNKS_PER_NOTE = 5
const WORDS_PER_CHUNK = 60

/** A small deterministic generator (mulberry32), so every run benchmarks the same corpus. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "gra", "ben", "tor", "lin", "qua", "zer"]
/** A vocabulary of 6,000 pronounceable words; Zipf-distributed draws make a few very common. */
const vocabulary = (() => {
  const next = random(7)
  const words = new Set<string>()
  while (words.size < 6_000) {
    const length = 2 + Math.floor(next() * 3)
    let word = ""
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)]
    words.add(word)
  }
  return [...words]
})()
const zipf = (next: () => number) => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(next() * Math.log(vocabulary.length + 1)) - 1))]!

const pascal = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`
const KINDS = ["function", "class", "interface", "const"] as const

/** A module chunk declaring one name of two or three of its words, as the analyzer lists it. */
const codeChunk = (noteId: string, c: number, next: () => number, words: string): Chunk => {
  const parts = Array.from({ length: 2 + Math.floor(next() * 2) }, () => zipf(next))
  const kind = KINDS[Math.floor(next() * KINDS.length)]!
  const name = kind === "class" || kind === "interface" ? parts.map(pascal).join("") : `${parts[0]}${parts.slice(1).map(pascal).join("")}`
  const body = kind === "const" ? `export const ${name} = () => {\n  // ${words}\n}` : `export ${kind} ${name} {\n  // ${words}\n}`
  return {
    ...chunk({ id: `${noteId}#s${c}`, noteId, title: noteId, noteType: "code", lineStart: 1 + c * 12, text: `${noteId} > ${name}\n${body}` }),
    symbols: [name]
  }
}

const generate = (size: number, withCode = false): { chunks: Array<Chunk>; edges: Array<NoteEdge> } => {
  const next = random(size)
  const notes = Math.ceil(size / CHUNKS_PER_NOTE)
  const chunks: Array<Chunk> = []
  const edges: Array<NoteEdge> = []
  for (let n = 0; n < notes; n++) {
    const code = withCode && n % 5 === 4
    const noteId = code ? `src/area-${n % 50}/module-${n}.ts` : `docs/area-${n % 50}/note-${n}.md`
    const title = `${zipf(next)} ${zipf(next)}`
    for (let c = 0; c < CHUNKS_PER_NOTE && chunks.length < size; c++) {
      const words = Array.from({ length: WORDS_PER_CHUNK }, () => zipf(next)).join(" ")
      chunks.push(code ? codeChunk(noteId, c, next, words) : chunk({ id: `${noteId}#s${c}`, noteId, title, lineStart: 1 + c * 12, text: `${title} > part ${c}\n${words}.` }))
    }
    for (let e = 0; e < 3; e++) edges.push({ from: noteId, to: `docs/area-${(n + e) % 50}/note-${Math.floor(next() * notes)}.md`, verb: e === 0 ? "depends_on" : "relates_to" })
  }
  return { chunks, edges }
}

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
const fmt = (values: ReadonlyArray<number>) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 95).toFixed(2)}`

const queriesFor = (seed: number): Array<string> => {
  const next = random(seed)
  return Array.from({ length: QUERIES }, () => Array.from({ length: 3 + Math.floor(next() * 4) }, () => zipf(next)).join(" "))
}

const measure = async (name: string, layer: Layer.Layer<RecallServices, unknown>, queries: ReadonlyArray<string>) => {
  const buildStart = performance.now()
  const runtime = ManagedRuntime.make(layer)
  await runtime.runPromise(Effect.void)
  const buildMs = performance.now() - buildStart
  const totals: Array<number> = []
  const stages = new Map<string, Array<number>>()
  await runtime.runPromise(recall({ text: queries[0]! })) // warm-up
  for (const text of queries) {
    const start = performance.now()
    // Timed as callers see it (no explain); the per-stage split, the packer included, comes from the trace.
    const { timingsMs } = await runtime.runPromise(recallTrace({ text }, { measure: true }))
    totals.push(performance.now() - start)
    for (const [stage, ms] of Object.entries(timingsMs)) {
      let list = stages.get(stage)
      if (list === undefined) stages.set(stage, (list = []))
      list.push(ms)
    }
  }
  await runtime.dispose()
  console.log(`| ${name} | build ${(buildMs / 1000).toFixed(1)} s | total ${fmt(totals)} | ${[...stages].map(([stage, ms]) => `${stage} ${fmt(ms)}`).join(", ")} |`)
}

/** Hostile questions through the whole pipeline: each must come back fast with a pack. */
const HOSTILE: ReadonlyArray<[string, string]> = [
  ["50,000 unbroken letters", "a".repeat(50_000)],
  ["4,000 CJK characters, no spaces", "検索".repeat(2_000)],
  ["16 KB of words", "deploy rollback budget ".repeat(700).slice(0, 16_384)],
  ["2,000-word question", Array.from({ length: 2_000 }, (_, i) => vocabulary[i % 500]).join(" ")],
  ["50,000 letters alternating case", "aB".repeat(25_000)]
]

const hostile = async (layer: Layer.Layer<RecallServices, unknown>) => {
  const runtime = ManagedRuntime.make(layer)
  const cells: Array<string> = []
  for (const [name, text] of HOSTILE) {
    const times: Array<number> = []
    for (let i = 0; i < 5; i++) {
      const start = performance.now()
      await runtime.runPromise(recall({ text }))
      times.push(performance.now() - start)
    }
    cells.push(`${name} ${percentile(times, 50).toFixed(1)} ms`)
  }
  await runtime.dispose()
  console.log(`| hostile questions, median of 5 (no dense) | | ${cells.join(", ")} | |`)
}

const miniSearch = (chunks: ReadonlyArray<Chunk>, queries: ReadonlyArray<string>) => {
  const buildStart = performance.now()
  const index = new MiniSearch({ fields: ["text", "title"], storeFields: [] })
  index.addAll(chunks.map((c) => ({ id: c.id, text: c.text, title: c.title })))
  const buildMs = performance.now() - buildStart
  index.search(queries[0]!)
  const times = queries.map((q) => {
    const start = performance.now()
    index.search(q).slice(0, 50)
    return performance.now() - start
  })
  console.log(`| MiniSearch 7.2 (search only, same chunks) | build ${(buildMs / 1000).toFixed(1)} s | total ${fmt(times)} | |`)
}

console.log(`bench:recall — ${QUERIES} queries of 3-6 Zipf-drawn words, p50 / p95 in ms, Node ${process.version}`)
for (const size of SIZES) {
  const { chunks, edges } = generate(size)
  const queries = queriesFor(size + 1)
  console.log("")
  console.log(`### ${size.toLocaleString("en")} chunks, ${edges.length.toLocaleString("en")} edges`)
  console.log("")
  console.log("| condition | build | recall p50 / p95 | per stage p50 / p95 |")
  console.log("| --- | --- | --- | --- |")
  await measure("cairn reference, BM25 + title/path + graph (no dense)", Recall.reference({ chunks, edges }, { dense: "none" }), queries)
  await hostile(Recall.reference({ chunks, edges }, { dense: "none" }))
  await measure("cairn reference, hybrid with latent semantic dense leg", Recall.reference({ chunks, edges }), queries)
  miniSearch(chunks, queries)
  // The same generator with every fifth note a module: the symbol leg then has declarations to rank.
  const mixed = generate(size, true)
  await measure("cairn reference, hybrid, the same corpus with a fifth of the notes modules", Recall.reference(mixed), queries)
  await measure("cairn reference, every leg on (symbol leg, limit 50), a fifth of the notes modules", Recall.reference(mixed, { config: { symbolLimit: 50 } }), queries)
}
