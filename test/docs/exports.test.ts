import { assert, describe, it } from "@effect/vitest"

describe("package entry point", () => {
  it("resolves through the package name and exposes the packer and the counters", async () => {
    const cairn = await import("cairn")
    assert.isFunction(cairn.Pack.makePack)
    assert.strictEqual(cairn.TokenCounterDefault.counter.count("hello world"), 2)
    assert.strictEqual(cairn.RetrievalConfig.defaults.reportReserveTokens, 512)
  })
})
