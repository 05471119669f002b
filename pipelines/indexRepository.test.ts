import { assert, describe, it } from "@effect/vitest"
import { chunk } from "../test/support/Fixtures.ts"
import { MAX_TRAINING_CHUNKS, trainingSample } from "./indexRepository.ts"

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
  })
})
