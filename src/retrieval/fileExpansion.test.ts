import { assert, describe, it } from "@effect/vitest"
import { expandFiles } from "./fileExpansion.ts"

const weights = { imports: 0.6, calls: 1 }
const edge = (from: string, to: string, verb: string) => ({ from, to, verb })

describe("expandFiles", () => {
  it("scores seed weight × edge weight / √degree, the strongest edge of a pair, either direction", () => {
    const found = expandFiles([{ path: "a.ts", weight: 1 }], [
      edge("a.ts", "b.ts", "imports"),
      edge("a.ts", "b.ts", "calls"),
      edge("c.ts", "a.ts", "imports"),
      edge("a.ts", "d.ts", "mentions"),
      edge("a.ts", "a.ts", "calls")
    ], { weights, limit: 20 })
    // Two neighbours (b twice over, c), so √2; mentions is not a way across, nor a loop.
    assert.deepStrictEqual(found.map((e) => [e.path, e.via]), [["b.ts", "a.ts"], ["c.ts", "a.ts"]])
    assert.closeTo(found[0]!.score, 1 / Math.SQRT2, 1e-12)
    assert.closeTo(found[1]!.score, 0.6 / Math.SQRT2, 1e-12)
  })

  it("a file beside several seeds keeps its best score, never the sum; a hub's neighbours get little", () => {
    const hub = Array.from({ length: 16 }, (_, i) => edge("hub.ts", `n${i}.ts`, "calls"))
    const found = expandFiles([{ path: "hub.ts", weight: 1 }, { path: "small.ts", weight: 0.5 }], [
      ...hub,
      edge("small.ts", "n3.ts", "calls")
    ], { weights, limit: 20 })
    const n3 = found.find((e) => e.path === "n3.ts")!
    assert.strictEqual(n3.via, "small.ts")
    assert.closeTo(n3.score, 0.5, 1e-12)
    assert.closeTo(found.find((e) => e.path === "n4.ts")!.score, 1 / 4, 1e-12)
    assert.strictEqual(found[0]?.path, "n3.ts")
  })

  it("weighs each neighbour by its own factor, keeps the limit, and ties break by path", () => {
    const found = expandFiles([{ path: "a.ts", weight: 1 }], [
      edge("a.ts", "z.ts", "calls"),
      edge("a.ts", "y.ts", "calls"),
      edge("a.test.ts", "a.ts", "calls")
    ], { weights, limit: 2, weigh: (path) => (path.includes(".test.") ? 0.5 : 1) })
    assert.deepStrictEqual(found.map((e) => e.path), ["y.ts", "z.ts"])
    assert.deepStrictEqual(expandFiles([], [edge("a.ts", "b.ts", "calls")], { weights, limit: 5 }), [])
    assert.deepStrictEqual(expandFiles([{ path: "a.ts", weight: 1 }], [edge("a.ts", "b.ts", "calls")], { weights, limit: 0 }), [])
  })
})
