import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { passage } from "../../test/fixtures/conflicts/Planted.ts"
import { splitStatements } from "./conflicts/statements.ts"
import { ConflictDetector, type ConflictConfig, detect, findClashes, layer } from "./conflicts.ts"

const config: ConflictConfig = { ...RetrievalConfig.defaults, maxConflicts: 10 }

/** One passage of its own note, under a heading both sides share unless told otherwise. */
const say = (
  note: string,
  body: string,
  createdAt: string | null = "2025-03-01T09:00:00Z",
  heading = "Notes"
): Candidate => passage({ note, title: "Team", heading, body, createdAt })

const run = (candidates: ReadonlyArray<Candidate>, edges: ReadonlyArray<NoteEdge> = [], cfg: ConflictConfig = config) =>
  detect({ candidates, edges, config: cfg })

/** The notes of the one conflict between two statements, or undefined when there is none. */
const between = (a: string, b: string, cfg: ConflictConfig = config): string | undefined => {
  const found = run([say("a.md", a, "2025-03-01T09:00:00Z"), say("b.md", b, "2025-06-01T09:00:00Z")], [], cfg)
  assert.isAtMost(found.length, 1)
  return found[0]?.note
}

describe("splitStatements", () => {
  it("splitStatements - drops the heading line and cuts sentences, items, rows and clauses", () => {
    const text = [
      "Team > Notes",
      "Tokens expire after one hour. Refresh tokens last",
      "thirty days; nobody rotates them.",
      "",
      "- [decision] Kafka is our broker.",
      "1. Deploys are frozen on Fridays.",
      "```",
      "ttl = 24h",
      "```",
      "| Setting | Value |",
      "| --- | --- |",
      "| Retention | 90 days |",
      "> Quoted `advice` here."
    ].join("\n")
    assert.deepStrictEqual(splitStatements(text), [
      "Tokens expire after one hour.",
      "Refresh tokens last thirty days;",
      "nobody rotates them.",
      "Kafka is our broker.",
      "Deploys are frozen on Fridays.",
      "Setting Value",
      "Retention 90 days",
      "Quoted advice here."
    ])
  })

  it("splitStatements - a chunk with nothing below its heading line has no statements", () => {
    assert.deepStrictEqual(splitStatements("Session tokens expire after 24 hours."), [])
  })

  it("splitStatements - expands contractions so the negation is a word", () => {
    assert.deepStrictEqual(splitStatements("T > H\nWe don't store it. It can't fail."), ["We do not store it.", "It can not fail."])
  })
})

