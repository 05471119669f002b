/**
 * bench:pack — median time to pack 20 candidates into a 4,000-token budget for ordinary and hostile
 * questions, with each exact counter, plus the counters alone: throughput on this repository's own
 * files (and the shared corpora when present), one megabyte of a single unbroken letter run, and
 * each counter's start in a fresh process. Prints figures; asserts nothing.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { performance } from "node:perf_hooks"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { makePack } from "../src/retrieval/pack.ts"
import { bounded } from "../src/text/TokenCount.ts"
import * as Bpe from "../layers/tokens/TokenCounterBpe.ts"
import * as Js from "../layers/tokens/TokenCounterJs.ts"
import * as Wasm from "../layers/tokens/TokenCounterWasm.ts"
import { candidate, healthy, query } from "../test/support/Fixtures.ts"

const root = join(import.meta.dirname, "..")
const REPEATS = Number(process.env.BENCH_REPEATS ?? 15)

const listFiles = (dir: string, extensions: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      if (name === "node_modules" || name.startsWith(".")) continue
      const full = join(path, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (extensions.some((ext) => name.endsWith(ext))) out.push(full)
    }
  }
  walk(dir)
  return out
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const time = (run: () => unknown): number => {
  const samples: Array<number> = []
  run() // warm-up
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  return median(samples)
}

// Twenty candidates cut from this repository's own sources: real code and prose, about 60 lines each.
const sources = listFiles(root, [".ts", ".md"]).filter((f) => !f.includes("/bench/"))
const candidates = Array.from({ length: 20 }, (_, i) => {
  const file = sources[(i * 7) % sources.length]!
  const lines = readFileSync(file, "utf8").split("\n").slice(0, 60)
  const path = relative(root, file)
  return candidate({ id: `${path}#b${i}`, noteId: path, text: `${path}\n${lines.join("\n")}`, score: 1 / (i + 1) })
})

const WORDS = ["budget", "token", "claim", "graph", "recall", "packer", "conflict", "freshness", "index", "query"]
const cases: ReadonlyArray<[string, string]> = [
  ["ordinary question", "how is the token budget enforced when a claim does not fit?"],
  ["2,000-word question", Array.from({ length: 2_000 }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(" ")],
  ["16,000 unbroken letters", "a".repeat(16_000)],
  ["50,000 unbroken letters", "a".repeat(50_000)],
  ["4,000 CJK characters, no punctuation", "検索".repeat(2_000)]
]

const counters = [
  ["bpe (TypeScript)", Bpe.counter, Bpe.exactCountUnsafe],
  ["wasm (tiktoken)", Wasm.counter, Wasm.exactCountUnsafe],
  ["js (js-tiktoken)", Js.counter, Js.exactCountUnsafe]
] as const

console.log(`bench:pack — median of ${REPEATS} runs, budget 4,000, ${candidates.length} candidates, Node ${process.version}`)
console.log("warm: the counter's piece memo persists across runs (a serving process); cold: a fresh counter every run (a one-shot CLI call)")
console.log("")
console.log("| case | " + counters.map(([name]) => `${name} warm ms | ${name} cold ms`).join(" | ") + " |")
console.log("| --- | " + counters.map(() => "--- | ---").join(" | ") + " |")
for (const [name, text] of cases) {
  const input = { query: query(text, 4_000), candidates, conflicts: [], gaps: [], indexHealth: healthy }
  const row = counters.flatMap(([, counter, exact]) => {
    const warmPack = makePack(counter.count, RetrievalConfig.defaults)
    const warm = time(() => warmPack(input))
    const cold = time(() => makePack(bounded(exact), RetrievalConfig.defaults)(input))
    return [warm.toFixed(1), cold.toFixed(1)]
  })
  console.log(`| ${name} | ${row.join(" | ")} |`)
}

const megabyte = "a".repeat(1_000_000)
const row = counters.flatMap(([, counter, exact]) => [
  time(() => counter.count(megabyte)).toFixed(1),
  time(() => bounded(exact)(megabyte)).toFixed(1)
])
console.log(`| counter alone, 1 MB unbroken letters | ${row.join(" | ")} |`)

// Throughput and agreement on real files: this repository, plus the shared corpora when present.
const corpusRoot = process.env.CAIRN_CORPORA ?? join(root, "..", "shared", "corpora")
const realFiles = [
  ...listFiles(root, [".ts", ".md", ".json"]).filter((f) => !f.endsWith("package-lock.json")),
  ...(() => {
    try {
      return listFiles(corpusRoot, [".md"]).slice(0, 300)
    } catch {
      return []
    }
  })()
]
const texts = realFiles.map((f) => readFileSync(f, "utf8"))
const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0)
const disagreements = (counter: (text: string) => number) => texts.filter((text) => counter(text) !== Wasm.counter.count(text)).length
console.log("")
console.log(`real files: ${texts.length} files, ${(bytes / 1048576).toFixed(2)} MiB; counts differ from wasm on ` +
  `${disagreements(Bpe.counter.count)} (bpe) and ${disagreements(Js.counter.count)} (js)`)
const mibPerSecond = (ms: number) => ((bytes / 1048576) / (ms / 1000)).toFixed(2)
const exactEncoders = [["bpe (TypeScript)", Bpe.exactCountUnsafe], ["wasm (tiktoken)", Wasm.exactCountUnsafe], ["js (js-tiktoken)", Js.exactCountUnsafe]] as const
// Warm: the counter has seen these files (a long-lived process). Cold: a fresh piece memo every run
// (a one-shot CLI call). Whole: the encoder on whole texts, no guard and no memo.
for (const [name, exact] of exactEncoders) {
  const warmCounter = bounded(exact)
  const warm = time(() => { for (const text of texts) warmCounter(text) })
  const cold = time(() => { const fresh = bounded(exact); for (const text of texts) fresh(text) })
  const whole = time(() => { for (const text of texts) exact(text) })
  console.log(`throughput ${name}: warm ${mibPerSecond(warm)} MiB/s, cold ${mibPerSecond(cold)} MiB/s, whole-text encoder ${mibPerSecond(whole)} MiB/s`)
}

// Start: loading a layer and counting one word in a fresh process, the price a one-shot CLI call
// pays before its first count. The process's own start and the modules every layer shares (effect,
// the guard) are excluded.
const startScript = (module: string) =>
  `await import("effect"); await import(${JSON.stringify(join(root, "src", "text", "TokenCount.ts"))}); ` +
  `const t = performance.now(); const m = await import(${JSON.stringify(module)}); m.counter.count("hello world"); ` +
  `console.log(performance.now() - t)`
console.log("")
for (const [name, file] of [["bpe (TypeScript)", "TokenCounterBpe.ts"], ["wasm (tiktoken)", "TokenCounterWasm.ts"], ["js (js-tiktoken)", "TokenCounterJs.ts"]] as const) {
  const module = join(root, "layers", "tokens", file)
  const samples = Array.from({ length: 7 }, () =>
    Number(execFileSync(process.execPath, ["--input-type=module", "-e", startScript(module)], { encoding: "utf8" })))
  console.log(`start ${name}: median ${median(samples).toFixed(1)} ms over ${samples.length} fresh processes`)
}
