/**
 * `npm run test:package`: cairn as a new user meets it. `npm pack` (which builds), then the tarball
 * is installed with its production dependencies only into a scratch project outside the
 * repository, and there:
 *
 *   a. `cairn ask` answers from a small fixture repository, with plain Node (the one running this
 *      script, and Node 22.19, installed from the npm registry: no ExperimentalWarning either way);
 *      an older Node gets one line naming the version needed; it counts tokens from the build's
 *      rank table, without loading js-tiktoken's listing; `cairn mcp` answers requests piped to it
 *      over stdio and ends with its input;
 *   b. a strict NodeNext TypeScript consumer (lib es2022, exactOptionalPropertyTypes,
 *      skipLibCheck false) type-checks against the shipped declarations, compiles, and runs;
 *   c. the same consumer bundled by esbuild (ESM) runs, its worker threads found through the
 *      package's exports;
 *   d. `require("cairn")` from CommonJS works (Node's require of ES modules);
 *   e. `cairn bench` runs the bundled question set and names the baselines that need an optional
 *      package.
 *
 * It prints the tarball's size and file count, and exits 1 at the first check that fails, saying
 * which and why.
 */
import { type SpawnSyncReturns, spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Installed, npm, npmFlags, packAndInstall, repository } from "./installedPackage.ts"

const manifest = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
  version: string
  devDependencies: Record<string, string>
}
const scratch = mkdtempSync(join(tmpdir(), "cairn-package-"))
const keep = process.env.CAIRN_KEEP_SCRATCH === "1"

const fail = (check: string, detail: string): never => {
  process.stderr.write(`package-check: FAILED ${check}\n${detail}\n(scratch project kept at ${scratch})\n`)
  process.exit(1)
}

const run = (
  check: string,
  command: string,
  args: ReadonlyArray<string>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; allowFailure?: boolean; input?: string } = {}
): SpawnSyncReturns<string> => {
  const result = spawnSync(command, args, {
    ...(options.input === undefined ? {} : { input: options.input }),
    cwd: options.cwd ?? scratch,
    env: options.env ?? process.env,
    encoding: "utf8",
    timeout: options.timeoutMs ?? 300_000,
    maxBuffer: 64 * 1024 * 1024
  })
  if (result.error !== undefined) fail(check, `${command} ${args.join(" ")}: ${result.error.message}`)
  if (options.allowFailure !== true && result.status !== 0) {
    fail(check, `${command} ${args.join(" ")} exited ${result.status ?? result.signal}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`)
  }
  return result
}

const ok = (line: string) => process.stdout.write(`package-check: ok  ${line}\n`)

