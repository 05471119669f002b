/**
 * bench:faults — `cairn index` killed with SIGKILL at random points of cold builds and of refreshes
 * after edits, on a generated repository (Markdown with links and relations, TypeScript modules
 * importing each other). After each kill:
 *
 * - `cairn ask --no-refresh --json` answers from the state committed before the kill (exit 0, a
 *   well-formed pack), or, when nothing was committed yet, fails saying there is no index;
 * - the next `cairn index` converges: its chunks (ids and text), relations and vectors equal those
 *   of the same run never interrupted, from a copy of the same starting state; chunks and
 *   relations also equal a cold build of the same tree in a fresh directory (a refresh keeps the
 *   embedder it was trained under, so its vectors are compared with the uninterrupted refresh only);
 * - no temporary file is left in `.cairn/`.
 *
 * The kill points come from a seeded generator; the seed is printed and `--seed N` repeats a run.
 * The process exits non-zero on any violation.
 *
 *   npm run bench:faults                  20 kills, a fresh seed
 *   npm run bench:faults -- --seed 7      the same kills again
 *   npm run bench:faults -- --runs 6      fewer kills
 */
import { spawn, spawnSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as SqliteVec from "sqlite-vec"

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? undefined : args[at + 1]
}
const seed = Number(flag("seed") ?? Math.floor(Math.random() * 2_147_483_646) + 1)
const runs = Number(flag("runs") ?? 20)
const cli = join(import.meta.dirname, "../bin/cairn.js")

/** Park-Miller, so a seed gives the same repositories, edits and kill points. */
const generator = (start: number) => {
  let state = start % 2147483647 || 1
  return (n: number): number => {
    state = (state * 16807) % 2147483647
    return state % n
  }
}

const WORDS = (
  "cache index token budget ranking query document module package service layer stream schema snapshot " +
  "relation entity coverage owner decision runbook incident deploy rollback retry timeout queue worker " +
  "schedule metric trace latency storage replica shard lease lock migration version release feature"
).split(" ")

const sentence = (next: (n: number) => number, length: number) => Array.from({ length }, () => WORDS[next(WORDS.length)]).join(" ") + "."

const DOCS = 120
const MODULES = 120

const docText = (next: (n: number) => number, i: number, edition: number) => {
  const sections = Array.from({ length: 2 + next(4) }, (_, s) =>
    `## ${WORDS[next(WORDS.length)]} ${s}\n\n${sentence(next, 12 + next(30))} See [doc ${(i + 1) % DOCS}](doc-${(i + 1) % DOCS}.md) and \`src/m${next(MODULES)}.ts\`.\n`)
  return `---\ntitle: Doc ${i} ${WORDS[i % WORDS.length]}\n---\n# Doc ${i}\n\n${sentence(next, 20)} Edition ${edition}.\n\n${sections.join("\n")}\n## Relations\n- depends_on [[doc-${next(DOCS)}]]\n`
}

const moduleText = (next: (n: number) => number, i: number, edition: number) => {
  const other = next(MODULES)
  return `import { f${other} } from "./m${other}.js"\n\n/** ${sentence(next, 10)} */\nexport const f${i} = (x: number): number => x + ${edition}\n\nexport function g${i}(y: string): string {\n  return y + String(f${other}(${i}))\n}\n`
}

/** Writes the generated repository into `dir`. */
const writeTree = (dir: string, next: (n: number) => number) => {
  mkdirSync(join(dir, "docs"), { recursive: true })
  mkdirSync(join(dir, "src"), { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "faults-fixture", version: "1.0.0", type: "module" }))
  for (let i = 0; i < DOCS; i++) writeFileSync(join(dir, "docs", `doc-${i}.md`), docText(next, i, 0))
  for (let i = 0; i < MODULES; i++) writeFileSync(join(dir, "src", `m${i}.ts`), moduleText(next, i, 0))
}

