/**
 * Mines the commit-localization set from local clones of public repositories (eval/commits).
 * Reads each clone's history with `git log`, judges every commit by eval/commits/miningRules.ts,
 * keeps the newest eligible items of each repository, and writes them, one JSON object a line,
 * in repository then commit-time order. Prints how many commits each rule removed.
 *
 *   node bench/commits/mine.ts --out eval/commits/items.jsonl --per-repository 60 \
 *     vuejs/core=/path/to/core.git axios/axios=/path/to/axios.git …
 *   node bench/commits/mine.ts --language python --out eval/commits/python-items.jsonl pallets/flask=/path/to/flask.git
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import type { CommitItem } from "../../eval/commits/CommitItem.ts"
import { compareIds } from "../../src/domain/Ranking.ts"
import { judge, LOG_FORMAT, parseLog, type Rejection, SOURCE_RULES } from "../../eval/commits/miningRules.ts"

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : args[at + 1]!
}
const out = option("--out", "eval/commits/items.jsonl")
const perRepository = Number(option("--per-repository", "60"))
const window = Number(option("--window", "4000"))
const rules = SOURCE_RULES[option("--language", "typescript")]
if (rules === undefined) {
  console.error(`--language takes one of ${Object.keys(SOURCE_RULES).join(", ")}`)
  process.exit(2)
}
const sources = args.filter((arg, i) => arg.includes("=") && !args[i - 1]?.startsWith("--"))
if (sources.length === 0) {
  console.error("usage: node bench/commits/mine.ts [--out FILE] [--language typescript|python|go] [--per-repository N] [--window N] owner/name=GIT_DIR …")
  process.exit(2)
}

const items: Array<CommitItem> = []
for (const source of sources.sort()) {
  const [repository, gitDir] = source.split("=") as [string, string]
  const log = execFileSync("git", ["--git-dir", gitDir, "log", "--first-parent", `-n${window}`, `--format=${LOG_FORMAT}`, "--name-status", "-M", "HEAD"], {
    encoding: "utf8",
    maxBuffer: 1 << 30
  })
  const rejections = new Map<Rejection, number>()
  const kept: Array<CommitItem> = []
  for (const commit of parseLog(log)) {
    const verdict = judge(repository, commit, rules)
    if (verdict._tag === "Rejected") rejections.set(verdict.reason, (rejections.get(verdict.reason) ?? 0) + 1)
    else if (kept.length < perRepository) kept.push(verdict.item)
  }
  kept.sort((a, b) => a.committedAt - b.committedAt || compareIds(a.commit, b.commit))
  items.push(...kept)
  const removed = [...rejections].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${reason} ${n}`).join(", ")
  console.log(`${repository}: ${kept.length} items (${kept.filter((i) => i.split === "dev").length} dev); removed: ${removed}`)
}
writeFileSync(out, items.map((item) => JSON.stringify(item)).join("\n") + "\n")
console.log(`${items.length} items written to ${out}`)
