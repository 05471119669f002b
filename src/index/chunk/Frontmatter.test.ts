import { assert, describe, it } from "@effect/vitest"
import { instant, readYaml, tags, text } from "./Frontmatter.ts"

describe("Frontmatter", () => {
  it("readYaml - a mapping, or empty for invalid YAML and for a list", () => {
    assert.deepStrictEqual(readYaml("title: A\nverified: true"), { title: "A", verified: true })
    assert.deepStrictEqual(readYaml("title: [unclosed"), {})
    assert.deepStrictEqual(readYaml("- a\n- b"), {})
  })

  it("text - trimmed strings and written scalars; absent when empty or structured", () => {
    assert.strictEqual(text({ a: "  x " }, "a"), "x")
    assert.strictEqual(text({ a: 3 }, "a"), "3")
    assert.isUndefined(text({ a: "  " }, "a"))
    assert.isUndefined(text({ a: ["x"] }, "a"))
  })

  it("tags - a list or a separated string, `#` dropped, duplicates once", () => {
    assert.deepStrictEqual(tags({ tags: ["ops", "#deploy", "ops", 7] }), ["ops", "deploy", "7"])
    assert.deepStrictEqual(tags({ tags: "ops, deploy #infra" }), ["ops", "deploy", "infra"])
    assert.deepStrictEqual(tags({}), [])
  })

  it("instant - dates, zoned date-times, YAML timestamps; a zoneless time keeps its UTC day; junk is absent", () => {
    assert.strictEqual(instant({ d: "2026-03-01" }, "d"), Date.UTC(2026, 2, 1))
    assert.strictEqual(instant({ d: "2026-03-01T10:00:00+02:00" }, "d"), Date.UTC(2026, 2, 1, 8))
    assert.strictEqual(instant({ d: "2026-03-01 10:00" }, "d"), Date.UTC(2026, 2, 1))
    assert.strictEqual(instant({ d: new Date(Date.UTC(2025, 0, 2)) }, "d"), Date.UTC(2025, 0, 2))
    assert.isUndefined(instant({ d: "last week" }, "d"))
    assert.isUndefined(instant({ d: "2026-02-30" }, "d"))
  })
})
