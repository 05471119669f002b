/**
 * The conflict detector's invariants over random knowledge bases built from statements that do and
 * do not disagree: input order never changes the output; no conflict is ever between statements of
 * one note; a `supersedes` edge between two notes always silences them.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import type { Candidate } from "../src/domain/Candidate.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { detect, findClashes } from "../src/retrieval/conflicts.ts"
import { passage } from "../test/fixtures/conflicts/Planted.ts"
import { hostileText } from "./arbitraries.ts"

const RUNS = { numRuns: 200, seed: 20261201 }
const config = { ...RetrievalConfig.defaults, maxConflicts: 5 }

/** Statements on a handful of subjects, several values each, so disagreements are common. */
const statement = fc.oneof(
  fc.constantFrom("24 hours", "1 hour", "one day", "7d", "90 minutes").map((v) => `Session tokens expire after ${v}.`),
  fc.constantFrom("90 days", "14 days", "two weeks", "at least 30 days").map((v) => `Audit logs are retained for ${v}.`),
  fc.constantFrom("three", "3", "five", "two").map((v) => `The primary Postgres cluster runs ${v} replicas.`),
  fc.constantFrom("Kafka", "RabbitMQ", "Amazon SQS", "SQS").map((v) => `${v} is our message queue for order events.`),
  fc.constantFrom(
    "The signup service never stores phone numbers.",
    "The signup service stores phone numbers encrypted at rest.",
    "The signup service does not store phone numbers."
  ),
  fc.constantFrom(
    "Refresh tokens expire after 30 days.",
    "Application logs are retained for 30 days.",
    "The staging Postgres cluster runs one replica.",
    "Redis is our session cache for order events."
  )
)

const NOTES = ["a.md", "b.md", "c.md", "d.md"]
const DATES = [null, "2024-11-02T09:00:00Z", "2025-03-14T09:22:00Z", "2025-06-01T00:00:00Z", "2026-01-20T12:00:00Z"]

const candidates: fc.Arbitrary<Array<Candidate>> = fc.uniqueArray(
  fc.record({
    note: fc.constantFrom(...NOTES),
    block: fc.integer({ min: 0, max: 4 }),
    statements: fc.array(statement, { minLength: 1, maxLength: 3 }),
    createdAt: fc.constantFrom(...DATES)
  }),
  { maxLength: 10, selector: (r) => `${r.note}#${r.block}` }
).map((records) =>
  records.map((r) =>
    passage({
      note: r.note, block: `b${r.block}`, lineStart: 1 + r.block * 10, title: "Platform", heading: "Facts",
      body: r.statements.join(" "), createdAt: r.createdAt
    })
  )
)

const edges: fc.Arbitrary<Array<NoteEdge>> = fc.array(
  fc.record({
    from: fc.constantFrom(...NOTES),
    to: fc.constantFrom(...NOTES),
    verb: fc.constantFrom("supersedes", "relates_to", "links-to")
  }),
  { maxLength: 3 }
)

/** A permutation of `items` driven by random keys, so fast-check can shrink it. */
const permuted = <A>(items: ReadonlyArray<A>, keys: ReadonlyArray<number>): Array<A> =>
  items.map((item, i) => ({ item, key: keys[i] ?? 0, i })).sort((x, y) => x.key - y.key || y.i - x.i).map((x) => x.item)

const noteOfRef = (ref: string): string => ref.slice(0, ref.lastIndexOf(":"))

describe("conflict detector invariants", () => {
  it("input order never changes the output", () => {
    let reported = 0
    fc.assert(fc.property(candidates, edges, fc.array(fc.double({ noNaN: true }), { minLength: 10, maxLength: 10 }), (cs, es, keys) => {
      const forward = detect({ candidates: cs, edges: es, config })
      const shuffled = detect({ candidates: permuted(cs, keys), edges: permuted(es, keys), config })
      assert.deepStrictEqual(shuffled, forward)
      assert.deepStrictEqual(JSON.stringify(shuffled), JSON.stringify(forward))
      if (forward.length > 0) reported++
    }), RUNS)
    // Not vacuous: disagreements are found in a good share of the runs.
    assert.isAtLeast(reported, 40)
  }, 60_000)

  it("no conflict is ever reported between two statements of the same note", () => {
    fc.assert(fc.property(candidates, edges, (cs, es) => {
      for (const clash of findClashes({ candidates: cs, edges: es, config })) assert.notStrictEqual(clash.a.note, clash.b.note)
      for (const conflict of detect({ candidates: cs, edges: es, config })) {
        assert.isAtLeast(new Set(conflict.refs.map(noteOfRef)).size, 2)
      }
      // Everything moved into one note: nothing left to disagree with.
      const oneNote = cs.map((c) => ({ ...c, chunk: { ...c.chunk, noteId: "one.md" } }))
      assert.deepStrictEqual(detect({ candidates: oneNote, edges: es, config }), [])
    }), RUNS)
  })

  it("any text at all: no throw, at most maxConflicts, every conflict two-sided", () => {
    const hostile = fc.array(fc.record({ note: fc.constantFrom(...NOTES), body: hostileText }), { maxLength: 6 }).map((records) =>
      records.map((r, i) => passage({ note: r.note, block: `b${i}`, title: "T", heading: "H", body: r.body, createdAt: null }))
    )
    fc.assert(fc.property(hostile, (cs) => {
      const found = detect({ candidates: cs, edges: [], config })
      assert.isAtMost(found.length, config.maxConflicts)
      for (const conflict of found) assert.isAtLeast(conflict.refs.length, 2)
    }), RUNS)
  })

  it("a supersedes edge always suppresses", () => {
    fc.assert(fc.property(candidates, edges, fc.boolean(), (cs, es, forward) => {
      const superseded = new Set(es.filter((e) => e.verb === "supersedes").flatMap((e) => [`${e.from}\n${e.to}`, `${e.to}\n${e.from}`]))
      for (const clash of findClashes({ candidates: cs, edges: es, config })) {
        assert.isFalse(superseded.has(`${clash.a.note}\n${clash.b.note}`))
      }
      // Two notes and one supersedes edge, either way: silence.
      const two = cs.filter((c) => c.chunk.noteId === "a.md" || c.chunk.noteId === "b.md")
      const edge = forward ? { from: "a.md", to: "b.md", verb: "supersedes" } : { from: "b.md", to: "a.md", verb: "supersedes" }
      assert.deepStrictEqual(detect({ candidates: two, edges: [...es, edge], config }), [])
      // Every note superseding every other: silence.
      const all = NOTES.flatMap((from) => NOTES.map((to) => ({ from, to, verb: "supersedes" })))
      assert.deepStrictEqual(detect({ candidates: cs, edges: all, config }), [])
    }), RUNS)
  })
})
