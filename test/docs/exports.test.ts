import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const repository = join(import.meta.dirname, "..", "..")

describe("package entry point", () => {
  it("resolves through the package name and exposes the packer and the counters", async () => {
    const cairn = await import("cairn")
    assert.isFunction(cairn.Pack.makePack)
    assert.strictEqual(cairn.TokenCounterDefault.counter.count("hello world"), 2)
    assert.strictEqual(cairn.RetrievalConfig.defaults.reportReserveTokens, 512)
  })

  it("a dependent resolves the modules docs/api.md imports, by Node's own rules", () => {
    // Node's resolver, not the test runner's, enforces the package's `exports` map: a path the map
    // leaves out fails with ERR_PACKAGE_PATH_NOT_EXPORTED, however the file sits on disk.
    const dependent = mkdtempSync(join(tmpdir(), "cairn-dependent-"))
    try {
      writeFileSync(join(dependent, "package.json"), JSON.stringify({ type: "module" }))
      mkdirSync(join(dependent, "node_modules"))
      symlinkSync(repository, join(dependent, "node_modules", "cairn"), "dir")
      const script = `
        const { openCairn } = await import("cairn/pipelines/openCairn")
        const { embedded } = await import("cairn/layers/Embedded")
        const { recall } = await import("cairn/pipelines/recall")
        const { createRecall } = await import("cairn/pipelines/api")
        const { counter } = await import("cairn/layers/tokens/TokenCounterDefault")
        console.log([openCairn, embedded, recall, createRecall].map((f) => typeof f).join(" "), counter.count("hello world"))`
      const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dependent, encoding: "utf8", timeout: 60_000 })
      assert.strictEqual(run.status, 0, run.stderr)
      assert.strictEqual(run.stdout.trim(), "function function function function 2")
    } finally {
      rmSync(dependent, { recursive: true, force: true })
    }
  }, 60_000)
})