describe("measure clashes", () => {
  it("detect - hours against hours, normalised units, and the note dates each side", () => {
    assert.strictEqual(between("Session tokens expire after 4h.", "Session tokens expire after 24h."), "4h (Mar) vs 24h (Jun). Neither superseded.")
    assert.strictEqual(between("Session tokens expire after 24 hours.", "Session tokens expire after 7d."), "24h (Mar) vs 7d (Jun). Neither superseded.")
    assert.strictEqual(between("Audit logs are retained for 90 days.", "Audit logs are retained for 14 days."), "90d (Mar) vs 14d (Jun). Neither superseded.")
    assert.strictEqual(between("Session tokens expire after twenty-four hours.", "Session tokens expire after an hour."), "24h (Mar) vs 1h (Jun). Neither superseded.")
  })

  it("detect - every hour is one hour, and twice a week is a frequency, not a duration", () => {
    assert.strictEqual(
      between("The search index is rebuilt every 10 minutes by the crawler.", "The search index is rebuilt every hour by the crawler."),
      "10min (Mar) vs 1h (Jun). Neither superseded."
    )
    assert.isUndefined(between("The search index is rebuilt twice a week by the crawler.", "The search index is rebuilt every day by the crawler."))
  })

  it("detect - the same duration in other units is agreement", () => {
    assert.isUndefined(between("Session tokens expire after 24 hours.", "Session tokens expire after one day."))
    assert.isUndefined(between("Session tokens expire after 90 minutes.", "Session tokens expire after 5400 seconds."))
    assert.isUndefined(between("Audit logs are retained for 2 weeks.", "Audit logs are retained for 14 days."))
  })

  it("detect - sizes and percentages are measures too", () => {
    assert.strictEqual(between("Upload bodies are capped at 10 MB.", "Upload bodies are capped at 25 MB."), "10MB (Mar) vs 25MB (Jun). Neither superseded.")
    assert.isUndefined(between("Upload bodies are capped at 1 GB.", "Upload bodies are capped at 1024 MB."))
    assert.strictEqual(between("The error budget alert fires at 80% burn.", "The error budget alert fires at 95 percent burn."), "80% (Mar) vs 95% (Jun). Neither superseded.")
  })

  it("detect - a bound and a value it admits agree; two different limits disagree", () => {
    const backups = (retention: string) => `Nightly database backups are retained for ${retention}.`
    assert.strictEqual(between(backups("30 days"), backups("35 days")), "30d (Mar) vs 35d (Jun). Neither superseded.")
    assert.isUndefined(between(backups("at least 30 days"), backups("35 days")))
    assert.isUndefined(between(backups("30 to 40 days"), backups("35 days")))
    assert.isUndefined(between(backups("at most 30 days"), backups("at least 20 days")))
    assert.strictEqual(
      between(backups("at most 30 days"), backups("at most 60 days")),
      "at most 30d (Mar) vs at most 60d (Jun). Neither superseded."
    )
    assert.strictEqual(
      between(backups("at least 30 days"), backups("7 days")),
      "at least 30d (Mar) vs 7d (Jun). Neither superseded."
    )
  })

  it("detect - different dimensions never clash", () => {
    assert.isUndefined(between("Upload bodies are capped at 10 MB.", "Upload bodies are capped at 10 seconds."))
  })

  it("detect - identifiers, versions and money are not quantities", () => {
    assert.isUndefined(between("Session tokens use HTTP/2 and v3 clients.", "Session tokens use HTTP/3 and v4 clients."))
  })
})

describe("count clashes", () => {
  it("detect - number words and digits count the same noun", () => {
    assert.strictEqual(
      between("The primary Postgres cluster runs three replicas.", "The primary Postgres cluster runs 5 replicas."),
      "3 replicas (Mar) vs 5 replicas (Jun). Neither superseded."
    )
    assert.isUndefined(between("The primary Postgres cluster runs three replicas.", "The primary Postgres cluster runs 3 replicas."))
  })

  it("detect - a number before a singular noun is a label, not a count", () => {
    assert.isUndefined(between("The gateway answers a 429 response to throttled clients.", "The gateway answers a 503 response to throttled clients."))
  })

  it("detect - different things counted never clash", () => {
    assert.isUndefined(between("The primary Postgres cluster runs three replicas.", "The primary Postgres cluster runs five shards."))
  })
})

describe("choice clashes", () => {
  it("detect - the name before the copula, and the name after we use", () => {
    assert.strictEqual(between("Kafka is our message queue.", "RabbitMQ is our message queue."), "Kafka (Mar) vs RabbitMQ (Jun). Neither superseded.")
    assert.strictEqual(
      between("We chose DynamoDB for the billing ledger tables.", "Postgres is the default store for the billing ledger tables."),
      "DynamoDB (Mar) vs Postgres (Jun). Neither superseded."
    )
    assert.strictEqual(
      between("Kafka is the message queue we use for orders.", "We use RabbitMQ as the message queue for orders."),
      "Kafka (Mar) vs RabbitMQ (Jun). Neither superseded."
    )
  })

  it("detect - the same name, qualified or not, is agreement", () => {
    assert.isUndefined(between("SQS is our message queue for orders.", "Amazon SQS is our message queue for orders."))
  })

  it("detect - names for different roles never clash", () => {
    assert.isUndefined(between("Kafka is our message queue for order events.", "Redis is our session cache for order events."))
  })

  it("detect - a definition is not a choice", () => {
    assert.isUndefined(between("The timeout is the number of seconds a request may take.", "The deadline is the number of seconds a request may take."))
  })
})