// The tarball (built by prepack), installed into a project of the user's outside the repository.
let installed: Installed
try {
  installed = packAndInstall(scratch)
} catch (error) {
  fail("npm pack, then install the tarball", error instanceof Error ? error.message : String(error))
}
const { app, tarball } = installed!
const shipped = tarball.files.map((file) => file.path)
const strays = shipped.filter((path) => (path.endsWith(".ts") && !path.endsWith(".d.ts")) || /(^|\/)(test|property-tests|bench|\.ci)\//.test(path) || path.includes(".test."))
if (strays.length > 0) fail("tarball contents", `sources, tests or CI files in the tarball:\n${strays.slice(0, 20).join("\n")}`)
for (const required of ["LICENSE", "README.md", "bin/cairn.js", "dist/cli/cairn.js", "dist/cli/cl100k.table", "dist/pipelines/index.js", "dist/pipelines/index.d.ts"]) {
  if (!shipped.includes(required)) fail("tarball contents", `${required} is missing`)
}
ok(`tarball ${tarball.filename}: ${(tarball.size / 1024 / 1024).toFixed(2)} MB packed, ${(tarball.unpackedSize / 1024 / 1024).toFixed(2)} MB unpacked, ${tarball.entryCount} files`)
for (const devOnly of ["vitest", "typescript", "esbuild", "minisearch", "@orama/orama", "tiktoken", "fast-check"]) {
  if (existsSync(join(app, "node_modules", devOnly))) fail("production dependencies only", `${devOnly} was installed with cairn`)
}
for (const peer of ["effect", "@effect/platform-node"]) {
  if (!existsSync(join(app, "node_modules", peer))) fail("peer dependencies", `${peer} was not installed beside cairn`)
}
ok("installed into a scratch project with production dependencies only; effect and @effect/platform-node as peers")

// A small repository to ask: the docs fixture, and enough notes that the worker pools start.
const fixture = join(scratch, "fixture")
cpSync(join(repository, "test", "fixtures", "docs"), fixture, { recursive: true })
mkdirSync(join(fixture, "notes", "runbooks"), { recursive: true })
for (let i = 0; i < 240; i++) {
  writeFileSync(
    join(fixture, "notes", "runbooks", `runbook-${String(i).padStart(3, "0")}.md`),
    `# Runbook ${i}: restarting shard ${i}\n\nShard ${i} is restarted with \`shardctl restart ${i}\` after draining its queue.\n`
  )
}
const cairnBin = installed!.bin
const question = "how are candidates ranked?"

/** Runs the installed bin with `node` and checks the pack it prints. */
const askWith = (node: string, label: string) => {
  const asked = run(`cairn ask (${label})`, node, [cairnBin, "ask", question, "--root", fixture, "--json"], { cwd: app })
  const pack = JSON.parse(asked.stdout) as { claims: Array<{ ref: string }>; used_tokens: number; budget_tokens: number }
  if (pack.claims.length === 0) fail(`cairn ask (${label})`, `no claims:\n${asked.stdout}`)
  if (!(pack.used_tokens <= pack.budget_tokens)) fail(`cairn ask (${label})`, `used ${pack.used_tokens} of ${pack.budget_tokens}`)
  if (/ExperimentalWarning|Warning:/.test(asked.stderr)) fail(`cairn ask (${label})`, `warnings on stderr:\n${asked.stderr}`)
  const help = run(`cairn --help (${label})`, node, [cairnBin, "--help"], { cwd: app })
  if (!help.stdout.includes("ask") || help.stderr.trim() !== "") fail(`cairn --help (${label})`, help.stdout + help.stderr)
  return pack
}

/** A Node binary of `version` from the npm registry (the `node` package ships them). */
const nodeOf = (version: string): string => {
  const home = join(scratch, `node-${version}`)
  mkdirSync(home)
  writeFileSync(join(home, "package.json"), "{}")
  run(`install Node ${version}`, npm, ["install", `node@${version}`, ...npmFlags], { cwd: home, timeoutMs: 600_000 })
  return join(home, "node_modules", ".bin", "node")
}

const first = askWith(process.execPath, `Node ${process.versions.node}`)
ok(`a. cairn ask on Node ${process.versions.node}: ${first.claims.length} claims, first ${first.claims[0]!.ref}, ${first.used_tokens}/${first.budget_tokens} tokens`)
// The build's rank table stands in for js-tiktoken's listing, a 1 MB module every call would load.
const loadedRecord = join(scratch, "loaded-modules.txt")
run("cairn ask reads the prebuilt rank table", process.execPath, ["--import", join(repository, "test", "embedded", "loadedModules.mjs"), cairnBin, "ask", question, "--root", fixture, "--no-refresh", "--json"], {
  cwd: app,
  env: { ...process.env, CAIRN_LOADED_MODULES: loadedRecord }
})
const listings = readFileSync(loadedRecord, "utf8").split("\n").filter((url) => url.includes("js-tiktoken"))
if (listings.length > 0) fail("cairn ask reads the prebuilt rank table", `it loaded ${listings.join(", ")}`)
ok("a. cairn ask counts tokens from the prebuilt rank table (dist/cli/cl100k.table), not js-tiktoken's listing")
const node22 = nodeOf("22.19.0")
const second = askWith(node22, "Node 22.19.0")
ok(`a. cairn ask on Node 22.19.0: ${second.claims.length} claims, no warning on stderr`)
// The MCP server from the bundle: requests piped in, answered, and the process ends with its input.
const mcpRequests = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "package-check", version: "0" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask", arguments: { query: question, budgetTokens: 500 } } }
].map((message) => JSON.stringify(message)).join("\n") + "\n"
const served = run("cairn mcp (stdio)", process.execPath, [cairnBin, "mcp", "--root", fixture], { cwd: app, input: mcpRequests, timeoutMs: 120_000 })
const replies = served.stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: number; result: { tools?: Array<{ name: string }>; content?: Array<{ text: string }>; isError?: boolean } })
const listed = replies.find((reply) => reply.id === 2)?.result.tools?.map((tool) => tool.name).sort().join(",")
const answered = replies.find((reply) => reply.id === 3)?.result
if (listed !== "ask,lookup,search,status" || answered?.content?.[0] === undefined || answered.isError === true) {
  fail("cairn mcp (stdio)", served.stdout + served.stderr)
}
const servedText = answered!.content![0]!.text
const servedPack = JSON.parse(servedText) as { claims: Array<unknown>; used_tokens: number; budget_tokens: number }
if (servedPack.claims.length === 0 || servedPack.used_tokens > servedPack.budget_tokens) fail("cairn mcp (stdio)", servedText)
ok(`a. cairn mcp over stdio: tools ${listed}; ask answered with ${servedPack.claims.length} claims, ${servedPack.used_tokens}/${servedPack.budget_tokens} tokens; exited with its input`)
// The tree-sitter grammars resolve from the installed package's dependencies, through the bundle.
const polyglot = join(scratch, "polyglot")
cpSync(join(repository, "test", "fixtures", "polyglot"), polyglot, { recursive: true })
const pythonAsked = run("cairn ask (a Python function)", process.execPath, [cairnBin, "ask", "what does reconcile_invoice_totals do?", "--root", polyglot, "--json"], { cwd: app })
const pythonPack = JSON.parse(pythonAsked.stdout) as { claims: Array<{ ref: string; text: string }> }
if (!pythonPack.claims.some((claim) => claim.ref.startsWith("py/billing/invoice.py") && claim.text.includes("def reconcile_invoice_totals"))) {
  fail("cairn ask (a Python function)", `no claim holds the function:\n${pythonAsked.stdout.slice(0, 2000)}\n${pythonAsked.stderr.slice(-2000)}`)
}
ok(`a. cairn ask over the polyglot fixture: the Python function's declaration among ${pythonPack.claims.length} claims`)
// The PostgreSQL client is an optional peer, not installed here: a server store says so, and stops.
const noClient = run("a postgres store without @effect/sql-pg", process.execPath, [cairnBin, "status", "--root", fixture, "--store", "postgres://cairn:hunter2-secret@127.0.0.1:1/cairn"], { cwd: app, allowFailure: true })
if (noClient.status === 0 || !noClient.stderr.includes("install @effect/sql-pg") || (noClient.stdout + noClient.stderr).includes("hunter2-secret")) {
  fail("a postgres store without @effect/sql-pg", `expected a failure naming the package, without the password:\n${noClient.stdout}\n${noClient.stderr}`)
}
ok(`a. --store postgres:// without the optional client: ${noClient.stderr.trim().split("\n")[0]}`)
const old = nodeOf("20.19.0")
const refused = run("an older Node", old, [cairnBin, "--help"], { cwd: app, allowFailure: true })
if (refused.status !== 1 || refused.stderr.trim().split("\n").length !== 1 || !refused.stderr.includes("22.19")) {
  fail("an older Node", `expected one line naming 22.19 and exit 1, got exit ${refused.status}:\n${refused.stderr}`)
}
ok(`a. Node 20.19.0 is told, in one line: ${refused.stderr.trim()}`)

