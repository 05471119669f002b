/**
 * bench:hostile — what a hostile question costs beside a plain one, on the synthetic index of
 * 100,000 chunks (bench:index's, written straight through the writer, no vectors) and on the
 * generated 10,000-module repository of bench:discover (indexed by `cairn index`, so with its dense
 * leg). Each question is asked through `recall` over the embedded index in one long-lived runtime,
 * every case once per round so the plain question and the hostile ones share the machine's state;
 * the median of the rounds is printed with its ratio to the plain question's median. Then one CLI
 * process per case answers a 1 MB question on standard input beside a plain one.
 *
 *   npm run bench:hostile                          both indexes
 *   npm run bench:hostile -- --scenario synthetic  one of synthetic | generated
 *
 * Target: every hostile question <= 100 ms at 100,000 chunks and <= 2x the plain question.
 * Prints figures; asserts nothing.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect, type Layer, ManagedRuntime } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import { words } from "../src/text/Words.ts"
import * as Embedded from "../layers/Embedded.ts"
import { recall } from "../pipelines/recall.ts"
import { syntheticChunks, vocabulary, writeSyntheticIndex } from "./syntheticIndex.ts"

const repository = join(import.meta.dirname, "..")
const cli = join(repository, "bin", "cairn.js")
const node = process.execPath
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const MEGABYTE = 1 << 20

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** `text` repeated and cut to `chars` characters (never inside a surrogate pair). */
const fill = (text: string, chars: number): string => {
  const out = text.repeat(Math.ceil(chars / text.length)).slice(0, chars)
  return /[\uD800-\uDBFF]$/.test(out) ? out.slice(0, -1) : out
}

/** Distinct words, space-joined, up to `chars` characters. */
const distinctWords = (pool: ReadonlyArray<string>, chars: number): string => {
  const out: Array<string> = []
  let length = 0
  for (const word of pool) {
    if (length + word.length + 1 > chars) break
    out.push(word)
    length += word.length + 1
  }
  return out.join(" ")
}

/** English prose naming the corpus's words now and then, as a pasted document would. */
const prose = (pool: ReadonlyArray<string>, chars: number): string => {
  const sentences: Array<string> = []
  let length = 0
  for (let i = 0; length < chars; i++) {
    const a = pool[(i * 7) % pool.length]!, b = pool[(i * 13 + 5) % pool.length]!, c = pool[(i * 31 + 11) % pool.length]!
    const sentence = [
      `When the ${a} step fails, the team should check whether the ${b} was deployed before it and roll the change back.`,
      `We decided that every ${c} is owned by one person, who writes down why it exists and when it can be removed.`,
      `If you are not sure what the ${a} does, ask in the channel and link to the ${b} you were reading.`
    ][i % 3]!
    sentences.push(sentence)
    length += sentence.length + 1
  }
  return sentences.join(" ").slice(0, chars)
}

/** CJK text with no spaces: many distinct ideographs, as a pasted page of Chinese or Japanese. */
const cjk = (chars: number): string =>
  Array.from({ length: chars }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7_919) % 20_000))).join("")

/** The hostile cases over a corpus whose distinct words, in a fixed order, are `pool`. */
const cases = (plain: string, pool: ReadonlyArray<string>): ReadonlyArray<readonly [string, string]> => [
  ["plain question", plain],
  ["50,000 unbroken letters", "a".repeat(50_000)],
  ["CJK without spaces, 8,000 characters", cjk(8_000)],
  ["16 KB of distinct words", distinctWords(pool, 16_384)],
  ["16 KB of prose", prose(pool, 16_384)],
  ["1 MB of prose and distinct words", fill(`${prose(pool, 16_384)} ${distinctWords(pool, 65_536)} `, MEGABYTE)],
  ["one word repeated 5,000 times", `${pool[0]} `.repeat(5_000)],
  ["FTS5 syntax, quotes, NEAR and operators", fill(`"${pool[1]}" NEAR(${pool[2]} ${pool[3]}, 2) OR ${pool[4]}* AND NOT ^${pool[5]} title:${pool[6]} {text tags}: (a OR b) - + '' "" """ `, 4_096)],
  ["emoji, ZWJ sequences and flags", fill(`🔥🚀 ${pool[7]} 👩‍👩‍👧‍👦 🇬🇧🏳️‍🌈 ${pool[8]} 😀 `, 4_096)]
]

interface Row {
  readonly name: string
  readonly chars: number
  readonly medianMs: number
  readonly reduced: string
}