describe("polarity clashes", () => {
  it("detect - a negation against a plain affirmation of what it negates", () => {
    assert.strictEqual(
      between("The signup service never stores phone numbers.", "The signup service stores phone numbers encrypted at rest."),
      "never stores (Mar) vs stores (Jun). Neither superseded."
    )
    assert.strictEqual(
      between("The signup service does not store phone numbers.", "The signup service keeps phone numbers for a week."),
      "not store (Mar) vs keeps (Jun). Neither superseded."
    )
  })

  it("detect - two negations, a negation of another word, or a condition never clash", () => {
    assert.isUndefined(between("The signup service never stores phone numbers.", "The signup service does not store phone numbers in logs."))
    assert.isUndefined(between("The signup service never deletes stored phone numbers.", "The signup service stores phone numbers encrypted at rest."))
    assert.isUndefined(between("The signup service never stores phone numbers unless the user opts in.", "The signup service stores phone numbers encrypted at rest."))
  })
})

describe("subjects", () => {
  it("detect - a shared noun qualified differently on each side is two subjects", () => {
    assert.isUndefined(between("Session tokens expire after 24 hours.", "Refresh tokens expire after 90 days."))
    assert.isUndefined(between("The billing service stores card numbers.", "The signup service never stores phone numbers."))
    assert.isUndefined(between("The search index is rebuilt every 10 minutes by the crawler.", "The search cache is flushed every hour by the crawler."))
  })

  it("detect - a preposition scoping each side to something the other never names is two subjects", () => {
    assert.isUndefined(between("The cluster runs three replicas in production.", "The cluster runs five replicas in staging."))
    assert.isUndefined(between("Card numbers are never written to application logs.", "Card numbers are written to the vault with the tenant key."))
    // Scoped on one side only, or by a number: still one subject.
    assert.isDefined(between("The cluster runs three replicas in production.", "The cluster runs five replicas."))
    assert.isDefined(between("Audit logs are retained for 90 days.", "Audit logs are kept for 14 days to save storage."))
  })

  it("detect - the topic is the shared subject in statement order", () => {
    const [conflict] = run([say("a.md", "Password reset links expire after 24 hours."), say("b.md", "Reset links for passwords expire after one hour.")])
    assert.strictEqual(conflict?.topic, "password reset links expire")
  })
})

describe("gates", () => {
  // Terms {session, token, expir, audit, found} and {session, token, expir, secur, review}: 3 shared,
  // overlap 3/5, Dice 6/10; with the heading words `team` and `notes` the chunks share 5.
  const a = "Session tokens expire after 24 hours, as the audit found."
  const b = "Session tokens expire after one hour, per the security review."
  const withMeasure = (gate: Partial<ConflictConfig["conflictGates"]["measure"]>, base = config.conflictGates.base): ConflictConfig => ({
    ...config,
    conflictGates: { ...config.conflictGates, base, measure: { ...config.conflictGates.measure, ...gate } }
  })

  it("detect - each of the five gates blocks at one step above the pair's value and passes at it", () => {
    const cases: ReadonlyArray<[Partial<ConflictConfig["conflictGates"]["measure"]>, Partial<ConflictConfig["conflictGates"]["measure"]>]> = [
      [{ minTerms: 5 }, { minTerms: 6 }],
      [{ minSharedStatement: 3 }, { minSharedStatement: 4 }],
      [{ minShared: 5 }, { minShared: 6 }],
      [{ minOverlap: 0.6 }, { minOverlap: 0.61 }],
      [{ minDice: 0.6 }, { minDice: 0.61 }]
    ]
    for (const [passes, blocks] of cases) {
      assert.isDefined(between(a, b, withMeasure(passes)), JSON.stringify(passes))
      assert.isUndefined(between(a, b, withMeasure(blocks)), JSON.stringify(blocks))
    }
  })

  it("detect - a kind reads its own row, and the base row is a floor under every kind", () => {
    const strictCount = { ...config, conflictGates: { ...config.conflictGates, count: { ...config.conflictGates.count, minTerms: 50 } } }
    assert.isDefined(between(a, b, strictCount))
    assert.isUndefined(between(a, b, withMeasure({}, { ...config.conflictGates.base, minDice: 0.61 })))
  })

  it("detect - terms shared only through a heading path do not make a shared subject", () => {
    const sameHeading = (body: string, note: string, createdAt: string) =>
      passage({ note, title: "Session tokens", heading: "Expiry policy", body, createdAt })
    const pair = [
      sameHeading("Expiry is after 24 hours: web dashboard.", "a.md", "2025-03-01T09:00:00Z"),
      sameHeading("Expiry is after one hour: mobile phones.", "b.md", "2025-06-01T09:00:00Z")
    ]
    // The chunks share session, token, expir and polici (clearing minShared); the statements share
    // only expir, with overlap and Dice 1/3.
    assert.deepStrictEqual(run(pair), [])
    const gates = config.conflictGates
    const oneShared = { minSharedStatement: 1, minOverlap: 0.3 }
    const loose = { ...config, conflictGates: { ...gates, base: { ...gates.base, ...oneShared }, measure: { ...gates.measure, ...oneShared } } }
    assert.strictEqual(run(pair, [], loose).length, 1)
  })
})

