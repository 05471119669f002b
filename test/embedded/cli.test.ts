/**
 * The built CLI as a child process: `--json` prints a pack that decodes with the ContextPack
 * schema; hostile questions get a pack or one clear error line, fast; and `--no-refresh` questions
 * leave the index file byte for byte as it was.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as ContextPack from "../../src/domain/ContextPack.ts"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")
const node = process.execPath

const run = (args: ReadonlyArray<string>, input?: string) =>
  spawnSync(node, [cli, ...args], { encoding: "utf8", input: input ?? "", timeout: 60_000 })

describe("cairn CLI", () => {
  it("index, ask --json, hostile questions and an untouched index", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-cli-"))
    try {
      mkdirSync(join(root, "docs"))
      writeFileSync(join(root, "docs/budget.md"), "# Budgets\n\n## Enforcement\n\nThe packer never spends more than the token budget the caller names.\n")
      writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Choice\n\nDispatch events go over NATS JetStream.\n")
      const indexed = run(["index", "--root", root])
      assert.strictEqual(indexed.status, 0, indexed.stderr)
      assert.match(indexed.stdout, /indexed 2 files/)

      const asked = run(["ask", "how is the token budget enforced?", "--root", root, "--json", "--no-refresh"])
      assert.strictEqual(asked.status, 0, asked.stderr)
      const pack = ContextPack.decodeWireSync(JSON.parse(asked.stdout))
      assert.strictEqual(pack.claims[0]?.note, "docs/budget.md")
      assert.isAtMost(pack.usedTokens, pack.budgetTokens)

      // Reading the question from standard input, so agents can pipe.
      const piped = run(["ask", "--root", root, "--json", "--no-refresh"], "which queue carries dispatch events?")
      assert.strictEqual(piped.status, 0, piped.stderr)
      assert.strictEqual(ContextPack.decodeWireSync(JSON.parse(piped.stdout)).claims[0]?.note, "docs/queues.md")

      const file = join(root, ".cairn", "index.sqlite")
      const before = createHash("sha256").update(readFileSync(file)).digest("hex")
      for (const hostile of ["a".repeat(50_000), "検索".repeat(2_000), "word ".repeat(3_300)]) {
        const started = Date.now()
        const result = run(["ask", "--root", root, "--json", "--no-refresh"], hostile)
        assert.strictEqual(result.status, 0, result.stderr)
        const hostilePack = ContextPack.decodeWireSync(JSON.parse(result.stdout))
        assert.isTrue(hostilePack.claims.length > 0 || hostilePack.gaps.length > 0)
        assert.isAtMost(hostilePack.usedTokens, hostilePack.budgetTokens)
        assert.isBelow(Date.now() - started, 60_000)
      }
      // For people, --explain accounts for each claim's score and times each stage.
      const explained = run(["ask", "how is the token budget enforced?", "--root", root, "--explain", "--no-refresh"])
      assert.strictEqual(explained.status, 0, explained.stderr)
      // One line per claim up top (ref, heading path, why), then the passages with the score account.
      assert.match(explained.stdout, /^\d+ claims?:\n1\. docs\/budget\.md:\S+ {2}\S.* {2}\(note; matched [^)]*budget/)
      assert.match(explained.stdout, /\n1\. docs\/budget\.md:\S+ {2}\(score [\d.e-]+, note\)\n {3}score = rrf [\d.e-]+( × [a-z_]+ [\d.e-]+)*( \(other factors 1\))?\n/)
      assert.match(explained.stdout, /\n » /)
      assert.match(explained.stdout, /\ntimings \(ms\): intent [\d.]+, legs /)
      assert.notMatch(run(["ask", "how is the token budget enforced?", "--root", root, "--no-refresh"]).stdout, /score = /)

      const empty = run(["ask", "", "--root", root, "--json", "--no-refresh"])
      assert.strictEqual(empty.status, 0, empty.stderr)
      assert.isAbove(ContextPack.decodeWireSync(JSON.parse(empty.stdout)).gaps.length, 0)

      const bad = run(["ask", "q", "--root", root, "--budget", "99999", "--no-refresh"])
      assert.notStrictEqual(bad.status, 0)
      assert.match(bad.stderr, /budgetTokens/)
      assert.notMatch(bad.stderr, /\n\s+at /)
      const after = createHash("sha256").update(readFileSync(file)).digest("hex")
      assert.strictEqual(after, before)

      // Staleness is never silent: answering without a refresh says how many files the index has not seen.
      writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Choice\n\nDispatch events go over Kafka now.\n")
      const stale = ContextPack.decodeWireSync(JSON.parse(run(["ask", "which queue?", "--root", root, "--json", "--no-refresh"]).stdout))
      assert.strictEqual(stale.indexHealth.filesChanged, 1)
      assert.isTrue(stale.gaps.some((g) => g.reason === "index_incomplete"))
      const fresh = ContextPack.decodeWireSync(JSON.parse(run(["ask", "which queue?", "--root", root, "--json"]).stdout))
      assert.strictEqual(fresh.indexHealth.filesChanged, 0)
      assert.isTrue(fresh.claims.some((c) => c.text.includes("Kafka")))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 240_000)

  it("cairn.config.json sets the chunking, the files scanned and the retrieval; a bad one fails in one line and changes nothing", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-config-"))
    try {
      mkdirSync(join(root, "docs"))
      mkdirSync(join(root, "fixtures"))
      writeFileSync(join(root, "docs/budget.md"), "# Budgets\n\n## Enforcement\n\nThe packer never spends more than the token budget the caller names.\n")
      writeFileSync(join(root, "fixtures/budget.md"), "# Fixture\n\nA fixture that also talks about the token budget.\n")
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ chunking: { targetTokens: 120 }, discovery: { exclude: ["fixtures/"] }, retrieval: { rerankLimit: 16 } }))
      const indexed = run(["index", "--root", root])
      assert.strictEqual(indexed.status, 0, indexed.stderr)
      assert.match(indexed.stdout, /indexed 1 files/)
      const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
      assert.strictEqual(JSON.parse((db.prepare("SELECT chunking FROM manifest").get() as { chunking: string }).chunking).targetTokens, 120)
      db.close()
      const asked = run(["ask", "how is the token budget enforced?", "--root", root, "--json", "--no-refresh"])
      assert.strictEqual(asked.status, 0, asked.stderr)
      assert.isFalse(ContextPack.decodeWireSync(JSON.parse(asked.stdout)).claims.some((claim) => claim.note.startsWith("fixtures/")))
      // An excluded file that moves is not news to status or to a question asked without a refresh.
      writeFileSync(join(root, "fixtures/budget.md"), "# Fixture\n\nRewritten.\n")
      assert.deepStrictEqual(JSON.parse(run(["status", "--root", root, "--json"]).stdout).stale, { added: [], changed: [], deleted: [] })
      const unmoved = ContextPack.decodeWireSync(JSON.parse(run(["ask", "budget?", "--root", root, "--json", "--no-refresh"]).stdout))
      assert.strictEqual(unmoved.indexHealth.filesChanged, 0)
      // The retrieval settings reach the question: no dense leg.
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ chunking: { targetTokens: 120 }, discovery: { exclude: ["fixtures/"] }, retrieval: { denseLimit: 0 } }))
      const lexicalOnly = ContextPack.decodeWireSync(JSON.parse(run(["ask", "budget?", "--root", root, "--json", "--no-refresh", "--explain"]).stdout))
      assert.strictEqual(lexicalOnly.diagnostics?.legs.find((leg) => leg.name === "dense")?.hits, 0)
      // Other chunking settings: status says the next index rebuilds, and it does.
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ chunking: { targetTokens: 200 }, discovery: { exclude: ["fixtures/"] } }))
      assert.isTrue(JSON.parse(run(["status", "--root", root, "--json"]).stdout).chunkingChanged)
      assert.match(run(["status", "--root", root]).stdout, /built under other chunking settings/)
      assert.match(run(["index", "--root", root]).stdout, /embedder retrained/)
      assert.isFalse(JSON.parse(run(["status", "--root", root, "--json"]).stdout).chunkingChanged)
      // Files kept unredacted are part of the chunking settings: status weighs them as index does.
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ chunking: { targetTokens: 200 }, discovery: { exclude: ["fixtures/"], unredacted: ["docs/"] } }))
      assert.isTrue(JSON.parse(run(["status", "--root", root, "--json"]).stdout).chunkingChanged)
      run(["index", "--root", root])
      assert.isFalse(JSON.parse(run(["status", "--root", root, "--json"]).stdout).chunkingChanged)

      const file = join(root, ".cairn", "index.sqlite")
      const before = createHash("sha256").update(readFileSync(file)).digest("hex")
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ chunking: { targetTokens: 10 } }))
      for (const command of [["index"], ["ask", "q"], ["status"]]) {
        const bad = run([...command, "--root", root])
        assert.strictEqual(bad.status, 1, command.join(" "))
        assert.strictEqual(bad.stderr.trim(), "cairn: InvalidInput: invalid cairn.config.json: chunking.targetTokens: Expected a value between 64 and 8000")
      }
      assert.strictEqual(createHash("sha256").update(readFileSync(file)).digest("hex"), before)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it("with a shadow configuration, ask answers as before and logs what the candidate returned differently", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-shadow-"))
    try {
      mkdirSync(join(root, "docs"))
      writeFileSync(join(root, "docs/budget.md"), "# Budgets\n\n## Enforcement\n\nThe packer never spends more than the token budget the caller names.\n\n## Reserve\n\nA reserve of tokens is kept for the report.\n")
      writeFileSync(join(root, "docs/queue.md"), "# Queue\n\nDispatch events travel on the orders queue; the budget of retries is three.\n")
      assert.strictEqual(run(["index", "--root", root]).status, 0)
      const plain = run(["ask", "how is the token budget enforced?", "--root", root, "--json", "--no-refresh"])
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ shadow: { retrieval: { rerankLimit: 1 } } }))
      const shadowed = run(["ask", "how is the token budget enforced?", "--root", root, "--json", "--no-refresh"])
      assert.strictEqual(shadowed.status, 0, shadowed.stderr)
      assert.strictEqual(shadowed.stdout, plain.stdout)
      run(["ask", "which queue carries dispatch events?", "--root", root, "--json", "--no-refresh"])
      const records = readFileSync(join(root, ".cairn", "shadow.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line))
      assert.deepStrictEqual(records.map((record) => record.query), ["how is the token budget enforced?", "which queue carries dispatch events?"])
      const first = records[0]
      assert.deepStrictEqual(first.stable, ContextPack.decodeWireSync(JSON.parse(plain.stdout)).claims.map((claim) => claim.ref))
      assert.strictEqual(first.candidate.length, 1)
      assert.isAbove(first.stableOnly.length, 0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it("ask --scope answers from files under the named paths only, filtering inside every leg rather than after its cut", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-scope-"))
    try {
      // Sixty strong matches outside the scope: more than any leg keeps, so filtering after a leg's
      // cut would leave the one weaker match inside the scope unseen.
      for (let i = 0; i < 60; i++) {
        mkdirSync(join(root, `packages/billing/docs`), { recursive: true })
        writeFileSync(join(root, `packages/billing/docs/retry-${i}.md`), `# Retry policy ${i}\n\nBilling retry policy ${i}: retries back off and retry the retry queue ${i} times.\n`)
      }
      mkdirSync(join(root, "packages/search/docs"), { recursive: true })
      writeFileSync(join(root, "packages/search/docs/indexing.md"), "# Indexing\n\nThe search indexer has a retry policy of one attempt.\n")
      mkdirSync(join(root, "packages/search-old"), { recursive: true })
      writeFileSync(join(root, "packages/search-old/retry.md"), "# Retry policy\n\nThe old search retry policy retried the retry queue forever.\n")
      assert.strictEqual(run(["index", "--root", root]).status, 0)

      const ask = (...scope: ReadonlyArray<string>) => {
        const result = run(["ask", "what is the retry policy?", "--root", root, "--json", "--no-refresh", ...scope.flatMap((path) => ["--scope", path])])
        assert.strictEqual(result.status, 0, result.stderr)
        return ContextPack.decodeWireSync(JSON.parse(result.stdout))
      }
      const everywhere = ask()
      assert.isFalse(everywhere.claims.some((c) => c.note.startsWith("packages/search/")))

      // A path is matched on whole segments: `packages/search` does not admit `packages/search-old`.
      const scoped = ask("packages/search")
      assert.deepStrictEqual([...new Set(scoped.claims.map((c) => c.note))], ["packages/search/docs/indexing.md"])

      // Several paths admit any of them, and nothing else.
      const two = ask("packages/search", "packages/search-old")
      assert.isAbove(two.claims.length, 0)
      assert.isTrue(two.claims.every((c) => c.note === "packages/search/docs/indexing.md" || c.note === "packages/search-old/retry.md"))

      const nowhere = ask("packages/none")
      assert.strictEqual(nowhere.claims.length, 0)
      assert.isTrue(nowhere.gaps.length > 0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 240_000)

  it("a file nested deeper than the parser can take is indexed as text, on a cold build and on a refresh, not a crash", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-cli-"))
    try {
      mkdirSync(join(root, "src"))
      // The parser recurses natively on each `=`: twenty thousand of them end the process, not a parse.
      const deep = (marker: string) => `export const ${marker} = "ready"\nexport let a = 0\n${"a = ".repeat(20_000)}1\n`
      writeFileSync(join(root, "src/deep.ts"), deep("quokkaMarker"))
      writeFileSync(join(root, "src/plain.ts"), "export const plain = 1\n")
      const indexed = run(["index", "--root", root])
      assert.strictEqual(indexed.status, 0, indexed.stderr)
      assert.match(indexed.stdout, /indexed 2 files/)
      const found = (term: string) => {
        const result = run(["ask", term, "--root", root, "--json"])
        assert.strictEqual(result.status, 0, result.stderr)
        return ContextPack.decodeWireSync(JSON.parse(result.stdout)).claims.some((c) => c.note === "src/deep.ts" && c.text.includes(term))
      }
      assert.isTrue(found("quokkaMarker"))
      // The refresh reads one changed file in-process, on the main thread.
      writeFileSync(join(root, "src/deep.ts"), deep("wombatMarker"))
      assert.isTrue(found("wombatMarker"))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
