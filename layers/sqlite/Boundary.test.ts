/**
 * The SQLite backends stand on the ports alone: no source file here imports the reference
 * backends (their tests may, to compare against them).
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

const sources = (dir: string): Array<string> =>
  NodeFs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = NodePath.join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : []
  })

describe("layers/sqlite", () => {
  it("imports - no source file reaches into layers/reference", () => {
    const files = sources(import.meta.dirname)
    assert.isAtLeast(files.length, 10)
    for (const file of files) {
      const imports = [...NodeFs.readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!)
      assert.isTrue(imports.length > 0, file)
      for (const specifier of imports) {
        const resolved = specifier.startsWith(".") ? NodePath.resolve(NodePath.dirname(file), specifier) : specifier
        assert.notInclude(resolved, `${NodePath.sep}layers${NodePath.sep}reference${NodePath.sep}`, `${file} imports ${specifier}`)
      }
    }
  })
})
