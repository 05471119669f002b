import { assert, describe, it } from "@effect/vitest"
import * as ModelRequest from "./ModelRequest.ts"

describe("ModelRequest", () => {
  it("Retry-After in seconds or as an HTTP date, capped; absent or unreadable says nothing", () => {
    const now = Date.parse("2026-12-01T12:00:00Z")
    assert.strictEqual(ModelRequest.retryAfterMs("2", now), 2_000)
    assert.strictEqual(ModelRequest.retryAfterMs("0.5", now), 500)
    assert.strictEqual(ModelRequest.retryAfterMs("Tue, 01 Dec 2026 12:00:03 GMT", now), 3_000)
    assert.strictEqual(ModelRequest.retryAfterMs("Tue, 01 Dec 2026 11:59:00 GMT", now), 0)
    assert.strictEqual(ModelRequest.retryAfterMs("86400", now), ModelRequest.MAX_RETRY_AFTER_MS)
    assert.isUndefined(ModelRequest.retryAfterMs(null, now))
    assert.isUndefined(ModelRequest.retryAfterMs("soon", now))
  })

  it("backoff doubles from the base up to its cap", () => {
    assert.deepStrictEqual([0, 1, 2, 3].map(ModelRequest.backoffMs), [250, 500, 1_000, 2_000])
    assert.strictEqual(ModelRequest.backoffMs(30), ModelRequest.MAX_BACKOFF_MS)
  })

  it("a body quoted in an error has the key blotted out, on one line, cut short", () => {
    const key = "sk-abc123"
    const text = ModelRequest.redacted(`{"error":"bad key sk-abc123",\n "again": "sk-abc123"} ${"x".repeat(500)}`, key)
    assert.notInclude(text, key)
    assert.notInclude(text, "\n")
    assert.isAtMost(text.length, 201)
  })

  it("an endpoint is shown without credentials or query", () => {
    assert.strictEqual(ModelRequest.shownEndpoint("https://u:p@api.example.com/v1/embeddings?key=k"), "https://api.example.com/v1/embeddings")
  })
})
