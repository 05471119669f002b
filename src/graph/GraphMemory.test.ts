import { assert, describe, it } from "@effect/vitest"
import { entity, relation, snapshotOf } from "../../test/graph/snapshot.ts"
import { graphMemory } from "./GraphMemory.ts"

const snapshot = snapshotOf({
  entities: ["module:src/a.ts", "module:src/b.ts", "module:src/c.ts", "document:docs/a.md", "area:src"],
  relations: [
    ["module:src/a.ts", "imports", "module:src/b.ts"],
    ["module:src/b.ts", "imports", "module:src/c.ts"],
    ["document:docs/a.md", "covers", "module:src/a.ts"],
    ["area:src", "contains", "module:src/a.ts"],
    ["module:src/c.ts", "imports", "unresolved:./gone"]
  ]
})

const ids = (nodes: ReadonlyArray<{ readonly node: { readonly id: string }; readonly hops: number }>) => nodes.map(({ hops, node }) => `${hops} ${node.id}`)

describe("graphMemory", () => {
  it("reads the snapshot: nodes by id, edges by label and end, neighbours by depth", () => {
    const memory = graphMemory(snapshot)
    assert.deepStrictEqual(memory.getNode("module:src/a.ts"), {
      id: "module:src/a.ts",
      label: "module",
      properties: { path: "src/a.ts", evidence: [{ path: "src/a.ts" }], language: "ts", exports: [], declarations: [] },
      origin: "snapshot"
    })
    assert.strictEqual(memory.getNode("module:src/nope.ts"), undefined)
    assert.deepStrictEqual(memory.findEdges({ label: "covers", to: "module:src/a.ts" }), [
      {
        label: "covers",
        from: "document:docs/a.md",
        to: "module:src/a.ts",
        properties: { status: "observed", confidence: "exact", evidence: [{ path: "docs/a.md", line: 3 }] },
        origin: "snapshot"
      }
    ])
    assert.deepStrictEqual(memory.findEdges({ from: "module:src/b.ts" }).map((edge) => edge.to), ["module:src/c.ts"])
    assert.strictEqual(memory.findEdges().length, 5)
    assert.deepStrictEqual(ids(memory.neighbors("module:src/a.ts")), ["1 area:src", "1 document:docs/a.md", "1 module:src/b.ts"])
    assert.deepStrictEqual(ids(memory.neighbors("module:src/a.ts", { depth: 2, labels: ["imports"] })), ["1 module:src/b.ts", "2 module:src/c.ts"])
    assert.deepStrictEqual(ids(memory.neighbors("module:src/b.ts", { direction: "out", depth: 5 })), ["1 module:src/c.ts"])
  })

  it("an overlay given at construction sits above the snapshot and says so", () => {
    const memory = graphMemory(snapshot, {
      entities: [entity("module:src/a.ts"), entity("document:docs/extra.md")],
      relations: [relation(["document:docs/extra.md", "explains", "module:src/b.ts"], 9)]
    })
    assert.strictEqual(memory.getNode("module:src/a.ts")?.origin, "overlay")
    assert.strictEqual(memory.getNode("module:src/a.ts")?.shadows, "snapshot")
    assert.strictEqual(memory.getNode("document:docs/extra.md")?.shadows, undefined)
    assert.deepStrictEqual(memory.findEdges({ to: "module:src/b.ts" }).map((edge) => [edge.label, edge.origin]), [
      ["explains", "overlay"],
      ["imports", "snapshot"]
    ])
  })

  it("writes land in the working layer, marked as such; the snapshot is untouched", () => {
    const before = structuredClone(snapshot)
    const memory = graphMemory(snapshot)
    const note = memory.upsertNode({ id: "note:1", label: "note", properties: { text: "b looks dead" } })
    assert.deepStrictEqual(note, { id: "note:1", label: "note", properties: { text: "b looks dead" }, origin: "working" })
    const annotated = memory.upsertNode({ id: "module:src/b.ts", label: "module", properties: { suspect: true } })
    assert.strictEqual(annotated.origin, "working")
    assert.strictEqual(annotated.shadows, "snapshot")
    const edge = memory.upsertEdge({ label: "about", from: "note:1", to: "module:src/b.ts" })
    assert.strictEqual(edge.origin, "working")
    assert.deepStrictEqual(ids(memory.neighbors("module:src/b.ts")), ["1 module:src/a.ts", "1 module:src/c.ts", "1 note:1"])
    const imports = memory.upsertEdge({ label: "imports", from: "module:src/a.ts", to: "module:src/b.ts", properties: { checked: true } })
    assert.deepStrictEqual([imports.origin, imports.shadows], ["working", "snapshot"])
    assert.deepStrictEqual(snapshot, before)
  })

  it("deleteNode masks rather than erases; clear() drops the working layer and brings it back", () => {
    const memory = graphMemory(snapshot)
    memory.upsertEdge({ label: "about", from: "module:src/c.ts", to: "module:src/b.ts" })
    memory.deleteNode("module:src/b.ts")
    assert.strictEqual(memory.getNode("module:src/b.ts"), undefined)
    assert.deepStrictEqual(memory.findEdges({ to: "module:src/b.ts" }), [])
    assert.deepStrictEqual(memory.findEdges({ from: "module:src/b.ts" }), [])
    assert.deepStrictEqual(ids(memory.neighbors("module:src/a.ts", { depth: 3, labels: ["imports"] })), [])
    assert.deepStrictEqual(ids(memory.neighbors("module:src/b.ts")), [])
    // Written again after the delete, the node is the caller's alone: nothing below shows through.
    const rewritten = memory.upsertNode({ id: "module:src/b.ts", label: "guess" })
    assert.deepStrictEqual(rewritten, { id: "module:src/b.ts", label: "guess", properties: {}, origin: "working" })
    assert.deepStrictEqual(memory.findEdges({ to: "module:src/b.ts" }), [])
    memory.clear()
    assert.strictEqual(memory.getNode("module:src/b.ts")?.origin, "snapshot")
    assert.deepStrictEqual(memory.findEdges({ to: "module:src/b.ts" }).map((edge) => [edge.from, edge.origin]), [["module:src/a.ts", "snapshot"]])
    assert.strictEqual(memory.findEdges().length, 5)
  })

  it("an unresolved reference is an edge but no node, so a walk stops there", () => {
    const memory = graphMemory(snapshot)
    assert.strictEqual(memory.findEdges({ to: "unresolved:./gone" }).length, 1)
    assert.deepStrictEqual(ids(memory.neighbors("module:src/c.ts", { direction: "out" })), [])
  })
})
