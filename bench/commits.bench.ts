/**
 * bench:commits — commit localization (docs/commit-localization.md): each item's query is searched
 * in its repository as it stood at the parent commit, and the ranking of files is scored by the
 * first non-test source file the commit changed (MRR, hit@5). Each repository's items are replayed
 * in commit-time order in one worktree: checkout the parent, refresh cairn's index (incremental, as
 * a user's would be, but without blame, which search does not read), search for modules, and update
 * the baselines with the files that changed.
 * Baselines (grep, FTS5 BM25 over content and over path + content, MiniSearch) index the same files.
 * Prints each ranker's figures per repository and overall, and cairn against BM25 path + content as
 * a paired bootstrap interval. The held-back half runs only when asked.
 *
 *   npm run bench:commits -- --mirror vuejs/core=/path/to/core.git … [--split dev|heldout|all]
 *     [--items eval/commits/items.jsonl] [--language typescript|python|go] [--via search|recall] [--repositories vuejs/core,…] [--limit N] [--json FILE]
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime, Schema } from "effect"
import * as Embedded from "../layers/Embedded.ts"
import * as IndexMemory from "../pipelines/indexMemory.ts"
import { indexLayer, indexRepository } from "../pipelines/indexRepository.ts"
import * as HistoryMemory from "../layers/reference/HistoryMemory.ts"
import { recall } from "../pipelines/recall.ts"
import { search } from "../pipelines/search.ts"
import { CommitItem } from "../eval/commits/CommitItem.ts"
import { mean, scoreRanking, type ItemScore } from "../eval/commits/scoring.ts"
import { pairedBootstrap } from "../eval/bootstrap.ts"
import { compareIds } from "../src/domain/Ranking.ts"
import { FILE_BASELINES } from "./commits/fileBaselines.ts"

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at === -1 ? undefined : args[at + 1]
}
const options = (name: string): Array<string> => args.flatMap((arg, i) => (args[i - 1] === name ? [arg] : []))

const itemsFile = option("--items") ?? "eval/commits/items.jsonl"
const split = option("--split") ?? "dev"
const limit = Number(option("--limit") ?? Number.MAX_SAFE_INTEGER)
const only = option("--repositories")?.split(",")
const mirrors = new Map(options("--mirror").map((m) => m.split("=") as [string, string]))
/** cairn's conditions: `name=JSON` RetrievalConfig overrides, each searched over the same index; `cairn` is the defaults. */
const conditions: Array<{ readonly name: string; readonly config: unknown }> = [
  { name: "cairn", config: {} },
  ...options("--condition").map((c) => {
    const at = c.indexOf("=")
    return { name: c.slice(0, at), config: JSON.parse(c.slice(at + 1)) as unknown }
  })
]
const DEPTH = 100
/** `--via recall` ranks by the files of an `ask` pack (which walks the graph) instead of `search`'s file ranking. */
const via = option("--via") ?? "search"
if (via !== "search" && via !== "recall") throw new Error("--via takes search or recall")
const RECALL_BUDGET = 8_000
/** The files cairn and the baselines index: what cairn's analyzers read, under its 1 MiB bound. */
/** What each set's repositories hold besides Markdown: TypeScript's set by default, `--language python|go` for those sets. */
const LANGUAGE_FILES: Readonly<Record<string, { readonly indexed: RegExp; readonly checkedOut: ReadonlyArray<string> }>> = {
  typescript: { indexed: /\.(?:[cm]?[jt]sx?|mdx?)$/, checkedOut: ["*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs", "*.json"] },
  python: { indexed: /\.(?:py|mdx?)$/, checkedOut: ["*.py"] },
  go: { indexed: /\.(?:go|mdx?)$|(?:^|\/)go\.mod$/, checkedOut: ["*.go", "go.mod"] }
}
const languageFiles = LANGUAGE_FILES[option("--language") ?? "typescript"]
if (languageFiles === undefined) throw new Error(`--language takes one of ${Object.keys(LANGUAGE_FILES).join(", ")}`)
const INDEXED = languageFiles.indexed
const MAX_FILE_BYTES = 1 << 20
const CHECKED_OUT = [...languageFiles.checkedOut, "*.md", "*.mdx", ".gitignore"]

