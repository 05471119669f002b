import { assert, describe, it } from "@effect/vitest"
import { chunk } from "../../test/support/Fixtures.ts"
import { MAX_TRAINING_CHUNKS, sampler, trainingSample } from "./TrainingSample.ts"

describe("trainingSample", () => {
  it("keeps every chunk of a small corpus, and a fixed, order-free sample of a large one", () => {
    const small = [chunk({ id: "a.md#0", text: "a" }), chunk({ id: "b.md#0", text: "b" })]
    assert.strictEqual(trainingSample(small), small)
    const large = Array.from({ length: MAX_TRAINING_CHUNKS + 10 }, (_, i) => ({
      ...chunk({ id: `n${i}.md#0`, text: `t${i}` }),
      contentSha: ((i * 7919) % 100_003).toString(16).padStart(64, "0")
    }))
    const forward = trainingSample(large).map((c) => c.id)
    const backward = trainingSample([...large].reverse()).map((c) => c.id)
    assert.strictEqual(forward.length, MAX_TRAINING_CHUNKS)
    assert.deepStrictEqual(forward, backward)
  }, 30_000) // samples a corpus larger than MAX_TRAINING_CHUNKS, twice

  it("is the chunks whose hashes sort first, whatever their prefixes share, and for hashes that are not hex", () => {
    const bySha = (a: { contentSha: string; id: string }, b: { contentSha: string; id: string }) =>
      a.contentSha < b.contentSha ? -1 : a.contentSha > b.contentSha ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
    // Hashes crowd a few 13-digit prefixes, some repeat whole, so the threshold falls among ties.
    const crowded = Array.from({ length: MAX_TRAINING_CHUNKS + 5_000 }, (_, i) => ({
      ...chunk({ id: `n${(i * 37) % 25_000}-${i}.md#0`, text: `t${i}` }),
      contentSha: `${(i % 7).toString(16).padStart(13, "0")}${((i * 7919) % 4_001).toString(16).padStart(51, "0")}`
    }))
    const expected = [...crowded].sort(bySha).slice(0, MAX_TRAINING_CHUNKS).map((c) => c.id)
    assert.deepStrictEqual(trainingSample(crowded).map((c) => c.id), expected)
    const shouting = crowded.map((c) => ({ ...c, contentSha: c.contentSha.toUpperCase() }))
    assert.deepStrictEqual(trainingSample(shouting).map((c) => c.id), [...shouting].sort(bySha).slice(0, MAX_TRAINING_CHUNKS).map((c) => c.id))
  }, 30_000) // samples from 25,000 generated chunks
})

describe("sampler", () => {
  const corpus = (size: number) => Array.from({ length: size }, (_, i) => ({
    ...chunk({ id: `n${i}.md#0`, text: `t${i}` }),
    contentSha: ((i * 7919) % 100_003).toString(16).padStart(64, "0")
  }))
  const offeredInParts = (chunks: ReadonlyArray<ReturnType<typeof chunk>>, part: number) => {
    const sample = sampler()
    for (let start = 0; start < chunks.length; start += part) sample.offer(chunks.slice(start, start + part))
    return sample
  }

  it("offered a part at a time, is the sample of the whole: a small corpus in its order, a large one by hash", () => {
    const small = corpus(300)
    assert.deepStrictEqual(offeredInParts(small, 7).take(), small.map((c) => c.text))
    const large = corpus(MAX_TRAINING_CHUNKS * 2 + 123)
    const whole = trainingSample(large).map((c) => c.text)
    for (const part of [1_000, 9_999, large.length]) {
      const sample = offeredInParts(large, part)
      assert.strictEqual(sample.offered(), large.length)
      assert.deepStrictEqual(sample.take(), whole, `parts of ${part}`)
      assert.deepStrictEqual(sample.take(), [], "taken once")
    }
    assert.deepStrictEqual(offeredInParts([...large].reverse(), 4_321).take(), whole)
  }, 60_000) // samples 40,000 generated chunks five times
})
