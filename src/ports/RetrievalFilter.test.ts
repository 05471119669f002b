import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { chunk as makeChunk } from "../../test/support/Fixtures.ts"
import { instantMillis } from "../domain/Instant.ts"
import { decodeQuery } from "../domain/Query.ts"
import { decode, matchesFilter } from "./RetrievalFilter.ts"

const chunk = makeChunk({ id: "docs/guide/a.md#x", text: "a", noteType: "decision", createdAt: "2024-05-10T12:00:00Z" })

describe("RetrievalFilter", () => {
  it.effect("a query's filters are the filter the legs read, under the names the caller wrote", () =>
    Effect.gen(function*() {
      const query = yield* decodeQuery({ text: "q", filters: { types: ["decision"], paths: ["docs/guide"] } })
      assert.isTrue(matchesFilter(chunk, query.filters))
      assert.isFalse(matchesFilter(chunk, (yield* decodeQuery({ text: "q", filters: { paths: ["docs/other"] } })).filters))
      // The legs' old name for paths is no longer a second spelling: a strict query refuses it.
      const refused = yield* Effect.flip(decodeQuery({ text: "q", filters: { pathPrefixes: ["docs"] } }))
      assert.strictEqual(refused._tag, "InvalidInput")
    }))

  it("matchesFilter - admits everything but superseded chunks by default", () => {
    assert.isTrue(matchesFilter(chunk, {}))
    assert.isFalse(matchesFilter({ ...chunk, status: "superseded" }, {}))
    assert.isFalse(matchesFilter({ ...chunk, provenance: { ...chunk.provenance, state: "superseded" } }, {}))
    assert.isTrue(matchesFilter({ ...chunk, status: "superseded" }, { includeSuperseded: true }))
  })

  it("matchesFilter - types: listed types only; absent or empty means all", () => {
    assert.isTrue(matchesFilter(chunk, { types: ["decision", "state"] }))
    assert.isFalse(matchesFilter(chunk, { types: ["state"] }))
    assert.isTrue(matchesFilter(chunk, { types: [] }))
  })

  it("matchesFilter - since: older words are out, same instant and unknown dates are in", () => {
    assert.isTrue(matchesFilter(chunk, { since: "2024-05-10" }))
    assert.isTrue(matchesFilter(chunk, { since: "2024-05-10T12:00:00Z" }))
    assert.isFalse(matchesFilter(chunk, { since: "2024-05-10T12:00:01Z" }))
    assert.isFalse(matchesFilter(chunk, { since: "2024-05-10T14:00:01+02:00" }))
    assert.isTrue(matchesFilter(chunk, { since: "2024-05-10T13:59:59+02:00" }))
    assert.isTrue(matchesFilter({ ...chunk, provenance: { ...chunk.provenance, createdAt: null } }, { since: "2030-01-01" }))
    assert.isTrue(matchesFilter({ ...chunk, provenance: { ...chunk.provenance, createdAt: "last week" } }, { since: "2030-01-01" }))
  })

  it("matchesFilter - paths match whole segments", () => {
    assert.isTrue(matchesFilter(chunk, { paths: ["docs"] }))
    assert.isTrue(matchesFilter(chunk, { paths: ["docs/guide/"] }))
    assert.isTrue(matchesFilter(chunk, { paths: ["docs/guide/a.md"] }))
    assert.isFalse(matchesFilter(chunk, { paths: ["doc", "docs/gui"] }))
    assert.isTrue(matchesFilter(chunk, { paths: ["src", "docs"] }))
  })

  it("instantMillis - reads dates and zoned date-times, refuses zoneless times and impossible dates", () => {
    assert.strictEqual(instantMillis("1970-01-02"), 86_400_000)
    assert.strictEqual(instantMillis("1970-01-01T01:00:00+01:00"), 0)
    assert.strictEqual(instantMillis("1970-01-01T00:00:00.250Z"), 250)
    for (const bad of ["2024-02-30", "2023-02-29", "2024-05-10T12:00:00", "2024-13-01", "yesterday"]) {
      assert.isTrue(Number.isNaN(instantMillis(bad)), bad)
    }
    assert.strictEqual(instantMillis("2024-02-29"), Date.UTC(2024, 1, 29))
  })

  it.effect("decode - refuses an unreadable since with a SchemaError", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decode({ since: "2024-05-10T12:00:00" }))
      assert.strictEqual(error._tag, "SchemaError")
      assert.deepStrictEqual(yield* decode({ since: "2024-05-10", types: ["code"] }), { since: "2024-05-10", types: ["code"] })
    }))
})