// b. A strict NodeNext consumer in TypeScript.
const consumer = join(app, "src")
mkdirSync(consumer)
writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
  compilerOptions: {
    target: "es2022",
    lib: ["es2022"],
    types: ["node"],
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: "out",
    rootDir: "src"
  },
  include: ["src"]
}, null, 2))
writeFileSync(join(consumer, "main.ts"), `import { ContextPack, embedded, InvalidInput, openCairn, recall } from "cairn"
import { Run } from "cairn/eval"
import { Embedded } from "cairn/layers"
import { LexicalIndex } from "cairn/ports"
import { Effect } from "effect"

const root = process.argv[2] ?? "."
const cairn = await openCairn({ root })
const pack: ContextPack.ContextPack = await cairn.recall(${JSON.stringify(question)}, { budgetTokens: 1_500 })
const wire = JSON.parse(ContextPack.serialise(pack)) as { used_tokens: number }
const rejected = await cairn.recall("x", { budgetTokens: -1 }).then(() => "accepted", (error: unknown) => error instanceof InvalidInput ? error._tag : String(error))
await cairn.close()

const viaEffect = await Effect.runPromise(
  recall({ text: ${JSON.stringify(question)}, budgetTokens: 1_000 }).pipe(Effect.provide(embedded({ root, readOnly: true })))
)
console.log(JSON.stringify({
  claims: pack.claims.length,
  used: wire.used_tokens,
  rejected,
  effectClaims: viaEffect.claims.length,
  sameLayers: Embedded.embedded === embedded,
  port: typeof LexicalIndex.LexicalIndex,
  bench: typeof Run.runBench
}))
`)
// The user's own tooling, not cairn's: the TypeScript the repository pins, and Node's types.
run("install the consumer's tooling", npm, ["install", "--no-save", `@types/node@${manifest.devDependencies["@types/node"]}`, ...npmFlags], { cwd: app, timeoutMs: 600_000 })
const tsc = join(repository, "node_modules", "typescript", "bin", "tsc")
run("b. the strict consumer type-checks and compiles", process.execPath, [tsc, "-p", join(app, "tsconfig.json")], { cwd: app })
const compiled = run("b. the compiled consumer runs", process.execPath, [join(app, "out", "main.js"), fixture], { cwd: app })
const report = JSON.parse(compiled.stdout.trim().split("\n").pop()!) as { claims: number; used: number; rejected: string; effectClaims: number; sameLayers: boolean }
if (report.claims === 0 || report.effectClaims === 0 || report.rejected !== "InvalidInput" || !report.sameLayers) fail("b. the compiled consumer runs", compiled.stdout)
if (compiled.stderr.includes("Warning")) fail("b. the compiled consumer runs", compiled.stderr)
ok(`b. strict NodeNext consumer (lib es2022, skipLibCheck false) compiled with no errors and ran: ${compiled.stdout.trim()}`)
const onNode22 = run("b. the compiled consumer runs on Node 22.19", node22, [join(app, "out", "main.js"), fixture], { cwd: app })
if (onNode22.stderr.trim() !== "") fail("b. the compiled consumer runs on Node 22.19, silently", onNode22.stderr)
ok("b. the compiled consumer runs on Node 22.19 too, with nothing on stderr (no ExperimentalWarning)")

