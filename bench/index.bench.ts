/**
 * bench:index — the embedded index on four repositories: this repository (a fresh clone), the
 * generated 10,000-module repository of bench:discover and one twice its size (20,000 modules and
 * 3,000 documents), and a synthetic index of 100,000 chunks written straight through the writer.
 * Every measurement runs in a process of its own, so each peak memory is that step's alone: the cold index (median of 3, and the highest peak); a refresh
 * after one edit from a one-shot process (as `cairn ask` refreshes; median of 5) and from a
 * long-lived one (`openCairn`, which keeps the last snapshot in memory; median of 5); a refresh
 * with nothing changed; warm `ask` p50/p95 over 100 questions (process start excluded) and,
 * separately, one CLI process start.
 *
 *   npm run bench:index                       all four
 *   npm run bench:index -- --scenario self    one of self | generated | generated-20k | large
 */
import { NodeServices } from "@effect/platform-node"
import { execFileSync, spawnSync } from "node:child_process"
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Embedded from "../layers/Embedded.ts"
import * as IndexMemory from "../pipelines/indexMemory.ts"
import { indexLayer, indexRepository, saveIndexMemory } from "../pipelines/indexRepository.ts"
import { recall } from "../pipelines/recall.ts"
import { syntheticChunks, writeSyntheticIndex } from "./syntheticIndex.ts"

const repository = join(import.meta.dirname, "..")
const node = process.execPath
const QUESTIONS = [
  "how is the token budget enforced", "where are import cycles detected", "how does graph expansion weigh relations",
  "what happens when a leg times out", "how are near duplicates collapsed", "which file resolves tsconfig paths",
  "how is freshness computed", "what is the default budget", "how are conflicts detected", "how does the packer truncate a claim",
  "release rollback runbook", "cache token retry queue", "schema migration version lease", "incident owner decision deploy"
]
const question = (i: number) => `${QUESTIONS[i % QUESTIONS.length]}${i >= QUESTIONS.length ? ` ${i}` : ""}`

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const sizeOf = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)
const mib = (bytes: number) => (bytes / 1048576).toFixed(1)

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))

const indexOnce = (root: string, memory?: IndexMemory.IndexMemory) =>
  run(indexRepository({ root, now: Date.now(), ...(memory === undefined ? {} : { memory }) }).pipe(Effect.provide(indexLayer(root))))

const peakMiB = () => Number(mib(process.resourceUsage().maxRSS * 1024))
const median = (values: ReadonlyArray<number>) => percentile(values, 50)

/** Runs this file with `args` in a child process and returns the JSON object it prints last. */
const child = (args: ReadonlyArray<string>): Record<string, number> => {
  const done = spawnSync(node, [import.meta.filename, ...args], { encoding: "utf8", maxBuffer: 1 << 26 })
  if (done.status !== 0) throw new Error(`${args.join(" ")} failed:\n${done.stderr.slice(-2000)}`)
  return JSON.parse(done.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, number>
}

/** Warm `ask` latency: one runtime, 100 questions after a warm-up, the refresh excluded. */
const askLatency = async (root: string) => {
  const runtime = ManagedRuntime.make(Embedded.embedded({ root, readOnly: true }) as Layer.Layer<Embedded.EmbeddedServices, unknown>)
  await runtime.runPromise(recall({ text: "warm up" }))
  const times: Array<number> = []
  for (let i = 0; i < 100; i++) {
    const started = performance.now()
    await runtime.runPromise(recall({ text: question(i) }))
    times.push(performance.now() - started)
  }
  await runtime.dispose()
  return { p50: percentile(times, 50), p95: percentile(times, 95) }
}

/** One CLI process answering from a built index: what process start costs on top. */
const processStart = (root: string) => {
  const times: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    spawnSync(node, [join(repository, "bin/cairn.js"), "ask", "how is the token budget enforced", "--root", root, "--no-refresh", "--json"], { encoding: "utf8" })
    times.push(performance.now() - started)
  }
  return percentile(times, 50)
}

