import { assert, describe, it } from "@effect/vitest"
import { snapshotOf } from "../../test/graph/snapshot.ts"
import { areaDot } from "./AreaDot.ts"

describe("areaDot", () => {
  it("one box per area with its module count, one arrow per importing pair of areas with its relation count", () => {
    const snapshot = snapshotOf({
      entities: ["area:src", "area:src/a", "area:src/b", "module:src/a/x.ts", "module:src/a/y.ts", "module:src/b/z.ts", "module:main.ts", "external:lodash"],
      relations: [
        ["area:src", "contains", "area:src/a"],
        ["area:src", "contains", "area:src/b"],
        ["area:src/a", "contains", "module:src/a/x.ts"],
        ["area:src/a", "contains", "module:src/a/y.ts"],
        ["area:src/b", "contains", "module:src/b/z.ts"],
        ["module:src/a/x.ts", "imports", "module:src/b/z.ts"],
        ["module:src/a/y.ts", "re-exports", "module:src/b/z.ts"],
        ["module:src/a/x.ts", "imports", "module:src/a/y.ts"],
        ["module:main.ts", "imports", "module:src/a/x.ts"],
        ["module:main.ts", "imports", "external:lodash"]
      ]
    })
    assert.strictEqual(
      areaDot(snapshot),
      [
        "digraph areas {",
        "  rankdir=LR;",
        "  node [shape=box, fontname=\"Helvetica\"];",
        "  \".\" [label=\".\\n1 module\"];",
        "  \"src\" [label=\"src\\n0 modules\"];",
        "  \"src/a\" [label=\"src/a\\n2 modules\"];",
        "  \"src/b\" [label=\"src/b\\n1 module\"];",
        "  \".\" -> \"src/a\" [label=\"1\"];",
        "  \"src/a\" -> \"src/b\" [label=\"2\"];",
        "}"
      ].join("\n")
    )
  })
})
