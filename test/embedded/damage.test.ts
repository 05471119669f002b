/**
 * A damaged index file, through the command line: `status` reports the damage, `ask --no-refresh`
 * fails naming it or answers with the dense leg's failure as a gap, never in silence, and `cairn
 * index` (with or without --rebuild) builds a new file from the repository, swaps it in and says
 * so. The damage is made for real, in the file's pages and by truncation.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as ContextPack from "../../src/domain/ContextPack.ts"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")

const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: "", timeout: 90_000 })

const PAGE = 4096

/** A repository of a few dozen notes, so the index spans many pages. */
const makeRepository = (prefix: string): string => {
  const root = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(root, "docs"))
  writeFileSync(join(root, "docs/rollback.md"), "# Rollback\n\n## Procedure\n\nDeploys roll back with `deployctl rollback` and a signed change ticket.\n")
  for (let i = 0; i < 40; i++) {
    const body = Array.from({ length: 30 }, (_, j) => `Service ${i} keeps ledger ${j} in region ${(i * 7 + j) % 13} under quota ${i * j}.`).join(" ")
    writeFileSync(join(root, `docs/service-${i}.md`), `# Service ${i}\n\n## Ledgers\n\n${body}\n\n## Queues\n\n${body.replaceAll("ledger", "queue")}\n`)
  }
  return root
}

const indexFile = (root: string) => join(root, ".cairn", "index.sqlite")

/** Overwrites pages of the file with a pattern, leaving its size, and (when asked) its mtime, as they were. */
const damagePages = (file: string, pages: ReadonlyArray<number>, options: { readonly keepMtime: boolean }) => {
  const before = statSync(file)
  const fd = openSync(file, "r+")
  try {
    const garbage = Buffer.alloc(PAGE - 200, 0xa5)
    for (const page of pages) writeSync(fd, garbage, 0, garbage.length, (page - 1) * PAGE + 100)
  } finally {
    closeSync(fd)
  }
  // In seconds with the fraction: a Date rounds to the nearest millisecond, which half the time is
  // not the whole millisecond the index's stamp recorded, and the damage would be seen at open.
  if (options.keepMtime) utimesSync(file, before.atimeMs / 1000, before.mtimeMs / 1000)
}

/** Where a table's b-tree starts, read before the damage. */
const rootPage = (file: string, table: string): number => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return Number((db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table) as { rootpage: number }).rootpage)
  } finally {
    db.close()
  }
}

const pageCount = (file: string): number => Math.floor(statSync(file).size / PAGE)

const integrity = (file: string): string => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return String((db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check)
  } finally {
    db.close()
  }
}

const ask = (root: string, ...flags: ReadonlyArray<string>) => run(["ask", "how do deploys roll back?", "--root", root, "--json", ...flags])

/** `ask` answered from the rollback note. */
const answers = (result: ReturnType<typeof run>) => {
  assert.strictEqual(result.status, 0, result.stderr)
  const pack = ContextPack.decodeWireSync(JSON.parse(result.stdout))
  assert.strictEqual(pack.claims[0]?.note, "docs/rollback.md")
  return pack
}

describe("a damaged index", () => {
  it("index - pages overwritten: status reports it, ask --no-refresh fails naming it, index rebuilds into a new file and swaps it in", () => {
    const root = makeRepository("cairn-damage-")
    try {
      const built = run(["index", "--root", root])
      assert.strictEqual(built.status, 0, built.stderr)
      const file = indexFile(root)
      const pages = pageCount(file)
      assert.isAbove(pages, 60)
      damagePages(file, Array.from({ length: Math.floor((pages - 2) / 5) }, (_, i) => 2 + i * 5), { keepMtime: false })

      const status = run(["status", "--root", root, "--json"])
      assert.strictEqual(status.status, 0, status.stderr)
      const report = JSON.parse(status.stdout) as { damaged: string | null }
      assert.isString(report.damaged)
      const text = run(["status", "--root", root])
      assert.match(text.stdout, /damaged.*cairn index/)

      const refused = ask(root, "--no-refresh")
      assert.strictEqual(refused.status, 1, refused.stdout)
      assert.match(refused.stderr, /^cairn: DatabaseError: index \S+ is damaged .*run `cairn index`/)

      const repaired = run(["index", "--root", root])
      assert.strictEqual(repaired.status, 0, repaired.stderr)
      assert.match(repaired.stderr, /damaged/)
      assert.match(repaired.stdout, /indexed 41 files.*replaced the damaged index/)
      assert.strictEqual(integrity(file), "ok")
      assert.isNull((JSON.parse(run(["status", "--root", root, "--json"]).stdout) as { damaged: string | null }).damaged)
      answers(ask(root, "--no-refresh"))
      // Nothing of the rebuild is left beside the index.
      assert.deepStrictEqual(readdirSync(join(root, ".cairn")).filter((name) => name.startsWith("index.sqlite.") && !name.endsWith(".stamp")), [])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 300_000)

  it("index --rebuild - a truncated file is rebuilt, where it failed with 'malformed' before", () => {
    const root = makeRepository("cairn-truncated-")
    try {
      assert.strictEqual(run(["index", "--root", root]).status, 0)
      const file = indexFile(root)
      truncateSync(file, Math.floor(pageCount(file) / 2) * PAGE)
      const rebuilt = run(["index", "--rebuild", "--root", root])
      assert.strictEqual(rebuilt.status, 0, rebuilt.stderr)
      assert.match(rebuilt.stdout, /replaced the damaged index/)
      assert.strictEqual(integrity(file), "ok")
      answers(ask(root, "--no-refresh"))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 300_000)

  it("ask - damage the open check cannot see (size and mtime kept) costs the dense leg a gap, never silence; ask with refresh repairs it", () => {
    const root = makeRepository("cairn-dense-damage-")
    try {
      assert.strictEqual(run(["index", "--root", root]).status, 0)
      const file = indexFile(root)
      assert.isFalse(existsSync(`${file}-wal`))
      // The vector space's and the model's first pages: the dense leg cannot be restored.
      damagePages(file, [rootPage(file, "vector_space"), rootPage(file, "lsa_terms")], { keepMtime: true })

      const pack = answers(ask(root, "--no-refresh"))
      assert.isTrue(pack.gaps.some((gap) => gap.reason === "leg_failed" && gap.text.includes("dense")), JSON.stringify(pack.gaps))
      assert.isTrue(pack.partial)

      const refreshed = ask(root)
      const fresh = answers(refreshed)
      assert.match(refreshed.stderr, /damaged/)
      assert.isFalse(fresh.gaps.some((gap) => gap.reason === "leg_failed"), JSON.stringify(fresh.gaps))
      assert.strictEqual(integrity(file), "ok")
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 300_000)
})