/** Runs that take the median of a figure: the machines are noisy, and one run can land far from the rest. */
const COLD_RUNS = 3
const ONE_SHOT_RUNS = 5

const range = (values: ReadonlyArray<number>, digits: number) =>
  `${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)}`

/**
 * Each step in a process of its own; `edit` is the file the refreshes append to. The cold index and
 * the one-shot refresh are run several times, each from where the last left the index, and report
 * their median, their range and the highest peak.
 */
const repositoryScenario = (name: string, root: string, edit: string) => {
  const colds = Array.from({ length: COLD_RUNS }, () => {
    rmSync(join(root, ".cairn"), { recursive: true, force: true })
    return child(["--cold", root])
  })
  const cold = colds.at(-1)!
  const oneShots = Array.from({ length: ONE_SHOT_RUNS }, () => child(["--refresh", root, edit]))
  const oneShot = oneShots.find((run) => run["refreshMs"] === median(oneShots.map((r) => r["refreshMs"]!)))!
  const session = child(["--session", root, edit])
  const ask = child(["--serve", root])
  return {
    name,
    files: cold["files"]!,
    chunks: cold["chunks"]!,
    coldSeconds: median(colds.map((run) => run["seconds"]!)),
    coldSecondsRange: range(colds.map((run) => run["seconds"]!), 2),
    coldPeakMiB: Math.max(...colds.map((run) => run["peakMiB"]!)),
    refreshOneShotMs: oneShot["refreshMs"]!,
    refreshOneShotRange: range(oneShots.map((run) => run["refreshMs"]!), 0),
    refreshIndexed: Math.max(...oneShots.map((run) => run["indexed"]!)),
    refreshPatched: Math.min(...oneShots.map((run) => run["patched"]!)),
    refreshNoChangeMs: median(oneShots.map((run) => run["noChangeMs"]!)),
    refreshPeakMiB: Math.max(...oneShots.map((run) => run["peakMiB"]!)),
    refreshLongLivedMs: session["refreshMs"]!,
    sizeMiB: Number(mib(sizeOf(join(root, ".cairn")))),
    askP50: ask["askP50"]!,
    askP95: ask["askP95"]!,
    servingPeakMiB: ask["servingPeakMiB"]!,
    processStartMs: processStart(root)
  }
}

/** 100,000 chunks written straight through the writer (no vectors), to measure serving at scale. */
const largeScenario = async () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-large-"))
  const chunks = syntheticChunks(100_000)
  const build = performance.now()
  await writeSyntheticIndex(root, chunks)
  const buildSeconds = (performance.now() - build) / 1000
  const buildPeakMiB = Number(mib(process.resourceUsage().maxRSS * 1024))
  // Serving is measured in a process of its own, so the build's memory is not counted against it.
  const serve = child(["--serve", root])
  const result = {
    name: "synthetic 100,000 chunks, Zipf-drawn words (no vectors)",
    chunks: 100_000,
    buildSeconds,
    buildPeakMiB,
    sizeMiB: Number(mib(sizeOf(join(root, ".cairn")))),
    ...serve
  }
  rmSync(root, { recursive: true, force: true })
  return result
}

const scenario = process.argv.includes("--scenario") ? process.argv[process.argv.indexOf("--scenario") + 1] : undefined

const flag = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const EDIT = "\n// an edit the refresh must pick up\n"

