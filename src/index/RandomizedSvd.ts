/**
 * Truncated SVD of a sparse matrix by the randomized method of Halko, Martinsson and Tropp
 * ("Finding structure with randomness", SIAM Review 2011, algorithms 4.4 and 5.1): a seeded
 * Rademacher test matrix, a range finder with power iterations, QR by modified Gram-Schmidt, and
 * the small dense problem solved by a cyclic Jacobi eigen-decomposition. Every step is a fixed
 * sequence of floating-point operations, so a seed and an input give the same bits on every run.
 */

/** A sparse matrix in compressed-row form; column indices ascend within each row. */
export interface SparseRows {
  readonly rows: number
  readonly cols: number
  readonly rowStart: Int32Array
  readonly colIndex: Int32Array
  readonly values: Float64Array
}

export interface SvdOptions {
  /** Singular triplets wanted. */
  readonly rank: number
  /** Extra random directions beyond `rank`; 5 to 10 is the usual advice. */
  readonly oversampling: number
  /** Passes of (A Aᵀ) that sharpen a slowly decaying spectrum; 1 to 3. */
  readonly powerIterations: number
  readonly seed: number
}

export interface Svd {
  /** `rank` singular values, descending; 0 where the matrix has no further rank. */
  readonly values: Float64Array
  /** Right singular vectors, `cols × rank` row-major; a zero column where its value is 0. */
  readonly vectors: Float64Array
}

/** splitmix32: a 32-bit state advanced by the golden ratio and mixed by murmur3's finaliser. */
const random32 = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
}

/** A · M for M `a.cols × width` row-major, into `out` (`a.rows × width` row-major, overwritten). */
const times = (a: SparseRows, m: Float64Array, width: number, out: Float64Array): Float64Array => {
  out.fill(0)
  for (let r = 0; r < a.rows; r++) {
    const o = r * width
    for (let p = a.rowStart[r]!; p < a.rowStart[r + 1]!; p++) {
      const v = a.values[p]!
      const i = a.colIndex[p]! * width
      for (let j = 0; j < width; j++) out[o + j] = out[o + j]! + v * m[i + j]!
    }
  }
  return out
}

/** Aᵀ · M for M `a.rows × width` row-major, into `out` (`a.cols × width` row-major, overwritten). */
const timesTransposed = (a: SparseRows, m: Float64Array, width: number, out: Float64Array): Float64Array => {
  out.fill(0)
  for (let r = 0; r < a.rows; r++) {
    const i = r * width
    for (let p = a.rowStart[r]!; p < a.rowStart[r + 1]!; p++) {
      const v = a.values[p]!
      const o = a.colIndex[p]! * width
      for (let j = 0; j < width; j++) out[o + j] = out[o + j]! + v * m[i + j]!
    }
  }
  return out
}

/**
 * Orthonormalises the columns of an `n × width` row-major matrix in place by modified Gram-Schmidt,
 * each column projected `passes` times: twice gives orthogonality to working precision ("twice is
 * enough", Giraud et al. 2005). A column that is (numerically) dependent on earlier ones becomes
 * zero. `scratch` (at least `n × width`) takes a column-major copy, so every inner product walks
 * contiguous memory.
 */
const orthonormalize = (m: Float64Array, n: number, width: number, scratch: Float64Array, passes: 1 | 2): void => {
  const cols = scratch
  for (let i = 0; i < n; i++) for (let j = 0; j < width; j++) cols[j * n + i] = m[i * width + j]!
  for (let j = 0; j < width; j++) {
    const cj = j * n
    let before = 0
    for (let i = 0; i < n; i++) before += cols[cj + i]! * cols[cj + i]!
    for (let pass = 0; pass < passes; pass++) {
      if (j === 0) break
      // Each projection's update is fused with the next projection's inner product: the same
      // operations on the same values in the same order as two loops, in one pass over memory.
      let dot = 0
      for (let i = 0; i < n; i++) dot += cols[i]! * cols[cj + i]!
      for (let k = 0; k < j; k++) {
        const ck = k * n
        if (k + 1 < j) {
          const cn = (k + 1) * n
          let next = 0
          for (let i = 0; i < n; i++) {
            const x = cols[cj + i]! - dot * cols[ck + i]!
            cols[cj + i] = x
            next += cols[cn + i]! * x
          }
          dot = next
        } else {
          for (let i = 0; i < n; i++) cols[cj + i] = cols[cj + i]! - dot * cols[ck + i]!
        }
      }
    }
    let after = 0
    for (let i = 0; i < n; i++) after += cols[cj + i]! * cols[cj + i]!
    const keep = after > 0 && after > before * 1e-20
    const scale = keep ? 1 / Math.sqrt(after) : 0
    for (let i = 0; i < n; i++) cols[cj + i] = cols[cj + i]! * scale
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < width; j++) m[i * width + j] = cols[j * n + i]!
}

