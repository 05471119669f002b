import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { modules, snapshotOf } from "../../test/graph/snapshot.ts"
import { importGraph } from "./Build.ts"
import { brandesFrom, centrality } from "./Centrality.ts"
import { betweenness } from "./Graphology.ts"

// l1 → l2, l1 and l2 → bridge, bridge → r1 and r2, r1 → r2. Every shortest path from the left
// pair to the right pair (four ordered pairs, one path each) runs through the bridge and no other
// path has an interior node, so over (n - 1)(n - 2) = 12 ordered pairs the bridge scores 4/12.
const bridge = snapshotOf({
  entities: modules("src/l1.ts", "src/l2.ts", "src/bridge.ts", "src/r1.ts", "src/r2.ts"),
  relations: [
    ["module:src/l1.ts", "imports", "module:src/l2.ts"],
    ["module:src/l1.ts", "imports", "module:src/bridge.ts"],
    ["module:src/l2.ts", "re-exports", "module:src/bridge.ts"],
    ["module:src/bridge.ts", "imports", "module:src/r1.ts"],
    ["module:src/bridge.ts", "imports", "module:src/r2.ts"],
    ["module:src/r1.ts", "imports", "module:src/r2.ts"]
  ]
})

describe("centrality", () => {
  it.effect("a bridge module - the highest betweenness, 4/12, exactly computed", () =>
    Effect.gen(function*() {
      const result = yield* centrality(bridge)
      assert.strictEqual(result.method, "exact")
      assert.strictEqual(result.nodes, 5)
      assert.strictEqual(result.sources, 5)
      assert.deepStrictEqual(result.scores[0], { id: "module:src/bridge.ts", score: 0.333333 })
      assert.deepStrictEqual(result.scores.slice(1).map((score) => score.score), [0, 0, 0, 0])
    }))

  it.effect("type-only imports, mentions and contains are no paths; an isolated module still counts as a node", () =>
    Effect.gen(function*() {
      const snapshot = snapshotOf({
        entities: [...modules("src/a.ts", "src/b.ts", "src/c.ts", "src/lonely.ts"), "document:docs/x.md", "area:src"],
        relations: [
          ["module:src/a.ts", "imports-type", "module:src/b.ts"],
          ["module:src/b.ts", "imports", "module:src/c.ts"],
          ["document:docs/x.md", "mentions", "module:src/b.ts"],
          ["area:src", "contains", "module:src/b.ts"]
        ]
      })
      const result = yield* centrality(snapshot)
      assert.strictEqual(result.nodes, 4)
      assert.isTrue(result.scores.every((score) => score.score === 0))
    }))

  it.effect("above the threshold - a seeded estimate that says so and names its sample size", () =>
    Effect.gen(function*() {
      const options = { exactBetweennessMaxNodes: 2, betweennessSamples: 3, seed: 7 }
      const first = yield* centrality(bridge, options)
      const again = yield* centrality(bridge, options)
      assert.strictEqual(first.method, "estimate")
      assert.strictEqual(first.sources, 3)
      assert.strictEqual(first.nodes, 5)
      assert.deepStrictEqual(again, first)
      // A sample of every node is no sample: the answer is exact.
      const all = yield* centrality(bridge, { exactBetweennessMaxNodes: 2, betweennessSamples: 5 })
      assert.strictEqual(all.method, "exact")
    }))

  it("Brandes from every source reproduces graphology's exact betweenness", () => {
    const graph = importGraph(bridge, { includeExternal: false, includeUnresolved: false })
    const raw = brandesFrom(graph, graph.nodes().map((_, index) => index))
    const exact = betweenness(graph, { getEdgeWeight: null, normalized: false })
    assert.deepStrictEqual(graph.nodes().map((id, index) => raw[index]), graph.nodes().map((id) => exact[id]))
    assert.strictEqual(raw[graph.nodes().indexOf("module:src/bridge.ts")], 4)
  })

  it.effect("external packages are left out unless asked for", () =>
    Effect.gen(function*() {
      const snapshot = snapshotOf({
        entities: [...modules("src/a.ts"), "external:lodash"],
        relations: [["module:src/a.ts", "imports", "external:lodash"]]
      })
      assert.strictEqual((yield* centrality(snapshot)).nodes, 1)
      assert.strictEqual((yield* centrality(snapshot, { includeExternal: true })).nodes, 2)
    }))
})