/** Edits for a refresh: some files rewritten, a few added, a few deleted. */
const editTree = (dir: string, next: (n: number) => number, edition: number) => {
  for (let k = 0; k < 12; k++) {
    const i = next(DOCS)
    writeFileSync(join(dir, "docs", `doc-${i}.md`), docText(next, i, edition))
    const j = next(MODULES)
    writeFileSync(join(dir, "src", `m${j}.ts`), moduleText(next, j, edition))
  }
  for (let k = 0; k < 3; k++) writeFileSync(join(dir, "docs", `extra-${edition}-${k}.md`), docText(next, DOCS + k, edition))
  for (let k = 0; k < 2; k++) rmSync(join(dir, "docs", `doc-${next(DOCS)}.md`), { force: true })
}

const index = (root: string) => {
  const started = performance.now()
  const done = spawnSync(process.execPath, [cli, "index", "--root", root], { encoding: "utf8" })
  if (done.status !== 0) throw new Error(`cairn index failed in ${root}:\n${done.stderr.slice(-1500)}`)
  return performance.now() - started
}

/** Runs `cairn index` and kills it after `delayMillis`; whether it had finished first. */
const indexKilled = (root: string, delayMillis: number): Promise<"killed" | "finished"> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "index", "--root", root], { stdio: "ignore" })
    const timer = setTimeout(() => child.kill("SIGKILL"), delayMillis)
    child.on("exit", (_code, signal) => {
      clearTimeout(timer)
      resolve(signal === "SIGKILL" ? "killed" : "finished")
    })
  })

interface State {
  readonly chunks: ReadonlyMap<string, string>
  readonly relations: ReadonlyArray<string>
  readonly vectors: ReadonlyMap<string, string>
}

/** The index's chunks, relations and vectors, read straight from its tables. */
const readState = (root: string): State => {
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true, allowExtension: true })
  try {
    SqliteVec.load(db)
    const chunks = new Map<string, string>()
    for (const row of db.prepare("SELECT id, text FROM chunks ORDER BY id").all()) chunks.set(String(row["id"]), String(row["text"]))
    const relations = db.prepare("SELECT from_note, to_note, verb FROM relations ORDER BY from_note, to_note, verb").all()
      .map((row) => `${row["from_note"]} -${row["verb"]}-> ${row["to_note"]}`)
    const vectors = new Map<string, string>()
    for (const row of db.prepare("SELECT c.id AS id, v.embedding AS embedding FROM chunks c JOIN chunk_vectors v ON v.rowid = c.row ORDER BY c.id").all()) {
      vectors.set(String(row["id"]), Buffer.from(row["embedding"] as Uint8Array).toString("hex"))
    }
    return { chunks, relations, vectors }
  } finally {
    db.close()
  }
}

const differences = (got: State, want: State, vectors: boolean): Array<string> => {
  const out: Array<string> = []
  const compare = (what: string, a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) => {
    const missing = [...b.keys()].filter((key) => !a.has(key))
    const extra = [...a.keys()].filter((key) => !b.has(key))
    const changed = [...b.keys()].filter((key) => a.has(key) && a.get(key) !== b.get(key))
    if (missing.length + extra.length + changed.length > 0) {
      out.push(`${what}: ${missing.length} missing, ${extra.length} extra, ${changed.length} differ (${[...missing, ...extra, ...changed].slice(0, 3).join(", ")})`)
    }
  }
  compare("chunks", got.chunks, want.chunks)
  if (got.relations.join("\n") !== want.relations.join("\n")) out.push(`relations: ${got.relations.length} against ${want.relations.length}`)
  if (vectors) compare("vectors", got.vectors, want.vectors)
  return out
}

const temporaries = (root: string): Array<string> => readdirSync(join(root, ".cairn")).filter((name) => name.endsWith(".tmp"))

