/**
 * The embedded index end to end, through the Promise API, over repositories built in a temp
 * directory: with git history (commits whose dates are set) and without.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { openCairn } from "../../pipelines/openCairn.ts"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const git = (root: string, args: ReadonlyArray<string>, date?: string) =>
  execFileSync("git", [...args], {
    cwd: root,
    env: { ...process.env, GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.org", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.org", ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }) },
    stdio: "ignore"
  })

const ROLLBACK = "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n"
const RETENTION = "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n"
const CODE = "/** Chooses the rollback target. */\nexport const rollbackTarget = (releases: ReadonlyArray<string>): string | undefined => releases.at(-2)\n"

describe("openCairn over a git repository", () => {
  it("answers from the index, dates claims by git blame, and refreshes edits, additions, deletions and renames", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-repo-"))
    try {
      git(root, ["init", "-q"])
      write(root, "docs/rollback.md", ROLLBACK)
      write(root, "src/rollback.ts", CODE)
      git(root, ["add", "."])
      git(root, ["commit", "-q", "-m", "first"], "2025-03-01T10:00:00Z")
      write(root, "docs/retention.md", RETENTION)
      git(root, ["add", "."])
      git(root, ["commit", "-q", "-m", "second"], "2026-06-15T10:00:00Z")

      const cairn = await openCairn({ root })
      const pack = await cairn.recall("how do I roll back a deploy with deployctl?")
      const rollback = pack.claims.find((c) => c.note === "docs/rollback.md")
      assert.isDefined(rollback)
      assert.strictEqual(rollback!.provenance.createdAt, "2025-03-01T10:00:00Z")
      const retention = (await cairn.recall("how long are application logs kept?")).claims.find((c) => c.note === "docs/retention.md")
      assert.strictEqual(retention?.provenance.createdAt, "2026-06-15T10:00:00Z")

      // Edit, add, delete and rename on disk: status sees them, refresh indexes only them.
      write(root, "docs/retention.md", RETENTION.replace("30 days", "90 days"))
      write(root, "docs/oncall.md", "# On call\n\n## Rota\n\nThe platform rota changes every Monday at 09:00.\n")
      rmSync(join(root, "src/rollback.ts"))
      renameSync(join(root, "docs/rollback.md"), join(root, "docs/rolling-back.md"))
      const status = await cairn.status()
      assert.deepStrictEqual(status.pending, {
        added: ["docs/oncall.md", "docs/rolling-back.md"],
        changed: ["docs/retention.md"],
        deleted: ["docs/rollback.md", "src/rollback.ts"]
      })
      const report = await cairn.refresh()
      assert.strictEqual(report.notesIndexed, 3)
      assert.strictEqual(report.notesDeleted, 2)
      assert.isFalse(report.retrained)

      const after = await cairn.recall("how long are application logs kept?")
      const texts = after.claims.map((c) => c.text).join("\n")
      assert.include(texts, "90 days")
      assert.notInclude(texts, "30 days")
      const renamed = await cairn.recall("deployctl rollback")
      assert.isTrue(renamed.claims.some((c) => c.note === "docs/rolling-back.md"))
      assert.isFalse(renamed.claims.some((c) => c.note === "docs/rollback.md" || c.note === "src/rollback.ts"))
      assert.deepStrictEqual((await cairn.status()).pending, { added: [], changed: [], deleted: [] })
      await cairn.close()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})

describe("openCairn without git", () => {
  it("works on a plain directory; ages come from frontmatter or stay unknown", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-plain-"))
    try {
      write(root, "notes/decision.md", "---\ntype: decision\nupdated: 2026-01-10\n---\n# Queue choice\n\n## Decision\n\nWe chose NATS JetStream for dispatch events because replay is built in.\n")
      write(root, "notes/undated.md", "# Undated\n\n## Body\n\nThe build cache lives in the shared bucket.\n")
      const cairn = await openCairn({ root })
      const pack = await cairn.recall("why did we choose NATS JetStream?")
      const decision = pack.claims.find((c) => c.note === "notes/decision.md")
      assert.strictEqual(decision?.kind, "decision")
      assert.strictEqual(decision?.provenance.createdAt, "2026-01-10T00:00:00Z")
      const undated = (await cairn.recall("where does the build cache live?")).claims.find((c) => c.note === "notes/undated.md")
      assert.strictEqual(undated?.provenance.createdAt, null)
      const rejected = await cairn.recall("x", { budgetTokens: -1 }).then(() => undefined, (error: unknown) => error)
      assert.strictEqual((rejected as { _tag?: string })._tag, "InvalidInput")
      await cairn.close()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it("takes the repository's cairn.config.json, names in its options win, and agent patterns mark authors", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-configured-"))
    try {
      git(root, ["init", "-q"])
      write(root, "docs/rollback.md", ROLLBACK)
      write(root, "fixtures/rollback.md", ROLLBACK)
      write(root, "cairn.config.json", JSON.stringify({ chunking: { targetTokens: 100, agentPatterns: ["ada@"] }, discovery: { exclude: ["fixtures/"] } }))
      git(root, ["add", "."])
      git(root, ["commit", "-q", "-m", "seed"], "2026-02-01T12:00:00Z")
      const builtUnder = () => {
        const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
        try {
          return JSON.parse((db.prepare("SELECT chunking FROM manifest").get() as { chunking: string }).chunking) as { targetTokens: number }
        } finally {
          db.close()
        }
      }
      const cairn = await openCairn({ root })
      const pack = await cairn.recall("how do we roll back?")
      assert.isTrue(pack.claims.length > 0 && pack.claims.every((claim) => !claim.note.startsWith("fixtures/")))
      // Ada's address is an agent's by the file's patterns.
      assert.isTrue(pack.claims.every((claim) => claim.provenance.authorKind === "agent"))
      assert.strictEqual(builtUnder().targetTokens, 100)
      assert.isTrue((await cairn.refresh()).upToDate)
      await cairn.close()

      const named = await openCairn({ root, chunking: { targetTokens: 200 } })
      assert.strictEqual(builtUnder().targetTokens, 200)
      await named.close()

      write(root, "cairn.config.json", JSON.stringify({ chunking: { targetTokens: 10 } }))
      const refused = await openCairn({ root }).then(() => undefined, (error: unknown) => error)
      assert.deepInclude(refused, { _tag: "InvalidInput", subject: "cairn.config.json", field: "chunking.targetTokens" })
      assert.strictEqual(builtUnder().targetTokens, 200)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
