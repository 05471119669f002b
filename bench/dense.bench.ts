/**
 * bench:dense — heading-dense Markdown (issue 20, finding 7): 100,000 one-line headings (889 KB)
 * and 50,000 short sections (1.8 MB), beside 10,000 paragraphs of prose (830 KB) for what a file of
 * that size costs anyway. Each measurement runs in a process of its own with a 1 MB semi-space, so
 * the peak is that step's: discovery's analyzer alone, the chunker alone, and a whole index of a
 * repository holding the file, against the same index without it. Peak heap is the largest heap in
 * use before any garbage collection (v8.GCProfiler); RSS is the process's peak. Each figure is the
 * median of three processes, since when V8 collects moves a single peak by megabytes. An index is
 * measured against an index of the same repository without the file, in a process that builds and
 * writes the same text outside the repository: the text's making is the bench's cost, not the
 * index's. The 1.8 MB file is over discovery's bound of 1 MiB a file, so its index step measures
 * the skip.
 *
 *   npm run bench:dense
 */
import { NodeServices } from "@effect/platform-node"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import v8 from "node:v8"
import { Effect } from "effect"
import { MarkdownAnalyzer } from "../src/discovery/MarkdownAnalyzer.ts"
import { defaults } from "../src/index/chunk/ChunkOptions.ts"
import { chunkMarkdown } from "../src/index/chunk/MarkdownChunker.ts"
import { indexLayer, indexRepository } from "../pipelines/indexRepository.ts"

const headingLines = (count: number) => Array.from({ length: count }, (_, i) => `# h${i}`).join("\n") + "\n"

const INPUTS: Record<string, () => string> = {
  none: () => "",
  prose: () =>
    Array.from({ length: 10_000 }, (_, i) => `Paragraph ${i} of ordinary prose, which speaks of indexing ${i % 97} files and ${i % 13} chunks.`).join("\n\n") + "\n",
  headings: () => headingLines(100_000),
  "headings-25k": () => headingLines(25_000),
  "headings-50k": () => headingLines(50_000),
  sections: () => Array.from({ length: 50_000 }, (_, i) => `## Section ${i}\n\nShort body ${i}.\n`).join("\n")
}

/** Peak heap in use while `work` runs, above the heap before it, and its time. */
const measure = async (work: () => Promise<unknown> | unknown) => {
  const profiler = new v8.GCProfiler()
  const before = v8.getHeapStatistics().used_heap_size
  profiler.start()
  const started = performance.now()
  await work()
  const millis = performance.now() - started
  let peak = v8.getHeapStatistics().used_heap_size
  for (const gc of profiler.stop().statistics) peak = Math.max(peak, gc.beforeGC.heapStatistics.usedHeapSize)
  return { heap: peak - before, millis, rss: process.resourceUsage().maxRSS * 1024 }
}

const child = async (input: string, step: string) => {
  const text = INPUTS[input]!()
  const dir = mkdtempSync(join(tmpdir(), "cairn-dense-"))
  const root = join(dir, "repository")
  try {
    mkdirSync(join(root, "docs"), { recursive: true })
    writeFileSync(join(root, "README.md"), "# Readme\n\nA repository with one dense file.\n")
    if (text !== "") writeFileSync(step === "baseline" ? join(dir, "dense.md") : join(root, "docs", "dense.md"), text)
    const run = step === "analyze"
      ? () => MarkdownAnalyzer.analyze("docs/dense.md", text)
      : step === "chunk"
      ? () => chunkMarkdown("docs/dense.md", text, {}, { ...defaults, count: (s: string) => Buffer.byteLength(s) })
      : () => Effect.runPromise(indexRepository({ root, now: 0 }).pipe(Effect.provide(indexLayer(root)), Effect.provide(NodeServices.layer)))
    process.stdout.write(`${JSON.stringify({ bytes: Buffer.byteLength(text), ...(await measure(run)) })}\n`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Figures {
  readonly bytes: number
  readonly heap: number
  readonly millis: number
  readonly rss: number
}

const spawnOnce = (input: string, step: string): Figures => {
  const done = spawnSync(process.execPath, ["--max-semi-space-size=1", import.meta.filename, "--child", input, step], { encoding: "utf8" })
  if (done.status !== 0) throw new Error(`${input} ${step} failed:\n${done.stderr.slice(-2000)}`)
  return JSON.parse(done.stdout.trim().split("\n").at(-1)!) as Figures
}

const RUNS = 3
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/** Each figure the median of its own over RUNS processes. */
const spawnStep = (input: string, step: string): Figures => {
  const runs = Array.from({ length: RUNS }, () => spawnOnce(input, step))
  return {
    bytes: runs[0]!.bytes,
    heap: median(runs.map((run) => run.heap)),
    millis: median(runs.map((run) => run.millis)),
    rss: median(runs.map((run) => run.rss))
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1)

if (process.argv[2] === "--child") await child(process.argv[3]!, process.argv[4]!)
else {
  const none = spawnStep("none", "index")
  console.log(`index without the file: ${none.millis.toFixed(0)} ms, peak heap ${mb(none.heap)} MB, peak RSS ${mb(none.rss)} MB (medians of ${RUNS})`)
  for (const input of ["prose", "headings", "sections"]) {
    const baseline = spawnStep(input, "baseline")
    console.log(`${input} (${mb(baseline.bytes)} MB) made, index without it: peak heap ${mb(baseline.heap)} MB, peak RSS ${mb(baseline.rss)} MB`)
    for (const step of ["analyze", "chunk", "index"]) {
      const got = spawnStep(input, step)
      const heap = step === "index" ? got.heap - baseline.heap : got.heap
      const rss = step === "index" ? `, peak RSS +${mb(got.rss - baseline.rss)} MB (${((got.rss - baseline.rss) / got.bytes).toFixed(1)}x)` : ""
      console.log(`${input} (${mb(got.bytes)} MB) ${step.padEnd(7)} ${String(got.millis.toFixed(0)).padStart(6)} ms, peak heap ${step === "index" ? "+" : ""}${mb(heap)} MB = ${(heap / got.bytes).toFixed(1)}x its bytes${rss}`)
    }
  }
  // What each further byte of headings costs: the slope between a quarter of the file and all of
  // it, so costs that do not grow with the file (code V8 compiles, SQLite's caches) drop out.
  const growth = ["headings-25k", "headings"].map((input) => {
    const baseline = spawnStep(input, "baseline")
    const got = spawnStep(input, "index")
    return { bytes: got.bytes, heap: got.heap - baseline.heap, rss: got.rss - baseline.rss }
  })
  const [small, large] = [growth[0]!, growth[1]!]
  const bytes = large.bytes - small.bytes
  console.log(`headings, index, per further byte (25,000 to 100,000 headings): heap ${((large.heap - small.heap) / bytes).toFixed(1)}x, RSS ${((large.rss - small.rss) / bytes).toFixed(1)}x (intercepts: heap ${mb(small.heap - (small.bytes * (large.heap - small.heap)) / bytes)} MB, RSS ${mb(small.rss - (small.bytes * (large.rss - small.rss)) / bytes)} MB)`)
}
