/**
 * Usage errors as a `--json` consumer sees them: standard output stays empty, standard error gets a
 * short error and a pointer to `--help`, and the exit is non-zero. Asking for help still prints it to
 * standard output with exit 0.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"

const cli = join(import.meta.dirname, "..", "..", "bin", "cairn.js")

const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: "", timeout: 60_000 })

describe("cairn usage errors", () => {
  it("a bad flag value, an unknown flag or an unknown subcommand writes nothing to stdout and a short error to stderr", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
      [["ask", "q", "--json", "--budget", "abc"], /--budget/],
      [["ask", "q", "--json", "--bogus"], /--bogus/],
      [["search", "q", "--json", "--limit", "x"], /--limit/],
      [["frobnicate"], /frobnicate/]
    ]
    for (const [args, names] of cases) {
      const result = run(args)
      assert.notStrictEqual(result.status, 0, args.join(" "))
      assert.strictEqual(result.stdout, "", args.join(" "))
      assert.match(result.stderr, names)
      assert.match(result.stderr, /--help/)
      assert.notMatch(result.stderr, /ShowHelp|Help requested|USAGE|FLAGS/)
      assert.isAtMost(result.stderr.trimEnd().split("\n").length, 3, result.stderr)
    }
  }, 120_000)

  it("--help prints the help to stdout and exits 0; so does the bare command", () => {
    for (const args of [["ask", "--help"], ["--help"], []]) {
      const result = run(args)
      assert.strictEqual(result.status, 0, result.stderr)
      assert.match(result.stdout, /USAGE/)
      assert.strictEqual(result.stderr, "", args.join(" "))
    }
  }, 120_000)
})
