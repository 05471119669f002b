/**
 * The command line loads what a command needs: `--help` and `ask` on an index that is up to date
 * load no parser (oxc, remark, yaml), none of the bench runner and no baseline library, and
 * `ask --no-refresh` none of the index pipeline, so a call costs what it uses. The CLI runs as a child process with a module hook recording every module.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")

/** What a run of the CLI with `args` loaded, module URLs relative to the repository. */
const modulesLoadedBy = (args: ReadonlyArray<string>, scratch: string): ReadonlyArray<string> => {
  const record = join(scratch, `loaded-${args[0]}.txt`)
  const run = spawnSync(process.execPath, ["--import", join(import.meta.dirname, "loadedModules.mjs"), cli, ...args], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, CAIRN_LOADED_MODULES: record }
  })
  assert.strictEqual(run.status, 0, run.stderr)
  return readFileSync(record, "utf8").split("\n").map((url) => url.replace(`file://${repository}/`, ""))
}

const PARSERS = /node_modules\/(oxc-parser|@oxc-parser|remark-|micromark|mdast-util-from-markdown|unified|yaml)\//
// The bench command's flags are declared for --help (eval/BenchCommand.ts); the runner is not loaded.
const BENCH = /^eval\/(?!BenchCommand\.ts$)|node_modules\/(minisearch|@orama\/orama|tiktoken)\//

describe("what a command loads", () => {
  it("--help and ask on an up-to-date index load no parser, no bench and no baseline", () => {
    const scratch = mkdtempSync(join(tmpdir(), "cairn-lazy-"))
    try {
      const root = join(scratch, "repository")
      mkdirSync(join(root, "docs"), { recursive: true })
      mkdirSync(join(root, "src"))
      writeFileSync(join(root, "docs", "budget.md"), "# Budgets\n\nThe packer never spends more than the token budget the caller names.\n")
      writeFileSync(join(root, "src", "budget.ts"), "export const enforce = (used: number, budget: number) => used <= budget\n")
      const indexed = spawnSync(process.execPath, [cli, "index", "--root", root], { encoding: "utf8", timeout: 120_000 })
      assert.strictEqual(indexed.status, 0, indexed.stderr)

      // Sanity: indexing does load the parsers, so the patterns below can see them.
      const indexing = modulesLoadedBy(["index", "--rebuild", "--root", root], scratch)
      assert.isTrue(indexing.some((url) => PARSERS.test(url)), "a rebuild loads the parsers")

      for (const args of [["--help"], ["ask", "how is the budget enforced?", "--root", root, "--json"], ["ask", "budget", "--root", root, "--no-refresh"]]) {
        const loaded = modulesLoadedBy(args, scratch)
        assert.deepStrictEqual(loaded.filter((url) => PARSERS.test(url)), [], `${args.join(" ")} loads no parser`)
        assert.deepStrictEqual(loaded.filter((url) => BENCH.test(url)), [], `${args.join(" ")} loads nothing of the bench`)
      }
      // An answer from the index as it is, on a tree its listing confirms, needs none of the index pipeline.
      const answered = modulesLoadedBy(["ask", "budget", "--root", root, "--no-refresh"], scratch)
      assert.deepStrictEqual(answered.filter((url) => /pipelines\/(indexRepository|discover)\.ts$|pipelines\/cli\/IndexAction\.ts$/.test(url)), [], "ask --no-refresh loads no index pipeline")
      const help = modulesLoadedBy(["--help"], scratch)
      assert.deepStrictEqual(help.filter((url) => /(layers\/sqlite|pipelines\/indexRepository|src\/retrieval)\//.test(url)), [], "--help loads no index or recall code")
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 180_000)
})
