/**
 * bench:mcp — `cairn mcp` over stdio, driven by the official MCP client, on this repository (a
 * fresh clone) and on the generated 10,000-module repository of bench:discover. Per tool, p50 and
 * p95 of warm calls (the server started and its first refresh done); beside them, the one-shot CLI
 * answering the same question from the same index (`--no-refresh`, process start included); then
 * how long an edit takes to reach the next answer, measured from the write.
 *
 *   npm run bench:mcp                         both repositories
 *   npm run bench:mcp -- --scenario self      one of self | generated
 *
 * Targets: search and ask p95 <= 100 ms warm on the generated repository; an edit visible within
 * 1 s on this repository.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { execFileSync, spawnSync } from "node:child_process"
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"

const repository = join(import.meta.dirname, "..")
const cli = join(repository, "bin", "cairn.js")
const node = process.execPath
const CALLS = 40

const QUESTIONS = [
  "how is the token budget enforced?",
  "where are import cycles detected",
  "what happens when a leg times out",
  "how are near duplicates collapsed",
  "which file resolves tsconfig paths",
  "how is freshness computed",
  "how does the packer truncate a claim",
  "how are conflicts detected"
]

const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

const median = (values: ReadonlyArray<number>): number => quantile(values, 0.5)

const text = (result: Awaited<ReturnType<Client["callTool"]>>): string => {
  const content = result.content as Array<{ readonly text: string }>
  if (result.isError === true) throw new Error(`tool error: ${content[0]?.text}`)
  return content[0]?.text ?? ""
}

const oneShot = (root: string, args: ReadonlyArray<string>): number => {
  const times: Array<number> = []
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    const run = spawnSync(node, [cli, ...args, "--root", root, "--json", "--no-refresh"], { encoding: "utf8" })
    if (run.status !== 0) throw new Error(run.stderr)
    times.push(performance.now() - started)
  }
  return median(times)
}

const scenarioRun = async (name: string, root: string, lookupPaths: ReadonlyArray<string>, editFile: string, editDirectory: string) => {
  const indexed = spawnSync(node, [cli, "index", "--root", root], { encoding: "utf8", maxBuffer: 1 << 26 })
  if (indexed.status !== 0) throw new Error(indexed.stderr)
  const started = performance.now()
  const client = new Client({ name: "bench", version: "0" })
  await client.connect(new StdioClientTransport({ command: node, args: [cli, "mcp", "--root", root], stderr: "ignore" }))
  const connectedMs = performance.now() - started
  // Warm: the first refresh has run.
  for (;;) {
    const status = JSON.parse(text(await client.callTool({ name: "status", arguments: {} }))) as { server: { refreshes: number } }
    if (status.server.refreshes > 0) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const warmMs = performance.now() - started
  const timedCalls = async (tool: string, args: (i: number) => Record<string, unknown>) => {
    const times: Array<number> = []
    // One untimed call first: the JIT's, not the index's, first-call cost.
    text(await client.callTool({ name: tool, arguments: args(CALLS) }))
    for (let i = 0; i < CALLS; i++) {
      const callStarted = performance.now()
      text(await client.callTool({ name: tool, arguments: args(i) }))
      times.push(performance.now() - callStarted)
    }
    return { p50: median(times), p95: quantile(times, 0.95) }
  }
  const tools = {
    search: await timedCalls("search", (i) => ({ query: QUESTIONS[i % QUESTIONS.length] })),
    ask: await timedCalls("ask", (i) => ({ query: QUESTIONS[i % QUESTIONS.length] })),
    lookup: await timedCalls("lookup", (i) => ({ path: lookupPaths[i % lookupPaths.length], depth: 2, budgetTokens: 2_000 })),
    status: await timedCalls("status", () => ({}))
  }
  // How long until the next search finds what was just written, polled for from the write.
  const visibleAfter = async (file: string, word: string, write: () => void) => {
    const written = performance.now()
    write()
    for (;;) {
      const found = JSON.parse(text(await client.callTool({ name: "search", arguments: { query: word } }))) as { results: Array<{ path: string }> }
      if (found.results.some((result) => result.path === file)) return performance.now() - written
      if (performance.now() - written > 120_000) {
        const status = text(await client.callTool({ name: "status", arguments: {} }))
        throw new Error(`an edit of ${file} was not visible within 120 s; status: ${status.slice(0, 2_000)}`)
      }
    }
  }
  // Edits of one existing file. The first refresh that finds a change reads the last snapshot
  // from disk (the up-to-date check at start needs none), so it is reported apart.
  const edits: Array<number> = []
  for (let i = 0; i < 4; i++) {
    // Letters only: a digit would split the word into parts that match half the corpus.
    const word = `zqxbench${["alpha", "bravo", "charlie", "delta"][i]}`
    edits.push(await visibleAfter(editFile, word, () => appendFileSync(join(root, editFile), `\nThe ${word} marker was added.\n`)))
  }
  // A new file changes the tree's shape: discovery looks at more than the one file.
  const added = await visibleAfter(`${editDirectory}/bench-added.md`, "zqxbenchadded", () =>
    writeFileSync(join(root, editDirectory, "bench-added.md"), "# Bench\n\nThe zqxbenchadded note exists to be found.\n"))
  await client.close()
  return {
    name,
    connectedMs,
    warmMs,
    tools,
    oneShot: { ask: oneShot(root, ["ask", QUESTIONS[0]!]), search: oneShot(root, ["search", QUESTIONS[0]!]) },
    firstEditVisibleMs: edits[0]!,
    editVisibleMs: median(edits.slice(1)),
    addedVisibleMs: added
  }
}

const scenario = process.argv.includes("--scenario") ? process.argv[process.argv.indexOf("--scenario") + 1] : undefined

const print = (result: Awaited<ReturnType<typeof scenarioRun>>) => {
  console.log(`\n${result.name}`)
  console.log(`  connected in ${result.connectedMs.toFixed(0)} ms, warm (first refresh done) in ${result.warmMs.toFixed(0)} ms`)
  for (const [tool, figures] of Object.entries(result.tools)) {
    console.log(`  ${tool.padEnd(7)} p50 ${figures.p50.toFixed(1)} ms  p95 ${figures.p95.toFixed(1)} ms  (${CALLS} warm calls)`)
  }
  console.log(`  one-shot CLI (process start included, median of 5): ask ${result.oneShot.ask.toFixed(0)} ms, search ${result.oneShot.search.toFixed(0)} ms`)
  console.log(`  an edit visible to the next search: ${result.editVisibleMs.toFixed(0)} ms after the write (median of 3 edits of one file; ` +
    `the first edit after start ${result.firstEditVisibleMs.toFixed(0)} ms); a new file ${result.addedVisibleMs.toFixed(0)} ms`)
}

console.log(`bench:mcp — Node ${process.version}`)
if (scenario === undefined || scenario === "self") {
  const root = mkdtempSync(join(tmpdir(), "cairn-mcp-self-"))
  execFileSync("git", ["clone", "-q", repository, root])
  print(await scenarioRun("this repository (fresh clone)", root, ["pipelines/recall.ts", "src/retrieval/pack.ts", "docs/recall.md", "src"], "docs/recall.md", "docs"))
  rmSync(root, { recursive: true, force: true })
}
if (scenario === undefined || scenario === "generated") {
  const root = mkdtempSync(join(tmpdir(), "cairn-mcp-generated-"))
  execFileSync(node, [join(repository, "bench/discover.bench.ts"), "--generate", root], { stdio: "ignore" })
  print(await scenarioRun("generated 10,000 modules + 2,000 documents", root, ["packages/pkg-0/src/index.ts", "packages/pkg-1/src/index.ts", "packages/pkg-0"], "packages/pkg-0/README.md", "packages/pkg-0"))
  rmSync(root, { recursive: true, force: true })
}