/**
 * Eigen-decomposition of a symmetric `size × size` matrix by cyclic Jacobi rotations. Returns the
 * eigenvalues and the eigenvectors as the columns of a row-major matrix, in the input's order.
 */
const jacobiEigen = (input: Float64Array, size: number): { values: Float64Array; vectors: Float64Array } => {
  const a = Float64Array.from(input)
  const v = new Float64Array(size * size)
  for (let i = 0; i < size; i++) v[i * size + i] = 1
  let scale = 0
  for (const x of a) scale += x * x
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p * size + q]! * a[p * size + q]!
    if (off <= scale * 1e-30) break
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p * size + q]!
        if (apq === 0) continue
        const theta = (a[q * size + q]! - a[p * size + p]!) / (2 * apq)
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < size; k++) {
          const akp = a[k * size + p]!, akq = a[k * size + q]!
          a[k * size + p] = c * akp - s * akq
          a[k * size + q] = s * akp + c * akq
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p * size + k]!, aqk = a[q * size + k]!
          a[p * size + k] = c * apk - s * aqk
          a[q * size + k] = s * apk + c * aqk
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k * size + p]!, vkq = v[k * size + q]!
          v[k * size + p] = c * vkp - s * vkq
          v[k * size + q] = s * vkp + c * vkq
        }
      }
    }
  }
  const values = new Float64Array(size)
  for (let i = 0; i < size; i++) values[i] = a[i * size + i]!
  return { values, vectors: v }
}

/** The top `options.rank` singular values and right singular vectors of `a`. */
export const truncatedSvd = (a: SparseRows, options: SvdOptions): Svd => {
  const { rank } = options
  const width = Math.max(1, Math.min(rank + options.oversampling, a.rows, a.cols))
  const next = random32(options.seed)

  // One buffer per shape, reused by every pass: the range finder's products are tens of MB each
  // at 20,000 texts, and fresh ones per pass piled up as garbage faster than it was collected.
  const range = new Float64Array(a.rows * width)
  const z = new Float64Array(a.cols * width)
  const scratch = new Float64Array(Math.max(a.rows, a.cols) * width)
  // The test matrix Ω (`a.cols × width`) is only read once, so it lives in Z's buffer.
  for (let i = 0; i < z.length; i++) z[i] = next() & 1 ? 1 : -1
  // A basis between power iterations only has to keep the directions apart, which one pass does;
  // the last, from which B is formed, is orthonormal to working precision. The passes are most
  // of training's time (about 3 of 5 s on 20,000 texts), and the span is the same either way.
  const last = options.powerIterations
  times(a, z, width, range)
  orthonormalize(range, a.rows, width, scratch, last === 0 ? 2 : 1)
  for (let it = 0; it < options.powerIterations; it++) {
    timesTransposed(a, range, width, z)
    orthonormalize(z, a.cols, width, scratch, 1)
    times(a, z, width, range)
    orthonormalize(range, a.rows, width, scratch, it === last - 1 ? 2 : 1)
  }
  // Z = Aᵀ Q is Bᵀ for the small matrix B = Qᵀ A, and B Bᵀ = Zᵀ Z is width × width.
  timesTransposed(a, range, width, z)
  const gram = new Float64Array(width * width)
  for (let c = 0; c < a.cols; c++) {
    const o = c * width
    for (let i = 0; i < width; i++) {
      const zi = z[o + i]!
      if (zi === 0) continue
      for (let j = i; j < width; j++) gram[i * width + j] = gram[i * width + j]! + zi * z[o + j]!
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) gram[i * width + j] = gram[j * width + i]!

  const eigen = jacobiEigen(gram, width)
  const order = Array.from({ length: width }, (_, i) => i).sort((x, y) => (eigen.values[y]! - eigen.values[x]!) || (x - y))
  const values = new Float64Array(rank)
  const vectors = new Float64Array(a.cols * rank)
  const top = Math.sqrt(Math.max(0, eigen.values[order[0]!]!))
  for (let k = 0; k < Math.min(rank, width); k++) {
    const e = order[k]!
    const sigma = Math.sqrt(Math.max(0, eigen.values[e]!))
    // Directions with no real energy are left as zeros rather than amplified rounding noise.
    if (!(sigma > top * 1e-9)) continue
    values[k] = sigma
    // v = Z u / σ, then the sign fixed so the largest-magnitude component is positive.
    let pivot = 0, pivotAbs = -1
    for (let c = 0; c < a.cols; c++) {
      let sum = 0
      for (let i = 0; i < width; i++) sum += z[c * width + i]! * eigen.vectors[i * width + e]!
      const x = sum / sigma
      vectors[c * rank + k] = x
      if (Math.abs(x) > pivotAbs) {
        pivotAbs = Math.abs(x)
        pivot = c
      }
    }
    if (vectors[pivot * rank + k]! < 0) for (let c = 0; c < a.cols; c++) vectors[c * rank + k] = -vectors[c * rank + k]!
  }
  return { values, vectors }
}