/** `ask --no-refresh` after a kill: a pack from the committed state, or "no index" when there is none. */
const askAfterKill = (root: string, committed: State | undefined): string | undefined => {
  const done = spawnSync(process.execPath, [cli, "ask", "cache index budget", "--no-refresh", "--json", "--root", root], { encoding: "utf8" })
  if (done.status !== 0) {
    if (committed === undefined && /no index/.test(done.stderr)) return undefined
    return `ask exited ${done.status}: ${done.stderr.trim().split("\n").at(-1)}`
  }
  let pack: { claims?: Array<{ ref?: string }>; used_tokens?: number; budget_tokens?: number }
  try {
    pack = JSON.parse(done.stdout)
  } catch {
    return `ask printed no JSON: ${done.stdout.slice(0, 200)}`
  }
  if (!Array.isArray(pack.claims) || typeof pack.used_tokens !== "number" || pack.used_tokens > (pack.budget_tokens ?? 0)) return "ask printed a malformed pack"
  if (committed !== undefined && pack.claims.length === 0) return "ask found nothing in the committed index"
  return undefined
}

const main = async () => {
  const next = generator(seed)
  const base = mkdtempSync(join(tmpdir(), "cairn-faults-"))
  console.log(`bench:faults seed ${seed}, ${runs} kills, in ${base}`)
  const rows: Array<{ run: number; kind: string; delay: number; outcome: string; violations: Array<string> }> = []
  try {
    for (let run = 0; run < runs; run++) {
      const kind = run % 2 === 0 ? "cold" : "refresh"
      const dir = join(base, `run-${run}`)
      const treeSeed = next(2_147_483_646) + 1
      writeTree(dir, generator(treeSeed))
      let committed: State | undefined
      if (kind === "refresh") {
        index(dir)
        committed = readState(dir)
        editTree(dir, generator(treeSeed + 1), run)
      }
      // The same run never interrupted, from a copy of the same starting state.
      const reference = join(base, `reference-${run}`)
      cpSync(dir, reference, { recursive: true, preserveTimestamps: true })
      const millis = index(reference)
      const want = readState(reference)
      // A cold build of the same tree in a fresh directory; for a cold run, the reference is one.
      const cold = join(base, `cold-${run}`)
      if (kind === "refresh") {
        cpSync(dir, cold, { recursive: true, preserveTimestamps: true, filter: (source) => !source.startsWith(join(dir, ".cairn")) })
        index(cold)
      }
      const coldState = kind === "refresh" ? readState(cold) : want

      // Node's start is about 0.3 s of every run; kill anywhere from it to a little past the end.
      const delay = next(Math.ceil(millis * 1.1))
      const outcome = await indexKilled(dir, delay)
      const violations: Array<string> = []
      const asked = askAfterKill(dir, outcome === "finished" ? want : committed)
      if (asked !== undefined) violations.push(asked)
      index(dir)
      violations.push(...differences(readState(dir), want, true))
      violations.push(...differences(readState(dir), coldState, kind === "cold").map((line) => `against a cold build: ${line}`))
      const left = temporaries(dir)
      if (left.length > 0) violations.push(`temporaries left: ${left.join(", ")}`)
      rows.push({ run, kind, delay, outcome, violations })
      console.log(`${String(run).padStart(2)} ${kind.padEnd(7)} kill at ${String(delay).padStart(5)} ms of ${millis.toFixed(0)} ms: ${outcome.padEnd(8)} ` +
        `${want.chunks.size} chunks, ${want.relations.length} relations: ${violations.length === 0 ? "ok" : violations.join("; ")}`)
      for (const path of [dir, reference, cold]) rmSync(path, { recursive: true, force: true })
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
  const killed = rows.filter((row) => row.outcome === "killed").length
  const failed = rows.filter((row) => row.violations.length > 0)
  console.log(`summary: seed ${seed}, ${rows.length} runs (${killed} killed mid-run, ${rows.length - killed} finished before the kill), ${failed.length} with violations`)
  if (failed.length > 0) process.exitCode = 1
}

await main()
