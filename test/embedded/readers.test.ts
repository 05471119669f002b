/**
 * `ask` beside another process writing the index, through the command line: while that process
 * holds the write lock, or commits a rebuild with another embedder under the refresh, `ask`
 * answers from the committed index and says it is stale, where it used to fail with the writer's
 * error. The other process is this test's own connection to the file.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as ContextPack from "../../src/domain/ContextPack.ts"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")

const makeRepository = (prefix: string): string => {
  const root = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(root, "docs"))
  writeFileSync(join(root, "docs/rollback.md"), "# Rollback\n\n## Procedure\n\nDeploys roll back with `deployctl rollback` and a signed change ticket.\n")
  for (let i = 0; i < 8; i++) {
    writeFileSync(join(root, `docs/service-${i}.md`), `# Service ${i}\n\n## Ledgers\n\nService ${i} keeps its ledgers in region ${i} under quota ${i * 3}.\n`)
  }
  const built = spawnSync(process.execPath, [cli, "index", "--root", root], { encoding: "utf8", timeout: 90_000 })
  assert.strictEqual(built.status, 0, built.stderr)
  return root
}

interface Finished {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `ask` (refreshing first) in its own process; `onStderr` hears its standard error as it comes. */
const askRefreshing = (root: string, onStderr: (text: string) => void = () => {}): Promise<Finished> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "ask", "how do deploys roll back?", "--root", root, "--json"], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()))
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString()
      onStderr(stderr)
    })
    child.on("close", (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
  })

/** Answered from the committed build, which has not seen the edit, and saying so. */
const answeredStale = (result: Finished) => {
  assert.strictEqual(result.status, 0, result.stderr)
  const pack = ContextPack.decodeWireSync(JSON.parse(result.stdout))
  assert.strictEqual(pack.claims[0]?.note, "docs/rollback.md")
  assert.notInclude(pack.claims[0]?.text ?? "", "two approvers")
  assert.strictEqual(pack.indexHealth.filesChanged, 1)
  assert.isTrue(pack.gaps.some((gap) => gap.reason === "index_incomplete"), JSON.stringify(pack.gaps))
  assert.match(result.stderr, /could not refresh the index .*answering from the last committed build/)
}

describe("ask beside a writer", () => {
  it("ask - another process holding the write lock: the answer comes from the committed index, marked stale", async () => {
    const root = makeRepository("cairn-locked-")
    const other = new DatabaseSync(join(root, ".cairn", "index.sqlite"))
    try {
      appendFileSync(join(root, "docs/rollback.md"), "\nA rollback now needs two approvers.\n")
      other.exec("BEGIN IMMEDIATE")
      answeredStale(await askRefreshing(root))
    } finally {
      if (other.isTransaction) other.exec("ROLLBACK")
      other.close()
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it("ask - a rebuild with another embedder committed under the refresh: the answer comes from the committed index, marked stale", async () => {
    const root = makeRepository("cairn-rebuilt-")
    const other = new DatabaseSync(join(root, ".cairn", "index.sqlite"))
    try {
      appendFileSync(join(root, "docs/rollback.md"), "\nA rollback now needs two approvers.\n")
      other.exec("BEGIN IMMEDIATE")
      let committed = false
      const result = await askRefreshing(root, (stderr) => {
        // The refresh has embedded its chunks with the stored model and waits for the lock: the
        // other process commits a space of another model version first, as a rebuild does.
        if (committed || !/writing \d+ chunks/.test(stderr)) return
        committed = true
        other.exec("UPDATE vector_space SET embedding_version = embedding_version || '.next'")
        other.exec("UPDATE manifest SET embedder_version = embedder_version || '.next', generation = generation + 1")
        other.exec("COMMIT")
      })
      assert.isTrue(committed, result.stderr)
      answeredStale(result)
    } finally {
      if (other.isTransaction) other.exec("ROLLBACK")
      other.close()
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
