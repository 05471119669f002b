import { assert, describe, it } from "@effect/vitest"
import { noteStatusOf, trustStateOf } from "./TrustState.ts"

describe("TrustState", () => {
  it("trustStateOf - each frontmatter marker, and unverified without one", () => {
    assert.strictEqual(trustStateOf({}), "unverified")
    assert.strictEqual(trustStateOf({ verified: true }), "verified")
    assert.strictEqual(trustStateOf({ verified: "yes" }), "verified")
    assert.strictEqual(trustStateOf({ verified: "2026-01-04" }), "verified")
    assert.strictEqual(trustStateOf({ verified: false }), "unverified")
    assert.strictEqual(trustStateOf({ status: "accepted" }), "accepted")
    assert.strictEqual(trustStateOf({ stale: true }), "stale")
    assert.strictEqual(trustStateOf({ status: "Stale" }), "stale")
    assert.strictEqual(trustStateOf({ status: "superseded" }), "superseded")
    assert.strictEqual(trustStateOf({ superseded_by: "adr-0009" }), "superseded")
  })

  it("trustStateOf - superseded outranks verified, stale outranks verified", () => {
    assert.strictEqual(trustStateOf({ verified: true, superseded_by: "[[new]]" }), "superseded")
    assert.strictEqual(trustStateOf({ verified: true, stale: true }), "stale")
  })

  it("trustStateOf - an empty or false superseded_by supersedes nothing", () => {
    assert.strictEqual(trustStateOf({ superseded_by: "" }), "unverified")
    assert.strictEqual(trustStateOf({ superseded_by: null }), "unverified")
  })

  it("noteStatusOf - superseded, deprecated, else current", () => {
    assert.strictEqual(noteStatusOf({ status: "superseded" }), "superseded")
    assert.strictEqual(noteStatusOf({ superseded_by: "x" }), "superseded")
    assert.strictEqual(noteStatusOf({ status: "deprecated" }), "deprecated")
    assert.strictEqual(noteStatusOf({ status: "accepted" }), "current")
    assert.strictEqual(noteStatusOf({}), "current")
  })
})
