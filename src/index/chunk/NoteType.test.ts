import { assert, describe, it } from "@effect/vitest"
import { fromPath, noteTypeOf } from "./NoteType.ts"

describe("NoteType", () => {
  it("fromPath - each rule of the table, and `note` when none applies", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["docs/decisions/0003-queue.md", "decision"],
      ["docs/adr/0001-use-sqlite.md", "decision"],
      ["architecture/ADR-0007.md", "decision"],
      ["docs/conventions/testing.md", "convention"],
      ["CONTRIBUTING.md", "convention"],
      ["docs/style-guide.md", "convention"],
      ["STYLE.md", "convention"],
      ["ops/runbooks/restart.md", "reference"],
      ["docs/how-to-release.md", "reference"],
      ["docs/howto/backup.md", "reference"],
      ["team/status/2026-q1.md", "state"],
      ["ROADMAP.md", "state"],
      ["src/index/chunk/ChunkFile.ts", "code"],
      ["scripts/deploy.py", "code"],
      ["docs/guide.md", "note"],
      ["README.md", "note"],
      ["docs/stylesheet-notes.md", "note"],
      ["docs/adrenaline.md", "note"]
    ]
    assert.deepStrictEqual(cases.map(([path]) => [path, fromPath(path)]), cases.map(([path, type]) => [path, type]))
  })

  it("fromPath - a source file is code even under a folder a rule names", () => {
    assert.strictEqual(fromPath("docs/decisions/check.ts"), "code")
  })

  it("noteTypeOf - a frontmatter type that names a kind wins over the path; an unknown one does not", () => {
    assert.strictEqual(noteTypeOf("docs/guide.md", "ADR"), "decision")
    assert.strictEqual(noteTypeOf("docs/guide.md", "runbook"), "reference")
    assert.strictEqual(noteTypeOf("docs/decisions/x.md", "meeting-notes"), "decision")
    assert.strictEqual(noteTypeOf("docs/decisions/x.md", "constructor"), "decision")
    assert.strictEqual(noteTypeOf("docs/decisions/x.md", undefined), "decision")
  })
})