/**
 * Blame is not read: search ranks by its first-pass legs alone, which never weigh a chunk's age,
 * and one `git blame` per changed file made each replayed refresh cost tens of seconds.
 */
const withoutHistory = HistoryMemory.layer({}, { isRepository: false })

const decode = Schema.decodeUnknownSync(CommitItem)
const items = readFileSync(itemsFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => decode(JSON.parse(l)))
  .filter((item) => split === "all" || item.split === split)
  .filter((item) => only === undefined || only.includes(item.repository))

const git = (work: string, ...rest: Array<string>) =>
  execFileSync("git", ["-C", work, ...rest], { encoding: "utf8", maxBuffer: 1 << 30, stdio: "pipe" })

const indexedFiles = (work: string, commit: string): Array<string> =>
  git(work, "ls-tree", "-r", "--name-only", "-z", commit).split("\0").filter((p) => p !== "" && INDEXED.test(p))

const readIfSmall = (path: string): string | undefined => {
  try {
    return statSync(path).size <= MAX_FILE_BYTES ? readFileSync(path, "utf8") : undefined
  } catch {
    return undefined
  }
}

type Scores = Map<string, Map<string, ItemScore>>
const scores: Scores = new Map()
const record = (ranker: string, id: string, score: ItemScore) => {
  if (!scores.has(ranker)) scores.set(ranker, new Map())
  scores.get(ranker)!.set(id, score)
}

const platform = ManagedRuntime.make(NodeServices.layer)
const byRepository = new Map<string, Array<CommitItem>>()
for (const item of items) byRepository.set(item.repository, [...(byRepository.get(item.repository) ?? []), item])
const started = performance.now()
const scratch = mkdtempSync(join(tmpdir(), "cairn-commits-"))
const perRepository: Array<{ repository: string; items: number; cold: number; refresh: Array<number>; search: Array<number> }> = []

try {
  for (const [repository, all] of [...byRepository].sort((a, b) => compareIds(a[0], b[0]))) {
    const gitDir = mirrors.get(repository)
    if (gitDir === undefined || !existsSync(gitDir)) {
      console.error(`${repository}: no --mirror ${repository}=GIT_DIR given; its ${all.length} items are skipped`)
      continue
    }
    const chosen = [...all].sort((a, b) => a.committedAt - b.committedAt || compareIds(a.commit, b.commit)).slice(0, limit)
    const work = join(scratch, repository.replace("/", "+"))
    // A clone sharing the mirror's objects: its history is the repository's, and the mirror is never written.
    execFileSync("git", ["clone", "-q", "--shared", "--no-checkout", gitDir, work])
    // Only what cairn reads is checked out: a mirror may lack the blobs of large binary files.
    git(work, "sparse-checkout", "set", "--no-cone", ...CHECKED_OUT)
    const baselines = FILE_BASELINES.map(({ make, name }) => ({ name, ranker: make() }))
    const memory = IndexMemory.make()
    let previous: string | undefined
    const timing = { repository, items: chosen.length, cold: 0, refresh: [] as Array<number>, search: [] as Array<number> }
    process.stderr.write(`${repository}: ${chosen.length} items\n`)
    for (const [n, item] of chosen.entries()) {
      if (n > 0 && n % 10 === 0) process.stderr.write(`${repository}: ${n} of ${chosen.length}\n`)
      // The tree at the parent, and the baselines told what changed since the last parent.
      const changed = previous === undefined
        ? indexedFiles(work, item.parent)
        : git(work, "diff", "--name-only", "-z", "--no-renames", previous, item.parent).split("\0").filter((p) => p !== "" && INDEXED.test(p))
      git(work, "checkout", "-f", "-q", "--detach", item.parent)
      git(work, "clean", "-f", "-d", "-q", "-e", ".cairn")
      for (const path of changed) {
        const text = readIfSmall(join(work, path))
        for (const { ranker } of baselines) text === undefined ? ranker.remove(path) : ranker.put(path, text)
      }
      const t0 = performance.now()
      await platform.runPromise(indexRepository({ root: work, now: item.committedAt * 1000, memory }).pipe(
        Effect.provide(withoutHistory),
        Effect.provide(indexLayer(work))
      ))
      const indexed = performance.now() - t0
      if (previous === undefined) timing.cold = indexed
      else timing.refresh.push(indexed)
      previous = item.parent
      for (const condition of conditions) {
        const runtime = ManagedRuntime.make(Embedded.embedded({ root: work, config: condition.config }))
        const t1 = performance.now()
        const ranked = via === "recall"
          // The pack's notes in claim order: what an agent asking `ask` is shown, graph expansion included.
          ? [...new Set((await runtime.runPromise(recall({ text: item.query, budgetTokens: RECALL_BUDGET }))).claims.map((claim) => claim.note))]
          : (await runtime.runPromise(search({ query: item.query, kinds: ["module"], limit: DEPTH }))).results.map((r) => r.path)
        if (condition.name === "cairn") timing.search.push(performance.now() - t1)
        await runtime.dispose()
        record(condition.name, item.id, scoreRanking(ranked, item.relevant))
      }
      for (const { name, ranker } of baselines) record(name, item.id, scoreRanking(ranker.rank(item.query, DEPTH), item.relevant))
    }
    perRepository.push(timing)
    rmSync(work, { recursive: true, force: true })
  }
} finally {
  await platform.dispose()
  rmSync(scratch, { recursive: true, force: true })
}

