import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Recall from "../layers/Recall.ts"
import { corpus } from "../test/support/Corpus.ts"
import { recall } from "./recall.ts"
import { shadowRecall } from "./shadow.ts"

const layer = Recall.reference(corpus, { dense: "none" })

describe("shadowRecall", () => {
  it.effect("answers with the stable pack and records what the candidate returned differently", () =>
    Effect.gen(function*() {
      const question = { text: "deployctl" }
      const stable = yield* recall(question)
      const { pack, record } = yield* shadowRecall(question, { rerankLimit: 1 })
      assert.deepStrictEqual(pack, stable)
      assert.strictEqual(record.candidate.length, 1)
      assert.deepStrictEqual(record.stable, stable.claims.map((claim) => claim.ref))
      assert.deepStrictEqual(record.stableOnly, record.stable.filter((ref) => ref !== record.candidate[0]))
      assert.deepStrictEqual(record.candidateOnly, [])
      assert.isTrue(record.sameFirst)
      assert.isUndefined(record.candidateError)
    }).pipe(Effect.provide(layer)), 30_000)

  it.effect("the candidate's packer reads the candidate's configuration", () =>
    Effect.gen(function*() {
      const { record } = yield* shadowRecall({ text: "deployctl rollback quantum chromodynamics lattice" }, { maxGaps: 1 })
      assert.isAbove(record.stableGaps.length, 1)
      assert.strictEqual(record.candidateGaps.length, 1)
    }).pipe(Effect.provide(layer)), 30_000)

  it.effect("the same configuration as the candidate records no difference", () =>
    Effect.gen(function*() {
      const { record } = yield* shadowRecall({ text: "how do I roll back a deploy?" }, {})
      assert.deepStrictEqual(record.stable, record.candidate)
      assert.deepStrictEqual([record.stableOnly, record.candidateOnly], [[], []])
    }).pipe(Effect.provide(layer)), 30_000)

  it.effect("a candidate that is not a configuration fails before anything runs, naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(shadowRecall({ text: "deployctl" }, { rerankLimit: -3 }))
      assert.strictEqual(error._tag, "InvalidInput")
      assert.include(error.message, "rerankLimit")
    }).pipe(Effect.provide(layer)), 30_000)
})
