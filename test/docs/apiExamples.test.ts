import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const repository = join(import.meta.dirname, "..", "..")

/** Every ```ts block of a page, in order. */
const examples = (page: string): ReadonlyArray<string> =>
  [...readFileSync(join(repository, page), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)

describe("docs/api.md", () => {
  const blocks = examples("docs/api.md")

  it("has examples, each importing cairn by its package name", () => {
    assert.isAtLeast(blocks.length, 4)
    for (const block of blocks) assert.match(block, /from "cairn"/)
  })

  // Each example runs as a user would run it: its own process, in a directory holding a
  // repository (a copy of the docs fixture), with `cairn` resolved to this checkout's sources.
  blocks.forEach((block, i) => {
    it(`example ${i + 1} runs as written: ${block.split("\n")[0]}`, () => {
      const scratch = mkdtempSync(join(tmpdir(), "cairn-api-example-"))
      try {
        const root = join(scratch, "repository")
        cpSync(join(repository, "test", "fixtures", "docs"), root, { recursive: true })
        const file = join(scratch, `example-${i + 1}.ts`)
        writeFileSync(file, block)
        // Examples that read the index expect one to exist, as after `cairn index`.
        const setup = spawnSync(process.execPath, [join(repository, "bin", "cairn.js"), "index", "--root", root], { encoding: "utf8", timeout: 120_000 })
        assert.strictEqual(setup.status, 0, setup.stderr)
        const run = spawnSync(process.execPath, ["--import", join(import.meta.dirname, "resolveFromRepository.mjs"), file], {
          cwd: root,
          encoding: "utf8",
          timeout: 120_000
        })
        assert.strictEqual(run.status, 0, `${run.stdout}\n${run.stderr}`)
        assert.notStrictEqual(run.stdout.trim(), "", "the example printed what it found")
        assert.notMatch(run.stderr, /Error|Warning/)
      } finally {
        rmSync(scratch, { recursive: true, force: true })
      }
    }, 180_000)
  })
})