if (flag("--cold") !== undefined) {
  const root = flag("--cold")!
  const started = performance.now()
  const report = await indexOnce(root)
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, files: report.notes, chunks: report.summary.chunkCount, peakMiB: peakMiB() }))
} else if (flag("--refresh") !== undefined) {
  // A one-shot process, as `cairn ask` refreshes: it reads the snapshot and scan cache from disk.
  const root = flag("--refresh")!
  appendFileSync(join(root, process.argv.at(-1)!), EDIT)
  const started = performance.now()
  const report = await indexOnce(root)
  const refreshMs = performance.now() - started
  const again = performance.now()
  const unchanged = await indexOnce(root)
  if (!unchanged.upToDate) throw new Error("a refresh right after a refresh found changes")
  console.log(JSON.stringify({
    refreshMs,
    indexed: report.notesIndexed,
    patched: report.snapshotPatched ? 1 : 0,
    noChangeMs: performance.now() - again,
    peakMiB: peakMiB()
  }))
} else if (flag("--session") !== undefined) {
  // A long-lived process (`openCairn`): its first refresh loads the snapshot; later ones are timed.
  const root = flag("--session")!
  const memory = IndexMemory.make()
  await indexOnce(root, memory)
  const times: Array<number> = []
  for (let i = 0; i < 5; i++) {
    appendFileSync(join(root, process.argv.at(-1)!), EDIT)
    const started = performance.now()
    const report = await indexOnce(root, memory)
    times.push(performance.now() - started)
    if (report.notesIndexed !== 1) throw new Error(`an edit re-indexed ${report.notesIndexed} files`)
  }
  await run(saveIndexMemory(root, memory))
  console.log(JSON.stringify({ refreshMs: median(times), peakMiB: peakMiB() }))
} else if (flag("--serve") !== undefined) {
  const ask = await askLatency(flag("--serve")!)
  console.log(JSON.stringify({ askP50: ask.p50, askP95: ask.p95, servingPeakMiB: peakMiB() }))
} else if (scenario === "self") {
  const root = mkdtempSync(join(tmpdir(), "cairn-self-"))
  execFileSync("git", ["clone", "-q", repository, root])
  console.log(JSON.stringify(repositoryScenario("this repository (fresh clone)", root, "README.md")))
  rmSync(root, { recursive: true, force: true })
} else if (scenario === "generated") {
  const root = mkdtempSync(join(tmpdir(), "cairn-generated-"))
  execFileSync(node, [join(repository, "bench/discover.bench.ts"), "--generate", root], { stdio: "ignore" })
  const edit = ["packages/pkg-0/src/index.ts"].find((p) => existsSync(join(root, p)))!
  console.log(JSON.stringify(repositoryScenario("generated 10,000 modules + 2,000 documents", root, edit)))
  rmSync(root, { recursive: true, force: true })
} else if (scenario === "generated-20k") {
  // The size the memory target names: memory must not grow with the repository.
  const root = mkdtempSync(join(tmpdir(), "cairn-generated-20k-"))
  execFileSync(node, [join(repository, "bench/discover.bench.ts"), "--generate", root, "--packages", "40", "--documents", "3000"], { stdio: "ignore" })
  console.log(JSON.stringify(repositoryScenario("generated 20,000 modules + 3,000 documents", root, "packages/pkg-0/src/index.ts")))
  rmSync(root, { recursive: true, force: true })
} else if (scenario === "large") {
  console.log(JSON.stringify(await largeScenario()))
} else {
  console.log(`bench:index — Node ${process.version}; every step in its own process`)
  for (const name of ["self", "generated", "generated-20k", "large"]) {
    const child = spawnSync(node, [join(repository, "bench/index.bench.ts"), "--scenario", name], { encoding: "utf8", maxBuffer: 1 << 26 })
    const line = child.stdout.trim().split("\n").at(-1) ?? ""
    if (child.status !== 0) {
      console.log(`${name}: failed\n${child.stderr.slice(-2000)}`)
      continue
    }
    const r = JSON.parse(line) as Record<string, number | string>
    console.log(`\n${r["name"]}`)
    for (const [key, value] of Object.entries(r)) if (key !== "name") console.log(`  ${key}: ${typeof value === "number" ? Number(value.toFixed(2)) : value}`)
  }
}
