import { assert, describe, it } from "@effect/vitest"
import { snapshotOf } from "../../test/graph/snapshot.ts"
import { proximity } from "./Proximity.ts"

// A chain that changes relation kind at every step, read in both directions:
// guide.md -links-to-> api.md -mentions-> src/api.ts -imports-> src/core.ts <-imports- src/util.ts
// and src/util.ts -imports-> lodash (external). Two modules of one area are joined only by `contains`.
const snapshot = snapshotOf({
  entities: [
    "document:docs/guide.md",
    "document:docs/api.md",
    "module:src/api.ts",
    "module:src/core.ts",
    "module:src/util.ts",
    "module:src/other.ts",
    "area:src",
    "external:lodash"
  ],
  relations: [
    ["document:docs/guide.md", "links-to", "document:docs/api.md"],
    ["document:docs/api.md", "mentions", "module:src/api.ts"],
    ["module:src/api.ts", "imports", "module:src/core.ts"],
    ["module:src/util.ts", "imports", "module:src/core.ts"],
    ["module:src/util.ts", "imports", "external:lodash"],
    ["area:src", "contains", "module:src/util.ts"],
    ["area:src", "contains", "module:src/other.ts"]
  ]
})

describe("proximity", () => {
  it("hops across kinds and directions, with the route walked", () => {
    const near = proximity(snapshot)
    assert.deepStrictEqual(near.between("document:docs/guide.md", "module:src/core.ts"), {
      hops: 3,
      path: ["document:docs/guide.md", "document:docs/api.md", "module:src/api.ts", "module:src/core.ts"]
    })
    assert.deepStrictEqual(near.between("module:src/core.ts", "module:src/core.ts"), { hops: 0, path: ["module:src/core.ts"] })
  })

  it("bounded - four hops apart is not near at the default of three, and is at five", () => {
    assert.strictEqual(proximity(snapshot).between("document:docs/guide.md", "module:src/util.ts"), undefined)
    assert.strictEqual(proximity(snapshot, { proximityMaxHops: 5 }).between("document:docs/guide.md", "module:src/util.ts")?.hops, 4)
  })

  it("contains is no route: two modules of one area are not near through it", () => {
    assert.strictEqual(proximity(snapshot, { proximityMaxHops: 10 }).between("module:src/util.ts", "module:src/other.ts"), undefined)
  })

  it("around - everything within the bound, nearest first; externals only when asked", () => {
    assert.deepStrictEqual(proximity(snapshot, { proximityMaxHops: 2 }).around("module:src/core.ts"), [
      { id: "module:src/api.ts", hops: 1 },
      { id: "module:src/util.ts", hops: 1 },
      { id: "document:docs/api.md", hops: 2 }
    ])
    assert.deepStrictEqual(
      proximity(snapshot, { proximityMaxHops: 2, includeExternal: true }).around("module:src/core.ts").map((near) => near.id),
      ["module:src/api.ts", "module:src/util.ts", "document:docs/api.md", "external:lodash"]
    )
  })
})
