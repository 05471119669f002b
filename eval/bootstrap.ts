/**
 * Paired bootstrap over questions: two conditions ran on the same questions, so the delta of a
 * metric is resampled question by question (Efron and Tibshirani, 1993), with a seeded generator so
 * the interval reproduces.
 */

export interface PairedDelta {
  readonly delta: number
  readonly low: number
  readonly high: number
  /** Question ids where the second condition scored higher, and lower. */
  readonly gained: ReadonlyArray<string>
  readonly lost: ReadonlyArray<string>
}

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** 95% interval of mean(b - a) from `resamples` paired resamples. `a` and `b` are keyed by question id. */
export const pairedBootstrap = (
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: { readonly resamples?: number; readonly seed?: number } = {}
): PairedDelta => {
  const ids = [...a.keys()].filter((id) => b.has(id)).sort()
  const diffs = ids.map((id) => b.get(id)! - a.get(id)!)
  const n = diffs.length
  if (n === 0) return { delta: 0, low: 0, high: 0, gained: [], lost: [] }
  const mean = diffs.reduce((s, d) => s + d, 0) / n
  const random = mulberry32(options.seed ?? 20261130)
  const resamples = options.resamples ?? 2_000
  const means: Array<number> = []
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random() * n)]!
    means.push(sum / n)
  }
  means.sort((x, y) => x - y)
  return {
    delta: mean,
    low: means[Math.floor(0.025 * (resamples - 1))]!,
    high: means[Math.ceil(0.975 * (resamples - 1))]!,
    gained: ids.filter((_, i) => diffs[i]! > 0),
    lost: ids.filter((_, i) => diffs[i]! < 0)
  }
}
