import { assert, describe, it } from "@effect/vitest"
import type { Triple } from "../../test/graph/snapshot.ts"
import { reorder, snapshotOf } from "../../test/graph/snapshot.ts"
import { importCycles } from "./Cycles.ts"
import { elementaryCycles } from "./ElementaryCycles.ts"

const NAMES = ["a", "b", "c", "d", "e"] as const

// Seven edges, three elementary cycles sharing edges: a→b→c→a, a→b→e→a and b→c→d→b (a→b is in
// two of them, b→c in two). Any other closed walk repeats a node.
const EDGES: ReadonlyArray<readonly [string, string]> = [["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"], ["d", "b"], ["b", "e"], ["e", "a"]]
const CYCLES = [["a", "b", "c"], ["a", "b", "e"], ["b", "c", "d"]]

const permutations = <A>(items: ReadonlyArray<A>): Array<Array<A>> =>
  items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))

const rotateToSmallest = (cycle: ReadonlyArray<string>): Array<string> => {
  const start = cycle.indexOf([...cycle].sort()[0]!)
  return [...cycle.slice(start), ...cycle.slice(0, start)]
}

const interlocking = (rename: (name: string) => string) =>
  snapshotOf({
    entities: NAMES.map((name) => `module:src/${rename(name)}.ts`),
    relations: EDGES.map(([from, to], i): Triple => [`module:src/${rename(from)}.ts`, i % 3 === 0 ? "re-exports" : "imports", `module:src/${rename(to)}.ts`])
  })

describe("import cycles", () => {
  it("three interlocking cycles - each found once, with every edge and the line that writes it", () => {
    const report = importCycles(interlocking((name) => name))
    assert.isFalse(report.truncated)
    assert.deepStrictEqual(report.cycles.map((cycle) => cycle.nodes.map((id) => id.slice(11, 12))), CYCLES)
    assert.deepStrictEqual(report.cycles[0]!.edges, [
      { from: "module:src/a.ts", to: "module:src/b.ts", kinds: ["re-exports"], lines: [1] },
      { from: "module:src/b.ts", to: "module:src/c.ts", kinds: ["imports"], lines: [2] },
      { from: "module:src/c.ts", to: "module:src/a.ts", kinds: ["imports"], lines: [3] }
    ])
  })

  it("from any entry point - every renaming of the five modules finds the same three cycles, smallest first", () => {
    for (const order of permutations(NAMES)) {
      const rename = (name: string) => order[NAMES.indexOf(name as (typeof NAMES)[number])]!
      const expected = CYCLES.map((cycle) => rotateToSmallest(cycle.map((name) => `module:src/${rename(name)}.ts`)))
        .sort((x, y) => (x.join() < y.join() ? -1 : 1))
      const snapshot = reorder(interlocking(rename), (items) => [...items].reverse())
      const found = importCycles(snapshot).cycles.map((cycle) => [...cycle.nodes])
      assert.deepStrictEqual(found, expected, `renaming ${order.join("")}`)
    }
  })

  it("a module importing itself is a cycle of one", () => {
    const snapshot = snapshotOf({
      entities: ["module:src/self.ts"],
      relations: [["module:src/self.ts", "imports", "module:src/self.ts"]]
    })
    assert.deepStrictEqual(importCycles(snapshot).cycles, [
      { nodes: ["module:src/self.ts"], edges: [{ from: "module:src/self.ts", to: "module:src/self.ts", kinds: ["imports"], lines: [1] }] }
    ])
  })

  it("type-only imports close no cycle", () => {
    const snapshot = snapshotOf({
      entities: ["module:src/a.ts", "module:src/b.ts"],
      relations: [["module:src/a.ts", "imports", "module:src/b.ts"], ["module:src/b.ts", "imports-type", "module:src/a.ts"]]
    })
    assert.deepStrictEqual(importCycles(snapshot).cycles, [])
  })

  it("the bound - a complete graph on five modules has 84 cycles; fewer allowed is a truncated report", () => {
    // Cycles of length k over 5 nodes: C(5, k)·(k - 1)!, so 10 + 20 + 30 + 24 = 84.
    const names = ["v", "w", "x", "y", "z"]
    const snapshot = snapshotOf({
      entities: names.map((name) => `module:${name}.ts`),
      relations: names.flatMap((from) => names.filter((to) => to !== from).map((to): Triple => [`module:${from}.ts`, "imports", `module:${to}.ts`]))
    })
    const all = importCycles(snapshot, { maxCycles: 84 })
    assert.strictEqual(all.cycles.length, 84)
    assert.isFalse(all.truncated)
    assert.strictEqual(new Set(all.cycles.map((cycle) => cycle.nodes.join(" "))).size, 84)
    const bounded = importCycles(snapshot, { maxCycles: 83 })
    assert.strictEqual(bounded.cycles.length, 83)
    assert.isTrue(bounded.truncated)
    assert.strictEqual(bounded.bound, 83)
  })

  it("elementaryCycles - a long ring is walked without recursion", () => {
    const n = 50_000
    const adjacency = Array.from({ length: n }, (_, i) => [(i + 1) % n])
    const search = elementaryCycles(adjacency, 10)
    assert.strictEqual(search.cycles.length, 1)
    assert.strictEqual(search.cycles[0]!.length, n)
  }, 30_000) // a ring of 50,000 modules
})
