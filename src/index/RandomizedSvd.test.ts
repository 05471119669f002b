import { assert, describe, it } from "@effect/vitest"
import type { SparseRows } from "./RandomizedSvd.ts"
import { truncatedSvd } from "./RandomizedSvd.ts"

const sparse = (dense: ReadonlyArray<ReadonlyArray<number>>): SparseRows => {
  const rowStart = [0]
  const colIndex: Array<number> = []
  const values: Array<number> = []
  for (const row of dense) {
    row.forEach((v, c) => {
      if (v !== 0) {
        colIndex.push(c)
        values.push(v)
      }
    })
    rowStart.push(colIndex.length)
  }
  return {
    rows: dense.length,
    cols: dense[0]!.length,
    rowStart: Int32Array.from(rowStart),
    colIndex: Int32Array.from(colIndex),
    values: Float64Array.from(values)
  }
}

const column = (vectors: Float64Array, cols: number, rank: number, k: number): Array<number> =>
  Array.from({ length: cols }, (_, c) => vectors[c * rank + k]!)

// A pseudo-random sparse matrix from a fixed linear congruential sequence.
const generated = (rows: number, cols: number): Array<Array<number>> => {
  let state = 12345
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => (next() < 0.3 ? next() : 0)))
}

describe("RandomizedSvd", () => {
  it("truncatedSvd - recovers the singular values and vectors of a known matrix", () => {
    // A = U Σ Vᵀ with U, V signed permutations and Σ = diag(5, 3, 2): columns 2, 0, 1 carry σ.
    const a = sparse([
      [0, 0, 5, 0],
      [-3, 0, 0, 0],
      [0, 2, 0, 0],
      [0, 0, 0, 0]
    ])
    const svd = truncatedSvd(a, { rank: 3, oversampling: 2, powerIterations: 1, seed: 1 })
    Array.from(svd.values).forEach((v, i) => assert.approximately(v, [5, 3, 2][i]!, 1e-12))
    const expected = [[0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
    for (let k = 0; k < 3; k++) {
      column(svd.vectors, 4, 3, k).forEach((x, c) => assert.approximately(x, expected[k]![c]!, 1e-12))
    }
  })

  it("truncatedSvd - returns orthonormal vectors with ||A v|| = σ, and zeros past the matrix rank", () => {
    const dense = generated(40, 25)
    const a = sparse(dense)
    const rank = 8
    // Oversampling past the column count makes the range exact, so σ must be exact too.
    const svd = truncatedSvd(a, { rank, oversampling: 30, powerIterations: 1, seed: 9 })
    const approximate = truncatedSvd(a, { rank, oversampling: 10, powerIterations: 3, seed: 9 })
    for (let i = 0; i < rank; i++) {
      assert.approximately(approximate.values[i]!, svd.values[i]!, 1e-3 * svd.values[i]!)
      const vi = column(svd.vectors, 25, rank, i)
      for (let j = 0; j <= i; j++) {
        const vj = column(svd.vectors, 25, rank, j)
        assert.approximately(vi.reduce((s, x, c) => s + x * vj[c]!, 0), i === j ? 1 : 0, 1e-10)
      }
      const av = dense.map((row) => row.reduce((s, x, c) => s + x * vi[c]!, 0))
      assert.approximately(Math.hypot(...av), svd.values[i]!, 1e-8)
      if (i > 0) assert.isAtMost(svd.values[i]!, svd.values[i - 1]!)
    }
    const tiny = truncatedSvd(sparse([[1, 0, 0], [0, 1, 0]]), { rank: 3, oversampling: 2, powerIterations: 1, seed: 3 })
    assert.strictEqual(tiny.values[2], 0)
    assert.deepStrictEqual(column(tiny.vectors, 3, 3, 2), [0, 0, 0])
  })

  it("truncatedSvd - the same seed gives the same bits", () => {
    const a = sparse(generated(30, 20))
    const options = { rank: 5, oversampling: 5, powerIterations: 2, seed: 77 }
    const first = truncatedSvd(a, options)
    const second = truncatedSvd(a, options)
    assert.deepStrictEqual(Array.from(second.vectors), Array.from(first.vectors))
    assert.deepStrictEqual(Array.from(second.values), Array.from(first.values))
  })
})