describe("resolution", () => {
  const older = say("old.md", "Deploys are frozen for 48 hours before a release.", "2024-10-01T09:00:00Z")
  const newer = say("new.md", "Deploys are frozen for 24 hours before a release.", "2025-10-01T09:00:00Z")

  it("detect - a supersedes edge between the two notes, either way, is a recorded resolution", () => {
    assert.strictEqual(run([older, newer]).length, 1)
    assert.deepStrictEqual(run([older, newer], [{ from: "new.md", to: "old.md", verb: "supersedes" }]), [])
    assert.deepStrictEqual(run([older, newer], [{ from: "old.md", to: "new.md", verb: "supersedes" }]), [])
  })

  it("detect - other relations resolve nothing, and a supersedes edge elsewhere does not either", () => {
    assert.strictEqual(run([older, newer], [{ from: "new.md", to: "old.md", verb: "relates_to" }]).length, 1)
    assert.strictEqual(run([older, newer], [{ from: "new.md", to: "other.md", verb: "supersedes" }]).length, 1)
  })

  it("detect - a chunk superseded by its status or its trust state never takes a side", () => {
    const byStatus: Candidate = { ...older, chunk: { ...older.chunk, status: "superseded" } }
    const byState: Candidate = { ...older, chunk: { ...older.chunk, provenance: { ...older.chunk.provenance, state: "superseded" } } }
    assert.deepStrictEqual(run([byStatus, newer]), [])
    assert.deepStrictEqual(run([byState, newer]), [])
  })

  it("detect - statements of one note never conflict with each other", () => {
    const first = passage({ note: "flags.md", block: "b1", title: "Flags", heading: "Cleanup", body: "Feature flags are removed 30 days after rollout.", createdAt: null })
    const second = passage({ note: "flags.md", block: "b2", lineStart: 20, title: "Flags", heading: "Cleanup", body: "Feature flags are removed 90 days after rollout.", createdAt: null })
    const inOneChunk = say("one.md", "Stale branches are deleted 30 days after merge. Stale branches are deleted 90 days after merge.")
    assert.deepStrictEqual(run([first, second, inOneChunk]), [])
    // The same words in two notes do disagree.
    const elsewhere: Candidate = { ...second, chunk: { ...second.chunk, noteId: "other.md", path: "other.md" } }
    assert.strictEqual(run([first, elsewhere]).length, 1)
  })

  it("detect - code and link lists are not statements", () => {
    const code: Candidate = { ...newer, chunk: { ...newer.chunk, noteType: "code" } }
    const links: Candidate = { ...newer, chunk: { ...newer.chunk, isLinkList: true } }
    assert.deepStrictEqual(run([older, code]), [])
    assert.deepStrictEqual(run([older, links]), [])
  })
})

