/**
 * The best `k` of a stream of (score, row) pairs under the house order: score descending, then row
 * ascending. Rows are positions in an id-sorted table, so "row ascending" is "chunk id ascending".
 * A bounded min-heap: O(n log k) instead of sorting every match.
 */
export class TopK {
  readonly #k: number
  readonly #rows: Int32Array
  readonly #scores: Float64Array
  #size = 0

  constructor(k: number) {
    this.#k = k
    this.#rows = new Int32Array(k)
    this.#scores = new Float64Array(k)
  }

  /** Whether (score, row) would be kept; cheap, so callers test it before costlier checks. */
  admits(score: number, row: number): boolean {
    if (this.#size < this.#k) return true
    if (this.#k === 0) return false
    const worst = this.#scores[0]!
    return score > worst || (score === worst && row < this.#rows[0]!)
  }

  push(score: number, row: number): void {
    if (!this.admits(score, row)) return
    if (this.#size < this.#k) {
      this.#rows[this.#size] = row
      this.#scores[this.#size] = score
      this.#up(this.#size++)
    } else {
      this.#rows[0] = row
      this.#scores[0] = score
      this.#down(0)
    }
  }

  /** The kept pairs, best first. */
  drain(): Array<{ readonly row: number; readonly score: number }> {
    const out: Array<{ row: number; score: number }> = []
    for (let i = 0; i < this.#size; i++) out.push({ row: this.#rows[i]!, score: this.#scores[i]! })
    return out.sort((a, b) => (b.score - a.score) || (a.row - b.row))
  }

  /** Whether slot `i` ranks below slot `j`. */
  #worse(i: number, j: number): boolean {
    const si = this.#scores[i]!, sj = this.#scores[j]!
    return si < sj || (si === sj && this.#rows[i]! > this.#rows[j]!)
  }

  #swap(i: number, j: number): void {
    const row = this.#rows[i]!, score = this.#scores[i]!
    this.#rows[i] = this.#rows[j]!
    this.#scores[i] = this.#scores[j]!
    this.#rows[j] = row
    this.#scores[j] = score
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.#worse(i, parent)) return
      this.#swap(i, parent)
      i = parent
    }
  }

  #down(i: number): void {
    for (;;) {
      const left = 2 * i + 1, right = left + 1
      let worst = i
      if (left < this.#size && this.#worse(left, worst)) worst = left
      if (right < this.#size && this.#worse(right, worst)) worst = right
      if (worst === i) return
      this.#swap(i, worst)
      i = worst
    }
  }
}