// c. The same consumer bundled.
const esbuild = await import(join(repository, "node_modules", "esbuild", "lib", "main.js")) as typeof import("esbuild")
await esbuild.build({
  entryPoints: [join(consumer, "main.ts")],
  outfile: join(app, "bundle", "main.mjs"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22.19",
  // As docs/api.md says: the native packages, and cairn/eval's optional baselines, stay external;
  // the optional PostgreSQL client needs no mark (cairn names it where the bundler cannot follow).
  external: ["oxc-parser", "sqlite-vec", "minisearch", "@orama/orama"],
  banner: { js: "import { createRequire } from \"node:module\"; const require = createRequire(import.meta.url);" },
  logLevel: "error"
})
rmSync(join(fixture, ".cairn"), { recursive: true, force: true })
const bundled = run("c. the bundled consumer runs", process.execPath, [join(app, "bundle", "main.mjs"), fixture], { cwd: app })
const bundledReport = JSON.parse(bundled.stdout.trim().split("\n").pop()!) as { claims: number }
if (bundledReport.claims === 0) fail("c. the bundled consumer runs", bundled.stdout)
if (bundled.stderr.includes("CAIRN_WORKER_UNAVAILABLE") || bundled.stderr.includes("worker")) fail("c. the bundled consumer's workers", bundled.stderr)
ok(`c. esbuild ESM bundle of the consumer indexed the fixture cold (workers from cairn/workers/*) and ran: ${bundled.stdout.trim()}`)

// d. CommonJS.
writeFileSync(join(app, "require.cjs"), `const cairn = require("cairn")\nconsole.log(typeof cairn.openCairn, typeof cairn.ContextPack.serialise)\n`)
for (const [node, label] of [[process.execPath, `Node ${process.versions.node}`], [node22, "Node 22.19.0"]] as const) {
  const required = run(`d. require("cairn") on ${label}`, node, [join(app, "require.cjs")], { cwd: app })
  if (required.stdout.trim() !== "function function") fail(`d. require("cairn") on ${label}`, required.stdout + required.stderr)
  if (required.stderr.trim() !== "") fail(`d. require("cairn") on ${label}`, `stderr:\n${required.stderr}`)
}
ok("d. require(\"cairn\") from CommonJS works on both (Node's require of ES modules)")

// e. The bench from the installed package.
const benched = run("e. cairn bench", process.execPath, [cairnBin, "bench", "--set", "team-kb", "--output", join(scratch, "bench-results")], { cwd: app, timeoutMs: 600_000 })
const benchText = benched.stdout + benched.stderr
if (!/team-kb/.test(benchText)) fail("e. cairn bench", benchText)
if (!/minisearch/.test(benchText)) fail("e. cairn bench names the optional baseline packages", benchText)
ok(`e. cairn bench --set team-kb ran from the installed package: ${benchText.split("\n").filter((line) => /team-kb|minisearch|orama/i.test(line)).slice(0, 3).join(" | ")}`)

if (!keep) rmSync(scratch, { recursive: true, force: true })
process.stdout.write("package-check: every check passed\n")
