/**
 * The graph signals' invariants, over arbitrary small snapshots: the same snapshot in any order gives
 * identical signals; a cycle is listed from its smallest module, once, and every edge it cites is an
 * import the snapshot holds; Johnson's search finds exactly the cycles brute force finds; sampled
 * Brandes from every source is exact betweenness; proximity is the true shortest distance and never
 * exceeds its bound.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { canonicality } from "../src/graph/Canonicality.ts"
import { importGraph } from "../src/graph/Build.ts"
import { brandesFrom } from "../src/graph/Centrality.ts"
import { importCycles } from "../src/graph/Cycles.ts"
import { betweenness } from "../src/graph/Graphology.ts"
import { compareIds } from "../src/graph/Order.ts"
import { isProximityKind, proximity } from "../src/graph/Proximity.ts"
import { graphSignals } from "../src/graph/Signals.ts"
import type { Triple } from "../test/graph/snapshot.ts"
import { reorder, snapshotOf } from "../test/graph/snapshot.ts"
import { shuffle } from "./arbitraries.ts"

const RUNS = { numRuns: 200, seed: 20261130 }

// Upper-case and nested names on purpose: code-unit order puts `src/B.ts` before `src/a.ts`.
const MODULES = ["a.ts", "lib/b.ts", "src/B.ts", "src/a.ts", "src/x/e.ts", "src/x/f.ts", "src/x/g.ts", "src/y/h.ts", "src/y/i.ts", "src/y/j.ts", "src/y/k/l.ts"]
const DOCUMENTS = ["README.md", "docs/a.md", "docs/b.md", "docs/C.md", "docs/d/e.md"]
const AREAS = ["lib", "src", "src/x", "src/y"]
const EXTERNALS = ["external:lodash", "external:effect"]
const KINDS = ["imports", "re-exports", "imports-type", "links-to", "covers", "mentions", "depends-on", "contains", "relates_to"]

/**
 * Relations mostly of the shape discovery produces (imports between modules, links between
 * documents), dense enough for cycles and communities, with a share of arbitrary endpoints,
 * externals and unresolved references mixed in.
 */
const snapshotArbitrary = fc
  .record({
    modules: fc.subarray(MODULES, { minLength: 2 }),
    documents: fc.subarray(DOCUMENTS),
    areas: fc.subarray(AREAS),
    relations: fc.array(
      fc.tuple(fc.nat(), fc.oneof({ weight: 6, arbitrary: fc.constant("imports") }, { weight: 2, arbitrary: fc.constant("links-to") }, fc.constantFrom(...KINDS)), fc.nat(), fc.nat({ max: 9 })),
      { maxLength: 40 }
    )
  })
  .map(({ areas, documents, modules, relations }): Snapshot => {
    const moduleIds = modules.map((path) => `module:${path}`)
    const documentIds = documents.map((path) => `document:${path}`)
    const entities = [...moduleIds, ...documentIds, ...areas.map((path) => `area:${path}`), ...EXTERNALS]
    const anywhere = [...entities, "unresolved:./gone"]
    const seen = new Set<string>()
    const triples: Array<Triple> = []
    for (const [from, kind, to, shape] of relations) {
      // Nine in ten keep the natural shape for their kind; the rest may join anything to anything.
      const natural = shape > 0
      const shaped = natural && (kind === "imports" || kind === "re-exports") ? moduleIds : natural && documentIds.length > 0 && kind === "links-to" ? documentIds : undefined
      const sources = shaped ?? entities.slice(0, -EXTERNALS.length)
      const targets = shaped ?? anywhere
      const triple: Triple = [sources[from % sources.length]!, kind, targets[to % targets.length]!]
      if (seen.has(triple.join(" "))) continue
      seen.add(triple.join(" "))
      triples.push(triple)
    }
    return snapshotOf({ entities, relations: triples })
  })

const withOrder = fc.tuple(snapshotArbitrary, fc.nat())

/** Forces the sampled path, so the estimate's determinism is exercised too. */
const SAMPLED = { exactBetweennessMaxNodes: 1, betweennessSamples: 2, seed: 11 }

const isImport = (kind: string) => kind === "imports" || kind === "re-exports"

/** Every elementary cycle by brute force: extend simple paths from each start through larger nodes only. */
const bruteForceCycles = (snapshot: Snapshot): Set<string> => {
  const out = new Map<string, Set<string>>()
  for (const relation of snapshot.relations) {
    if (!isImport(relation.kind) || relation.to.startsWith("external:") || relation.to.startsWith("unresolved:")) continue
    const set = out.get(relation.from) ?? new Set()
    set.add(relation.to)
    out.set(relation.from, set)
  }
  const found = new Set<string>()
  const extend = (path: Array<string>) => {
    for (const next of out.get(path[path.length - 1]!) ?? []) {
      if (next === path[0]) found.add(path.join(" "))
      else if (compareIds(next, path[0]!) > 0 && !path.includes(next)) extend([...path, next])
    }
  }
  for (const start of out.keys()) extend([start])
  return found
}

/** Unbounded breadth-first distances over every relation but `contains`, both directions. */
const distancesFrom = (snapshot: Snapshot, from: string, includeExternal: boolean): Map<string, number> => {
  const internal = (id: string) => !id.startsWith("unresolved:") && (includeExternal || !id.startsWith("external:"))
  const adjacent = new Map<string, Set<string>>()
  const link = (a: string, b: string) => adjacent.set(a, (adjacent.get(a) ?? new Set()).add(b))
  for (const relation of snapshot.relations) {
    if (!isProximityKind(relation.kind) || relation.from === relation.to || !internal(relation.from) || !internal(relation.to)) continue
    link(relation.from, relation.to)
    link(relation.to, relation.from)
  }
  const distance = new Map([[from, 0]])
  let frontier = [from]
  while (frontier.length > 0) {
    const next: Array<string> = []
    for (const node of frontier) {
      for (const neighbour of adjacent.get(node) ?? []) {
        if (distance.has(neighbour)) continue
        distance.set(neighbour, distance.get(node)! + 1)
        next.push(neighbour)
      }
    }
    frontier = next
  }
  return distance
}