const median = (values: ReadonlyArray<number>) => (values.length === 0 ? 0 : [...values].sort((a, b) => a - b)[values.length >> 1]!)
const rankers = [...conditions.map((c) => c.name), ...FILE_BASELINES.map(({ name }) => name)]
const figures = (ids: ReadonlyArray<string>) =>
  rankers.map((name) => {
    const of = ids.map((id) => scores.get(name)?.get(id)).filter((s): s is ItemScore => s !== undefined)
    return { name, mrr: mean(of.map((s) => s.reciprocalRank)), hitAt5: mean(of.map((s) => s.hitAt5)) }
  })
const scored = items.filter((item) => scores.get("cairn")?.has(item.id))
console.log(`commit localization, split ${split}: ${scored.length} items over ${perRepository.length} repositories, ${((performance.now() - started) / 1000).toFixed(0)} s`)
const line = (label: string, ids: ReadonlyArray<string>) =>
  console.log(`${label.padEnd(22)} ${String(ids.length).padStart(4)}  ${figures(ids).map((f) => `${f.name} ${f.mrr.toFixed(3)}/${f.hitAt5.toFixed(3)}`).join("  ")}`)
console.log("(MRR/hit@5 per ranker)")
for (const timing of perRepository) line(timing.repository, scored.filter((i) => i.repository === timing.repository).map((i) => i.id))
line("all", scored.map((i) => i.id))
const paired = (metric: keyof ItemScore, against: string, ranker: string) => {
  const of = (name: string) => new Map(scored.map((i) => [i.id, scores.get(name)!.get(i.id)![metric]]))
  const delta = pairedBootstrap(of(against), of(ranker))
  return `${metric === "reciprocalRank" ? "MRR" : "hit@5"} ${delta.delta >= 0 ? "+" : ""}${delta.delta.toFixed(3)} [${delta.low.toFixed(3)}, ${delta.high.toFixed(3)}]`
}
if (scored.length > 0) {
  const all = figures(scored.map((i) => i.id))
  const bm25 = all.find((f) => f.name === "bm25-path-content")!
  const cairn = all.find((f) => f.name === "cairn")!
  console.log(`cairn vs bm25-path-content: MRR ratio ${(cairn.mrr / bm25.mrr).toFixed(2)}x; ${paired("reciprocalRank", "bm25-path-content", "cairn")}; ${paired("hitAt5", "bm25-path-content", "cairn")} (95% paired bootstrap)`)
  for (const condition of conditions.slice(1)) {
    console.log(`${condition.name} vs cairn: ${paired("reciprocalRank", "cairn", condition.name)}; ${paired("hitAt5", "cairn", condition.name)}`)
  }
}
for (const t of perRepository) {
  console.log(`${t.repository}: cold index ${(t.cold / 1000).toFixed(1)} s, refresh median ${median(t.refresh).toFixed(0)} ms, search median ${median(t.search).toFixed(0)} ms`)
}
const json = option("--json")
if (json !== undefined) {
  writeFileSync(json, JSON.stringify({
    split,
    items: scored.map((i) => ({ id: i.id, query: i.query, relevant: i.relevant, scores: Object.fromEntries(rankers.map((r) => [r, scores.get(r)!.get(i.id)])) }))
  }, null, 1))
}
