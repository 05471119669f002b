import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ChunkingConfig from "./ChunkingConfig.ts"

describe("ChunkingConfig", () => {
  it("fingerprint - the same settings however written: defaults spelt out, patterns in any case or order, repeated", () => {
    const byDefault = ChunkingConfig.fingerprint({})
    assert.strictEqual(ChunkingConfig.fingerprint({ targetTokens: 350, agentPatterns: ["bot@", "-bot", "[bot]"] }), byDefault)
    assert.strictEqual(ChunkingConfig.fingerprint({ agentPatterns: ["[BOT]", "Bot@", "-bot", "-bot"] }), byDefault)
    assert.notStrictEqual(ChunkingConfig.fingerprint({ targetTokens: 351 }), byDefault)
    assert.notStrictEqual(ChunkingConfig.fingerprint({ agentPatterns: ["[bot]", "bot@"] }), byDefault)
  })

  it("fingerprint - builds from before the record differ from today's defaults, which redact secrets, so they rebuild", () => {
    assert.notStrictEqual(ChunkingConfig.DEFAULT_FINGERPRINT, ChunkingConfig.BEFORE_RECORDED_FINGERPRINT)
    assert.strictEqual(ChunkingConfig.fingerprint({}, ["b/", "a/", "b/"]), ChunkingConfig.fingerprint({}, ["a/", "b/"]))
    assert.notStrictEqual(ChunkingConfig.fingerprint({}, ["docs/keys.md"]), ChunkingConfig.DEFAULT_FINGERPRINT)
  })

  it("fingerprint - an index cut under the code chunk rules before CODE_CHUNK_RULES was recorded rebuilds", () => {
    const beforeRules = '{"targetTokens":350,"agentPatterns":["-bot","[bot]","bot@"],"redaction":["secrets/1"]}'
    assert.notStrictEqual(ChunkingConfig.DEFAULT_FINGERPRINT, beforeRules)
    assert.include(ChunkingConfig.DEFAULT_FINGERPRINT, '"rules":"code/2"')
  })

  it.effect("decode - nothing is the defaults; out of range and unknown keys name the field", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* ChunkingConfig.decode(undefined), {})
      for (const [input, field] of [[{ targetTokens: 63 }, "targetTokens"], [{ targetTokens: 8_001 }, "targetTokens"], [{ targetTokens: 100.5 }, "targetTokens"], [{ agentPatterns: ["ok", ""] }, "agentPatterns.1"], [{ size: 1 }, "size"], [[], "(root)"]] as const) {
        const error = yield* Effect.flip(ChunkingConfig.decode(input))
        assert.deepInclude(error, { _tag: "InvalidInput", subject: "chunking", field }, JSON.stringify(input))
      }
    }))
})