describe("graph signals", () => {
  it("a shuffled snapshot gives identical signals, exact and sampled", () => {
    fc.assert(
      fc.property(withOrder, ([snapshot, seed]) => {
        const shuffled = reorder(snapshot, (items) => shuffle(items, seed))
        const reversed = reorder(snapshot, (items) => [...items].reverse())
        for (const options of [{}, SAMPLED]) {
          const expected = Effect.runSync(graphSignals(snapshot, options))
          assert.deepStrictEqual(Effect.runSync(graphSignals(shuffled, options)), expected)
          assert.deepStrictEqual(Effect.runSync(graphSignals(reversed, options)), expected)
        }
        assert.deepStrictEqual([...canonicality(shuffled)], [...canonicality(snapshot)])
        const near = proximity(snapshot)
        const nearShuffled = proximity(shuffled)
        for (const entity of snapshot.entities) {
          assert.deepStrictEqual(nearShuffled.around(entity.id), near.around(entity.id))
          for (const other of snapshot.entities) assert.deepStrictEqual(nearShuffled.between(entity.id, other.id), near.between(entity.id, other.id))
        }
      }),
      RUNS
    )
  }, 60_000)

  it("cycles are rotated to their smallest module, listed once, and every edge they cite exists", () => {
    fc.assert(
      fc.property(snapshotArbitrary, (snapshot) => {
        const report = importCycles(snapshot)
        const imports = new Map<string, Array<string>>()
        for (const relation of snapshot.relations) {
          if (!isImport(relation.kind)) continue
          const key = `${relation.from} ${relation.to}`
          imports.set(key, [...(imports.get(key) ?? []), relation.kind].sort(compareIds))
        }
        const keys = new Set<string>()
        for (const cycle of report.cycles) {
          const smallest = [...cycle.nodes].sort(compareIds)[0]
          assert.strictEqual(cycle.nodes[0], smallest)
          assert.strictEqual(new Set(cycle.nodes).size, cycle.nodes.length, "elementary: no module twice")
          keys.add(cycle.nodes.join(" "))
          assert.strictEqual(cycle.edges.length, cycle.nodes.length)
          cycle.edges.forEach((edge, i) => {
            assert.strictEqual(edge.from, cycle.nodes[i])
            assert.strictEqual(edge.to, cycle.nodes[(i + 1) % cycle.nodes.length])
            assert.deepStrictEqual(edge.kinds, imports.get(`${edge.from} ${edge.to}`), `${edge.from} -> ${edge.to}`)
          })
        }
        assert.strictEqual(keys.size, report.cycles.length, "no cycle twice")
        if (!report.truncated) assert.deepStrictEqual(keys, bruteForceCycles(snapshot))
      }),
      RUNS
    )
  })

  it("a bounded search keeps a prefix of the full one and says it was cut", () => {
    fc.assert(
      fc.property(snapshotArbitrary, fc.nat({ max: 6 }), (snapshot, bound) => {
        const all = bruteForceCycles(snapshot)
        const report = importCycles(snapshot, { maxCycles: bound })
        assert.strictEqual(report.truncated, all.size > bound)
        assert.strictEqual(report.cycles.length, Math.min(bound, all.size))
        for (const cycle of report.cycles) assert.isTrue(all.has(cycle.nodes.join(" ")))
      }),
      RUNS
    )
  })

  it("Brandes from every source equals graphology's exact betweenness", () => {
    fc.assert(
      fc.property(snapshotArbitrary, (snapshot) => {
        const graph = importGraph(snapshot, { includeExternal: true, includeUnresolved: false })
        const raw = brandesFrom(graph, graph.nodes().map((_, index) => index))
        const exact = betweenness(graph, { getEdgeWeight: null, normalized: false })
        graph.nodes().forEach((id, index) => assert.closeTo(raw[index]!, exact[id]!, 1e-9))
      }),
      RUNS
    )
  })

  it("proximity is the true shortest distance when within its bound, and never exceeds it", () => {
    fc.assert(
      fc.property(snapshotArbitrary, fc.nat({ max: 4 }), fc.boolean(), (snapshot, bound, includeExternal) => {
        const near = proximity(snapshot, { proximityMaxHops: bound, includeExternal })
        const adjacent = new Set(
          snapshot.relations.filter((relation) => isProximityKind(relation.kind)).flatMap((relation) => [`${relation.from} ${relation.to}`, `${relation.to} ${relation.from}`])
        )
        for (const from of snapshot.entities) {
          const truth = distancesFrom(snapshot, from.id, includeExternal)
          for (const to of snapshot.entities) {
            const route = near.between(from.id, to.id)
            const distance = truth.get(to.id)
            if (distance === undefined || distance > bound) {
              assert.strictEqual(route, undefined)
              continue
            }
            assert.strictEqual(route?.hops, distance)
            assert.isAtMost(route!.hops, bound)
            assert.strictEqual(route!.path.length, route!.hops + 1)
            for (let i = 1; i < route!.path.length; i++) assert.isTrue(adjacent.has(`${route!.path[i - 1]} ${route!.path[i]}`))
          }
          for (const around of near.around(from.id)) {
            assert.isAtMost(around.hops, bound)
            assert.strictEqual(around.hops, truth.get(around.id))
          }
        }
      }),
      RUNS
    )
  }, 60_000)
})
