import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Triple } from "../../test/graph/snapshot.ts"
import { snapshotOf } from "../../test/graph/snapshot.ts"
import { areaSuggestions, commonDirectory } from "./AreaSuggestions.ts"

const clique = (directory: string, names: ReadonlyArray<string>): Array<Triple> =>
  names.flatMap((from, i) => names.slice(i + 1).map((to): Triple => [`module:${directory}/${from}.ts`, "imports", `module:${directory}/${to}.ts`]))

const NAMES = ["p", "q", "r", "s"]

// Two cliques of four modules (six imports each) joined by a single import: the two obvious
// communities, each living in a directory below the configured area depth.
const twoCommunities = (areas: ReadonlyArray<string>) =>
  snapshotOf({
    entities: [
      ...NAMES.map((name) => `module:src/core/alpha/${name}.ts`),
      ...NAMES.map((name) => `module:src/core/beta/${name}.ts`),
      ...areas.map((area) => `area:${area}`)
    ],
    relations: [
      ...clique("src/core/alpha", NAMES),
      ...clique("src/core/beta", NAMES),
      ["module:src/core/alpha/s.ts", "imports", "module:src/core/beta/p.ts"]
    ]
  })

describe("area suggestions", () => {
  it.effect("two obvious communities - one not-analyzed coverage entry per directory, with its counts", () =>
    Effect.gen(function*() {
      const suggestions = yield* areaSuggestions(twoCommunities(["src", "src/core"]))
      assert.deepStrictEqual(suggestions, [
        {
          analyzer: "graph",
          scope: "area-suggestion:src/core/alpha",
          status: "not-analyzed",
          reason: "a Louvain community of 4 modules under src/core/alpha (6 import relations among them, 1 crossing out); a suggestion, not an area"
        },
        {
          analyzer: "graph",
          scope: "area-suggestion:src/core/beta",
          status: "not-analyzed",
          reason: "a Louvain community of 4 modules under src/core/beta (6 import relations among them, 1 crossing out); a suggestion, not an area"
        }
      ])
    }))

  it.effect("a directory that already is an area produces no suggestion", () =>
    Effect.gen(function*() {
      const suggestions = yield* areaSuggestions(twoCommunities(["src", "src/core", "src/core/beta"]))
      assert.deepStrictEqual(suggestions.map((entry) => entry.scope), ["area-suggestion:src/core/alpha"])
    }))

  it.effect("communities below the size floor, or spanning the root, produce none", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* areaSuggestions(twoCommunities([]), { minSuggestionModules: 5 }), [])
      const spread = snapshotOf({
        entities: ["module:a.ts", "module:lib/b.ts", "module:src/c.ts"],
        relations: [["module:a.ts", "imports", "module:lib/b.ts"], ["module:lib/b.ts", "imports", "module:src/c.ts"], ["module:src/c.ts", "imports", "module:a.ts"]]
      })
      assert.deepStrictEqual(yield* areaSuggestions(spread), [])
    }))

  it.effect("seeded - the same snapshot and seed give the same suggestions every run", () =>
    Effect.gen(function*() {
      const snapshot = twoCommunities([])
      const runs = yield* Effect.all([areaSuggestions(snapshot, { seed: 3 }), areaSuggestions(snapshot, { seed: 3 })])
      assert.deepStrictEqual(runs[0], runs[1])
    }))

  it("commonDirectory - the deepest shared directory, by whole segments", () => {
    assert.strictEqual(commonDirectory(["src/ab/x.ts", "src/ab/y/z.ts"]), "src/ab")
    assert.strictEqual(commonDirectory(["src/ab/x.ts", "src/abc/y.ts"]), "src")
    assert.strictEqual(commonDirectory(["a.ts", "src/b.ts"]), "")
  })
})
