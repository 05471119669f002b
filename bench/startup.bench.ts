/**
 * bench:startup — what one `cairn` call costs before it answers, as a user who installed the
 * package runs it. cairn is packed and installed into a scratch project (production dependencies
 * only), this repository is indexed once, and then each command runs as a process of its own, 10
 * times, with plain Node: `cairn --help`, and `cairn ask --no-refresh` on the warm index. Beside
 * each, the same command from this checkout's TypeScript sources (how every call ran before the
 * package had a build), and the figure the issue quoted for that: 1.2 to 1.8 s.
 *
 *   npm run bench:startup               10 runs of each
 *   npm run bench:startup -- --runs 20
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { packAndInstall, repository } from "../scripts/installedPackage.ts"

const runsFlag = process.argv.indexOf("--runs")
const RUNS = runsFlag < 0 ? 10 : Number(process.argv[runsFlag + 1])
const node = process.execPath
const QUESTION = "how is the token budget enforced?"
const TARGETS = { help: 300, ask: 500 }
const BEFORE = "1.2-1.8 s"

const scratch = mkdtempSync(join(tmpdir(), "cairn-startup-"))

/** Milliseconds of each of `RUNS` processes, after one unmeasured run (Node's compile cache fills on it). */
const time = (args: ReadonlyArray<string>): ReadonlyArray<number> => {
  const once = () => {
    const started = performance.now()
    const done = spawnSync(node, args, { cwd: scratch, encoding: "utf8", maxBuffer: 1 << 26 })
    const elapsed = performance.now() - started
    if (done.status !== 0) throw new Error(`${args.join(" ")} exited ${done.status}:\n${done.stderr.slice(-2000)}`)
    return elapsed
  }
  once()
  return Array.from({ length: RUNS }, once)
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const line = (label: string, values: ReadonlyArray<number>, target?: number) => {
  const m = median(values)
  const verdict = target === undefined ? "" : m <= target ? `  target <= ${target} ms: met` : `  target <= ${target} ms: MISSED`
  return `${label.padEnd(44)} median ${m.toFixed(0).padStart(5)} ms  (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})${verdict}`
}

try {
  process.stdout.write(`bench:startup: packing and installing cairn into ${scratch} …\n`)
  const installed = packAndInstall(scratch)
  // The warm index both forms answer from: the installed command builds it, as a user's would.
  const indexed = spawnSync(node, [installed.bin, "index", "--root", repository], { encoding: "utf8", maxBuffer: 1 << 26 })
  if (indexed.status !== 0) throw new Error(`cairn index failed:\n${indexed.stderr.slice(-2000)}`)
  const sources = join(repository, "bin", "cairn.js")
  const ask = ["ask", "--no-refresh", QUESTION, "--root", repository, "--json"]

  const rows = [
    line("cairn --help (installed)", time([installed.bin, "--help"]), TARGETS.help),
    line("cairn --help (checkout sources)", time([sources, "--help"])),
    line("cairn ask --no-refresh (installed)", time([installed.bin, ...ask]), TARGETS.ask),
    line("cairn ask --no-refresh (checkout sources)", time([sources, ...ask])),
    line("node -e 0 (the floor: Node's own start)", time(["-e", "0"]))
  ]
  process.stdout.write([
    `bench:startup: ${RUNS} process runs each, Node ${process.versions.node}, this repository's warm index; before the build: ${BEFORE} a call`,
    ...rows
  ].join("\n") + "\n")
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
