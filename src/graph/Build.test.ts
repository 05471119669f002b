import { assert, describe, it } from "@effect/vitest"
import { reorder, snapshotOf } from "../../test/graph/snapshot.ts"
import { directedGraph, kindsOf, undirectedGraph, undirectedOf } from "./Build.ts"

const snapshot = snapshotOf({
  entities: ["module:src/z.ts", "module:src/a.ts", "module:src/m.ts", "external:lodash"],
  relations: [
    ["module:src/z.ts", "imports", "module:src/a.ts"],
    ["module:src/a.ts", "imports", "unresolved:./gone"],
    ["module:src/m.ts", "imports", "external:lodash"],
    ["module:src/a.ts", "re-exports", "module:src/z.ts"],
    ["module:src/z.ts", "re-exports", "module:src/a.ts"]
  ]
})

const imports = kindsOf("imports", "re-exports")

describe("graph building", () => {
  it("nodes and edges in code-unit order whatever the snapshot order; externals and unresolved left out", () => {
    for (const input of [snapshot, reorder(snapshot, (items) => [...items].reverse())]) {
      const graph = directedGraph(input, { kinds: imports })
      assert.deepStrictEqual(graph.nodes(), ["module:src/a.ts", "module:src/z.ts"])
      assert.deepStrictEqual(graph.mapEdges((_, attributes, source, target) => [source, target, attributes.kinds, attributes.weight]), [
        ["module:src/a.ts", "module:src/z.ts", ["re-exports"], 1],
        ["module:src/z.ts", "module:src/a.ts", ["imports", "re-exports"], 2]
      ])
    }
  })

  it("asked for, externals and unresolved references become nodes; nodeKinds keeps isolated entities", () => {
    const graph = directedGraph(snapshot, { kinds: imports, includeExternal: true, includeUnresolved: true, nodeKinds: ["module"] })
    assert.deepStrictEqual(graph.nodes(), ["external:lodash", "module:src/a.ts", "module:src/m.ts", "module:src/z.ts", "unresolved:./gone"])
    assert.strictEqual(graph.getNodeAttribute("unresolved:./gone", "kind"), "unresolved")
  })

  it("undirected - relations either way merge into one edge weighted by their count", () => {
    const graph = undirectedGraph(snapshot, { kinds: imports })
    assert.strictEqual(graph.size, 1)
    assert.strictEqual(graph.getEdgeAttribute("module:src/a.ts", "module:src/z.ts", "weight"), 3)
  })

  it("undirectedOf - the undirected view of a directed graph equals projecting undirected directly, self-loops dropped", () => {
    const looped = snapshotOf({
      entities: snapshot.entities.map((entity) => entity.id),
      relations: [...snapshot.relations.map((r): readonly [string, string, string] => [r.from, r.kind, r.to]), ["module:src/m.ts", "imports", "module:src/m.ts"]]
    })
    const view = undirectedOf(directedGraph(looped, { kinds: imports, selfLoops: true }))
    const direct = undirectedGraph(looped, { kinds: imports })
    const edges = (graph: typeof view) => graph.mapEdges((_, attributes, source, target) => [source, target, attributes.kinds, attributes.weight])
    assert.deepStrictEqual(view.nodes(), ["module:src/a.ts", "module:src/m.ts", "module:src/z.ts"])
    assert.deepStrictEqual(edges(view), edges(direct))
    assert.deepStrictEqual(edges(view), [["module:src/a.ts", "module:src/z.ts", ["imports", "re-exports"], 3]])
  })
})
