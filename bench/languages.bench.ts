/**
 * bench:languages — the languages read with tree-sitter, on real code: for each repository given,
 * the files of one language at its HEAD (read from a bare or full git directory, no checkout), each
 * analysed (parse, outline, facts) and chunked, three passes, medians. Prints per language the
 * files, bytes, grammar load time, analysis and chunking throughput, declarations found, files with
 * a syntax error, parses given up, and the process's peak RSS after the language.
 *
 * With --polyglot N it also writes a tree of N files copied round-robin from every repository's
 * language files (each copy under its own directory) and times a cold `cairn index` of it in a
 * process of its own, with that process's peak RSS.
 *
 *   npm run bench:languages -- --repo python=/path/to/flask.git --repo go=/path/to/cobra.git [--polyglot 10000] [--cold-runs 3]
 *   node --liftoff-only bench/languages.bench.ts …   as the `cairn` command runs (see bin/cairn.js)
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import { grammarAnalyzer } from "../src/discovery/GrammarAnalyzer.ts"
import { chunkFile } from "../src/index/chunk/ChunkFile.ts"
import * as Grammars from "../src/languages/Grammars.ts"
import { languageById, languageOfPath } from "../src/languages/Languages.ts"
import { counter } from "../layers/tokens/TokenCounterDefault.ts"

const PASSES = 3
/** Discovery's default bound on a file: larger ones are not read, so not measured either. */
const MAX_FILE_BYTES = 1 << 20

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const rssMiB = () => (process.resourceUsage().maxRSS / 1024).toFixed(0)

interface SourceFile {
  readonly path: string
  readonly text: string
}

/** The files of `language` at HEAD of a git directory; blobs the clone does not hold are skipped. */
const filesAt = (gitDir: string, language: string): Array<SourceFile> => {
  const listing = execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "-l", "HEAD"], { encoding: "utf8", maxBuffer: 1 << 28 })
  const wanted = listing.trim().split("\n").flatMap((line) => {
    const [meta, path] = line.split("\t")
    const [, type, sha, size] = meta!.split(/\s+/)
    return type === "blob" && languageOfPath(path!)?.id === language && Number(size) <= MAX_FILE_BYTES ? [{ path: path!, sha: sha! }] : []
  })
  const batch = spawnSync("git", ["--git-dir", gitDir, "cat-file", "--batch"], { input: wanted.map((file) => file.sha).join("\n") + "\n", maxBuffer: 1 << 30 })
  const out = batch.stdout
  const files: Array<SourceFile> = []
  let at = 0
  for (const file of wanted) {
    const headerEnd = out.indexOf(10, at)
    const header = out.subarray(at, headerEnd).toString("utf8")
    at = headerEnd + 1
    if (header.endsWith("missing")) continue
    const size = Number(header.split(" ")[2])
    files.push({ path: file.path, text: out.subarray(at, at + size).toString("utf8") })
    at += size + 1
  }
  return files
}

const chunkAll = (files: ReadonlyArray<SourceFile>) =>
  Effect.runPromise(Effect.forEach(files, (file) => chunkFile({ path: file.path, text: file.text }, { count: counter.count })).pipe(Effect.provide(Digest.layerWebCrypto)))

