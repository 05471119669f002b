import { assert, describe, it } from "@effect/vitest"
import { fitFloor, ratesAt, ratesOf, separation } from "./answerability.ts"

const items = [
  { score: 0.1, unanswerable: true },
  { score: 0.3, unanswerable: true },
  { score: 0.55, unanswerable: true },
  { score: 0.2, unanswerable: false },
  { score: 0.6, unanswerable: false },
  { score: 0.7, unanswerable: false },
  { score: 0.8, unanswerable: false },
  { score: 0.9, unanswerable: false },
  { score: 0.95, unanswerable: false },
  { score: 1, unanswerable: false }
]

describe("answerability floor", () => {
  it("rates count unanswerable questions flagged, precision, and answerable ones flagged", () => {
    const rates = ratesAt(items, 0.5)
    assert.strictEqual(rates.recall, 2 / 3)
    assert.strictEqual(rates.precision, 2 / 3)
    assert.strictEqual(rates.falseAlarms, 1 / 7)
    assert.deepStrictEqual([rates.unanswerable, rates.answerable], [3, 7])
  })

  it("nothing flagged is full precision and no recall", () => {
    const rates = ratesOf(items, () => false)
    assert.deepStrictEqual([rates.recall, rates.precision, rates.falseAlarms], [0, 1, 0])
  })

  it("the fitted floor catches the most within the false-alarm allowance, and the least floor of equals", () => {
    // Allowing no false alarm, only 0.1 is below the lowest answerable score (0.2).
    assert.strictEqual(fitFloor(items, 0), 0.2)
    assert.strictEqual(ratesAt(items, fitFloor(items, 0)).recall, 1 / 3)
    // One false alarm in seven is allowed at 0.15: every unanswerable question is then caught at 0.6.
    const floor = fitFloor(items, 0.15)
    assert.strictEqual(floor, 0.6)
    assert.strictEqual(ratesAt(items, floor).recall, 1)
    assert.strictEqual(ratesAt(items, floor).falseAlarms, 1 / 7)
  })

  it("separation is 1 when every unanswerable question scores lowest, 0.5 for a coin", () => {
    assert.strictEqual(separation([{ score: 0.1, unanswerable: true }, { score: 0.9, unanswerable: false }]), 1)
    assert.strictEqual(separation([{ score: 0.5, unanswerable: true }, { score: 0.5, unanswerable: false }]), 0.5)
    assert.closeTo(separation(items), 19 / 21, 1e-12)
  })
})