describe("the note", () => {
  const pair = (first: string | null, second: string | null) =>
    run([say("a.md", "Session tokens expire after 24 hours.", first), say("b.md", "Session tokens expire after one hour.", second)])[0]?.note

  it("detect - older side first, months only when the years agree", () => {
    assert.strictEqual(pair("2025-03-14T09:22:00Z", "2025-06-01T00:00:00Z"), "24h (Mar) vs 1h (Jun). Neither superseded.")
    assert.strictEqual(pair("2025-06-01T00:00:00Z", "2025-03-14T09:22:00Z"), "1h (Mar) vs 24h (Jun). Neither superseded.")
  })

  it("detect - both years when they differ", () => {
    assert.strictEqual(pair("2025-03-14T09:22:00Z", "2026-06-01T00:00:00Z"), "24h (Mar 2025) vs 1h (Jun 2026). Neither superseded.")
  })

  it("detect - months are UTC, and an unknown or unreadable date is said so, last", () => {
    assert.strictEqual(pair("2025-03-31T23:30:00-02:00", "2025-06-01"), "24h (Apr) vs 1h (Jun). Neither superseded.")
    assert.strictEqual(pair(null, "2025-06-01T00:00:00Z"), "1h (Jun) vs 24h (date unknown). Neither superseded.")
    assert.strictEqual(pair("last spring", null), "1h (date unknown) vs 24h (date unknown). Neither superseded.")
  })
})

describe("grouping and output", () => {
  const a1 = passage({ note: "guide.md", title: "Guide", heading: "Accounts", body: "Password reset links expire after 24 hours.", createdAt: "2025-03-01T09:00:00Z" })
  const a2 = passage({ note: "faq.md", title: "FAQ", heading: "Accounts", body: "Password reset links expire after 24 hours!", createdAt: "2025-08-01T09:00:00Z" })
  const b = passage({ note: "policy.md", title: "Policy", heading: "Accounts", body: "Password reset links expire after one hour.", createdAt: "2025-06-01T09:00:00Z" })

  it("detect - a side repeated by near-duplicates is one conflict naming every chunk", () => {
    assert.deepStrictEqual(run([a1, a2, b]), [{
      topic: "password reset links expire",
      refs: ["faq.md:3-4#b1", "guide.md:3-4#b1", "policy.md:3-4#b1"],
      note: "1h (Jun) vs 24h (Aug). Neither superseded."
    }])
  })

  it("detect - a pairwise clash is always between different notes", () => {
    // The guide contradicts itself and the policy; only the clash across notes may be found.
    const self = passage({ note: "guide.md", block: "b2", title: "Guide", heading: "Accounts", body: "Password reset links expire after one hour.", createdAt: "2025-04-01T09:00:00Z", lineStart: 9 })
    const clashes = findClashes({ candidates: [a1, self, b], edges: [], config })
    assert.deepStrictEqual(clashes.map((clash) => [clash.a.candidate.chunk.id, clash.b.candidate.chunk.id].sort()), [["guide.md#b1", "policy.md#b1"]])
    for (const clash of clashes) assert.notStrictEqual(clash.a.note, clash.b.note)
  })

  it("detect - the same input in any order, duplicates included, gives the same output", () => {
    const reversed = run([b, a2, a1, a2])
    assert.deepStrictEqual(reversed, run([a1, a2, b]))
  })

  it("detect - at most maxConflicts, strongest first", () => {
    const many = [
      a1, b,
      say("x.md", "The primary Postgres cluster runs three replicas."),
      say("y.md", "The primary Postgres cluster runs five replicas in total."),
      say("p.md", "Kafka is our message queue for order events today."),
      say("q.md", "RabbitMQ is our message queue for order events.")
    ]
    const all = run(many)
    assert.deepStrictEqual(all.map((c) => c.topic), ["password reset links expire", "primary postgres cluster runs", "message queue order events"])
    assert.deepStrictEqual(run(many, [], { ...config, maxConflicts: 2 }), all.slice(0, 2))
    assert.deepStrictEqual(run(many, [], { ...config, maxConflicts: 0 }), [])
  })

  it.effect("ConflictDetector - the default layer serves the pure detector", () =>
    Effect.gen(function*() {
      const detector = yield* ConflictDetector
      assert.deepStrictEqual(detector.detect({ candidates: [a1, b], edges: [], config }), run([a1, b]))
    }).pipe(Effect.provide(layer)))
})