const measure = async (root: string, questions: ReadonlyArray<readonly [string, string]>): Promise<Array<Row>> => {
  const runtime = ManagedRuntime.make(Embedded.embedded({ root, readOnly: true }) as Layer.Layer<Embedded.EmbeddedServices, unknown>)
  const ask = (text: string) => runtime.runPromise(recall({ text }))
  // Warm-up: the first question opens the index and compiles the statements.
  for (const [, text] of questions) await ask(text)
  const times = questions.map(() => [] as Array<number>)
  const packs: Array<ContextPack | undefined> = questions.map(() => undefined)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, text]] of questions.entries()) {
      const started = performance.now()
      const pack = await ask(text)
      times[i]!.push(performance.now() - started)
      packs[i] = pack
      if (pack.usedTokens > pack.budgetTokens || (pack.claims.length === 0 && pack.gaps.length === 0)) throw new Error(`a malformed pack for ${questions[i]![0]}`)
    }
  }
  await runtime.dispose()
  return questions.map(([name, text], i) => ({
    name,
    chars: text.length,
    medianMs: median(times[i]!),
    reduced: packs[i]!.gaps.find((gap) => gap.reason === "query_reduced")?.text ?? ""
  }))
}

/** One CLI process per question, the question on standard input: the median of 3. */
const viaCli = (root: string, text: string): number => {
  const times: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    const run = spawnSync(node, [cli, "ask", "--root", root, "--json", "--no-refresh"], { input: text, encoding: "utf8", maxBuffer: 1 << 26 })
    if (run.status !== 0) throw new Error(run.stderr)
    times.push(performance.now() - started)
  }
  return median(times)
}

const print = (title: string, rows: ReadonlyArray<Row>) => {
  const plain = rows[0]!.medianMs
  console.log(`\n### ${title}\n`)
  console.log(`| question | characters | median of ${ROUNDS} (ms) | × plain | reduction reported |`)
  console.log("| --- | ---: | ---: | ---: | --- |")
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.chars.toLocaleString("en")} | ${row.medianMs.toFixed(1)} | ${(row.medianMs / plain).toFixed(2)} | ${row.reduced} |`)
  }
}

const scenarioRun = async (title: string, root: string, plain: string, pool: ReadonlyArray<string>) => {
  const questions = cases(plain, pool)
  print(title, await measure(root, questions))
  const megabyte = questions.find(([name]) => name.startsWith("1 MB"))![1]
  try {
    const cliPlain = viaCli(root, plain)
    const cliMegabyte = viaCli(root, megabyte)
    console.log(`\nOne CLI process (start included, question on standard input, median of 3): plain ${cliPlain.toFixed(0)} ms, 1 MB ${cliMegabyte.toFixed(0)} ms`)
  } catch (error) {
    console.log(`\nOne CLI process: failed (${String(error).split("\n")[0]})`)
  }
}

/** The distinct words of a repository's files, in path order then text order. */
const repositoryWords = (root: string): Array<string> => {
  const seen = new Set<string>()
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith(".")) continue
      const path = join(directory, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (/\.(md|ts)$/.test(entry.name)) for (const word of words(readFileSync(path, "utf8"))) seen.add(word)
      if (seen.size >= 50_000) return
    }
  }
  visit(root)
  return [...seen]
}

const scenario = process.argv.includes("--scenario") ? process.argv[process.argv.indexOf("--scenario") + 1] : undefined

console.log(`bench:hostile — Node ${process.version}; recall over the embedded index, one runtime, each case once per round`)
if (scenario === undefined || scenario === "synthetic") {
  const root = mkdtempSync(join(tmpdir(), "cairn-hostile-synthetic-"))
  await writeSyntheticIndex(root, syntheticChunks(100_000))
  // Mid-frequency words, as a person would ask with; the pool runs rarest first, as an attacker would pick.
  const plain = `how does ${vocabulary[40]} relate to ${vocabulary[300]} and ${vocabulary[1_500]}`
  await scenarioRun("synthetic 100,000 chunks (no vectors)", root, plain, [...vocabulary].reverse())
  rmSync(root, { recursive: true, force: true })
}
if (scenario === undefined || scenario === "generated") {
  const root = mkdtempSync(join(tmpdir(), "cairn-hostile-generated-"))
  execFileSync(node, [join(repository, "bench/discover.bench.ts"), "--generate", root], { stdio: "ignore" })
  execFileSync(node, [cli, "index", "--root", root], { stdio: "ignore" })
  await scenarioRun("generated 10,000 modules + 2,000 documents (with vectors)", root, "how does the cache retry a timeout during a deploy rollback", repositoryWords(root))
  rmSync(root, { recursive: true, force: true })
}
