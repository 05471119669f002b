import { assert, describe, it } from "@effect/vitest"
import type { BlameLine } from "../../ports/History.ts"
import { DEFAULT_AGENT_PATTERNS } from "./ChunkOptions.ts"
import { indexHistory, isAgent, isoSecond, provenanceOf, updatedOf } from "./Provenance.ts"

const T2024 = Date.UTC(2024, 4, 1, 9, 30, 15) / 1000
const T2025 = Date.UTC(2025, 0, 2, 3, 4, 5) / 1000

const BLAME: ReadonlyArray<BlameLine> = [
  { line: 1, authorTime: T2024, author: "Ada", authorMail: "ada@example.com" },
  { line: 2, authorTime: T2025, author: "renovate[bot]", authorMail: "bot@renovateapp.com" },
  { line: 3, authorTime: T2024, author: "Ada", authorMail: "ada@example.com" },
  { line: 4, authorTime: T2025, author: "Grace", authorMail: "grace@example.com" }
]

const base = { fields: {}, state: "unverified" as const, agentPatterns: DEFAULT_AGENT_PATTERNS }

describe("Provenance", () => {
  it("provenanceOf - the age of the words is the newest author time in the chunk's lines, and its author", () => {
    const history = indexHistory(BLAME)
    const only1 = provenanceOf({ ...base, history, lineStart: 1, lineEnd: 1 })
    assert.deepStrictEqual(only1, { authorKind: "human", author: "Ada", createdAt: "2024-05-01T09:30:15Z", state: "unverified" })
    const upTo3 = provenanceOf({ ...base, history, lineStart: 1, lineEnd: 3 })
    assert.deepStrictEqual([upTo3.createdAt, upTo3.author, upTo3.authorKind], ["2025-01-02T03:04:05Z", "renovate[bot]", "agent"])
  })

  it("provenanceOf - on equal times the earlier line's author is chosen, whatever order blame came in", () => {
    const reversed = indexHistory([...BLAME].reverse())
    assert.strictEqual(provenanceOf({ ...base, history: reversed, lineStart: 2, lineEnd: 4 }).author, "renovate[bot]")
  })

  it("provenanceOf - history wins over frontmatter dates; without history the frontmatter `updated`, then `created`", () => {
    const fields = { updated: "2023-07-08", created: "2020-01-01", author: "Lin" }
    const withHistory = provenanceOf({ ...base, fields, history: indexHistory(BLAME), lineStart: 4, lineEnd: 4 })
    assert.strictEqual(withHistory.createdAt, "2025-01-02T03:04:05Z")
    const declared = provenanceOf({ ...base, fields, history: undefined, lineStart: 4, lineEnd: 4 })
    assert.deepStrictEqual([declared.createdAt, declared.author], ["2023-07-08T00:00:00Z", "Lin"])
    const created = provenanceOf({ ...base, fields: { created: "2020-01-01T12:00:00Z", owner: "marta" }, history: undefined, lineStart: 1, lineEnd: 1 })
    assert.deepStrictEqual([created.createdAt, created.author], ["2020-01-01T12:00:00Z", "marta"])
  })

  it("provenanceOf - lines history does not cover fall back to frontmatter, and with neither the age is unknown", () => {
    const history = indexHistory(BLAME)
    assert.strictEqual(provenanceOf({ ...base, fields: { created: "2022-02-02" }, history, lineStart: 9, lineEnd: 12 }).createdAt, "2022-02-02T00:00:00Z")
    assert.deepStrictEqual(provenanceOf({ ...base, history: undefined, lineStart: 1, lineEnd: 1 }), {
      authorKind: "human",
      author: null,
      createdAt: null,
      state: "unverified"
    })
  })

  it("isAgent - the default patterns, ignoring case, against name or mail, never inside a longer word", () => {
    assert.isTrue(isAgent(DEFAULT_AGENT_PATTERNS, ["dependabot[bot]"]))
    assert.isTrue(isAgent(DEFAULT_AGENT_PATTERNS, ["Deploy", "Release-Bot@ci.example"]))
    assert.isTrue(isAgent(DEFAULT_AGENT_PATTERNS, ["docs-bot"]))
    assert.isFalse(isAgent(DEFAULT_AGENT_PATTERNS, ["Abbot Smith", "abbot@example.com"]))
    assert.isFalse(isAgent(DEFAULT_AGENT_PATTERNS, ["Ann Docs-Bottle"]))
    assert.isTrue(isAgent(["claude"], ["Claude", "noreply@anthropic.com"]))
  })

  it("updatedOf - frontmatter `updated`, else the newest blamed line of the file, else `created`, else null", () => {
    assert.strictEqual(updatedOf({ updated: "2021-03-04T05:06:07Z" }, indexHistory(BLAME)), "2021-03-04")
    assert.strictEqual(updatedOf({ created: "2019-01-01" }, indexHistory(BLAME)), "2025-01-02")
    assert.strictEqual(updatedOf({ created: "2019-01-01" }, undefined), "2019-01-01")
    assert.isNull(updatedOf({}, undefined))
  })

  it("isoSecond - UTC to the second, milliseconds dropped", () => {
    assert.strictEqual(isoSecond(Date.UTC(2026, 10, 30, 23, 59, 59, 999)), "2026-11-30T23:59:59Z")
  })

  it("indexHistory - an author time outside four-digit years is ignored rather than breaking the date", () => {
    const history = indexHistory([{ line: 1, authorTime: 9e15, author: "x", authorMail: "x" }])
    assert.isNull(provenanceOf({ ...base, history, lineStart: 1, lineEnd: 1 }).createdAt)
  })
})