const measure = async (language: string, gitDir: string) => {
  const spec = languageById(language)
  if (spec === undefined) throw new Error(`no language ${language}`)
  const files = filesAt(gitDir, language)
  const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0)
  const loadStart = performance.now()
  await Grammars.ready([spec.grammar])
  const load = performance.now() - loadStart
  const analyzer = grammarAnalyzer(spec)
  const analysis: Array<number> = []
  let declarations = 0
  let errors = 0
  let gaveUp = 0
  for (let pass = 0; pass < PASSES; pass++) {
    const started = performance.now()
    for (const file of files) {
      const result = analyzer.analyze(file.path, file.text)
      if (pass > 0) continue
      if (result.facts?._tag === "module") declarations += result.facts.declarations.length
      if (result.notes.some((note) => note.status === "partial")) errors++
      if (result.notes.some((note) => note.status === "failed")) gaveUp++
    }
    analysis.push(performance.now() - started)
  }
  const chunking: Array<number> = []
  let chunks = 0
  for (let pass = 0; pass < PASSES; pass++) {
    const started = performance.now()
    const all = await chunkAll(files)
    chunking.push(performance.now() - started)
    chunks = all.reduce((sum, list) => sum + list.length, 0)
  }
  const mbps = (ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(1)
  console.log(
    `${spec.name.padEnd(7)} ${String(files.length).padStart(5)} files ${(bytes / 1e6).toFixed(2).padStart(6)} MB  grammar ${load.toFixed(0).padStart(4)} ms  ` +
      `analyse ${median(analysis).toFixed(0).padStart(5)} ms (${mbps(median(analysis))} MB/s)  chunk ${median(chunking).toFixed(0).padStart(5)} ms (${mbps(median(chunking))} MB/s)  ` +
      `${declarations} declarations, ${chunks} chunks, ${errors} with a syntax error, ${gaveUp} given up; peak RSS ${rssMiB()} MiB`
  )
  return files
}

const repos = process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--repo" ? [arg] : [])).map((arg) => {
  const [language, gitDir] = arg.split("=")
  return { language: language!, gitDir: gitDir! }
})
const polyglotAt = process.argv.indexOf("--polyglot")
const polyglot = polyglotAt >= 0 ? Number(process.argv[polyglotAt + 1]) : 0
const coldRunsAt = process.argv.indexOf("--cold-runs")
const COLD_RUNS = coldRunsAt >= 0 ? Number(process.argv[coldRunsAt + 1]) : PASSES

if (process.argv[2] === "--cold") {
  const { NodeServices } = await import("@effect/platform-node")
  const { indexLayer, indexRepository } = await import("../pipelines/indexRepository.ts")
  const root = process.argv[3]!
  const started = performance.now()
  await Effect.runPromise(indexRepository({ root, now: 0 }).pipe(Effect.provide(indexLayer(root)), Effect.provide(NodeServices.layer)))
  console.log(JSON.stringify({ millis: performance.now() - started, rss: Number(rssMiB()) }))
} else {
  if (repos.length === 0) throw new Error("give at least one --repo language=/path/to/git-dir")
  console.log(`node ${process.version}, ${PASSES} passes, medians; analyse = parse + outline + facts, chunk = chunkFile with cl100k counts`)
  const all: Array<SourceFile> = []
  for (const { gitDir, language } of repos) all.push(...(await measure(language, gitDir)).map((file) => ({ ...file, path: `${language}/${file.path}` })))
  if (polyglot > 0 && all.length > 0) {
    const root = mkdtempSync(join(tmpdir(), "cairn-polyglot-"))
    try {
      for (let i = 0; i < polyglot; i++) {
        const file = all[i % all.length]!
        const path = join(root, `copy-${Math.floor(i / all.length)}`, file.path)
        mkdirSync(dirname(path), { recursive: true })
        writeFileSync(path, file.text)
      }
      const bytes = Array.from({ length: polyglot }, (_, i) => Buffer.byteLength(all[i % all.length]!.text)).reduce((a, b) => a + b, 0)
      const runs = Array.from({ length: COLD_RUNS }, () => {
        rmSync(join(root, ".cairn"), { recursive: true, force: true })
        const done = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, "--cold", root], { encoding: "utf8", maxBuffer: 1 << 26 })
        if (done.status !== 0) throw new Error(`cold index failed:\n${done.stderr.slice(-2000)}`)
        return JSON.parse(done.stdout.trim().split("\n").at(-1)!) as { millis: number; rss: number }
      })
      console.log(`cold index of ${polyglot} files, ${(bytes / 1e6).toFixed(1)} MB (${all.length} distinct, copied round-robin): ${(median(runs.map((run) => run.millis)) / 1000).toFixed(1)} s median of ${COLD_RUNS}, peak RSS ${Math.max(...runs.map((run) => run.rss))} MiB (highest)`)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }
}
