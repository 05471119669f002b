import { assert, describe, it } from "@effect/vitest"
import type { ChunkId } from "../domain/Chunk.ts"
import { fuse, type RankedList } from "./fuse.ts"

const ids = (...names: Array<string>) => names as Array<ChunkId>
const list = (leg: string, names: Array<string>, requested = 50): RankedList => ({ leg, ids: ids(...names), requested })
const options = { rrfK: 60, rrfAbsentRankOffset: 1, fusedLimit: 60 }

/** Fifty distinct ids, `prefix-1` … `prefix-50`. */
const fifty = (prefix: string) => Array.from({ length: 50 }, (_, i) => `${prefix}-${i + 1}`)

describe("fuse", () => {
  it("rank 1 of one full list and absent from another full list scores 1/61 + 1/111", () => {
    const [top] = fuse([list("lexical", fifty("a")), list("dense", fifty("b"))], options)
    // Absent rank = max(50, 50) + 1 = 51, so 1/(60+1) + 1/(60+51) = 172/6771 ≈ 0.025402.
    assert.strictEqual(top?.id, "a-1")
    assert.closeTo(top!.rrf, 172 / 6771, 1e-15)
  })

  it("rank 1 of both lists beats rank 1 of one; rank 50 of both sits between", () => {
    const both = fuse([list("lexical", ["x", ...fifty("a").slice(1)]), list("dense", ["x", ...fifty("b").slice(1)])], options)
    assert.closeTo(both.find((f) => f.id === "x")!.rrf, 2 / 61, 1e-15)
    const bottom = fuse(
      [list("lexical", [...fifty("a").slice(0, 49), "y"]), list("dense", [...fifty("b").slice(0, 49), "y"])],
      { ...options, fusedLimit: 200 }
    )
    assert.closeTo(bottom.find((f) => f.id === "y")!.rrf, 2 / 110, 1e-15)
    assert.isTrue(2 / 110 < 172 / 6771 && 172 / 6771 < 2 / 61)
  })

  it("absence is measured against the requested limit when the list came back short", () => {
    const [top] = fuse([list("lexical", ["a"], 50), list("dense", ["b"], 50)], options)
    assert.closeTo(top!.rrf, 1 / 61 + 1 / 111, 1e-15)
  })

  it("an empty list contributes nothing, not even absence", () => {
    const alone = fuse([list("lexical", ["a", "b"])], options)
    const withEmpty = fuse([list("lexical", ["a", "b"]), list("dense", [])], options)
    assert.deepStrictEqual(withEmpty, alone)
    assert.closeTo(alone[0]!.rrf, 1 / 61, 1e-15)
  })

  it("an infinite offset is textbook RRF", () => {
    const fused = fuse([list("lexical", ["a", "b"]), list("dense", ["b", "c"])], { ...options, rrfAbsentRankOffset: Infinity })
    assert.deepStrictEqual(fused.map((f) => [f.id, f.rrf]), [["b", 1 / 62 + 1 / 61], ["a", 1 / 61], ["c", 1 / 62]])
  })

  it("ties break by chunk id, ranks are recorded per leg, a repeated id keeps its first rank", () => {
    const fused = fuse([list("lexical", ["z", "m", "z"]), list("dense", ["m", "z"])], { ...options, rrfAbsentRankOffset: Infinity })
    assert.deepStrictEqual(fused.map((f) => f.id), ["m", "z"])
    assert.deepStrictEqual(fused[1]!.ranks, { dense: 2, lexical: 1 })
  })

  it("a list's weight scales its reciprocal ranks and its absence alike", () => {
    const fused = fuse([list("first", ["a", "b"], 2), { ...list("second", ["b"], 2), weight: 0.5 }], options)
    const score = new Map(fused.map((entry) => [entry.id, entry.rrf]))
    // a: 1/61 + 0.5/(60 + 2 + 1); b: 1/62 + 0.5/61.
    assert.closeTo(score.get("a" as ChunkId)!, 1 / 61 + 0.5 / 63, 1e-15)
    assert.closeTo(score.get("b" as ChunkId)!, 1 / 62 + 0.5 / 61, 1e-15)
    // Counted in full the second list would put b first; at half it cannot overturn the first's order.
    assert.deepStrictEqual(fused.map((entry) => entry.id), ["a", "b"])
    assert.deepStrictEqual(fuse([list("first", ["a", "b"], 2), list("second", ["b"], 2)], options).map((entry) => entry.id), ["b", "a"])
  })

  it("keeps fusedLimit", () => {
    assert.strictEqual(fuse([list("lexical", fifty("a"))], { ...options, fusedLimit: 7 }).length, 7)
  })
})
