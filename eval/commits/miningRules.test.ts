import { describe, expect, it } from "vitest"
import { cleanSubject, GO, isSourcePath, isTestPath, judge, LOG_FORMAT, parseLog, PYTHON, relevantAtParent, splitOf } from "./miningRules.ts"
import { firstRelevantRank, scoreRanking } from "./scoring.ts"

const commit = (subject: string, changes: Array<{ status: string; path: string; from?: string }>, extra: { parents?: Array<string>; author?: string } = {}) => ({
  commit: "0123456789abcdef0123456789abcdef01234567",
  parents: extra.parents ?? ["fedcba9876543210fedcba9876543210fedcba98"],
  committedAt: 1_700_000_000,
  author: extra.author ?? "Ada",
  subject,
  changes
})

describe("commit mining rules", () => {
  it("cleans conventional prefixes, issue numbers and tags from a subject", () => {
    expect(cleanSubject("fix(compiler-core): avoid crash on CDATA at the document root (#14916)")).toBe("avoid crash on CDATA at the document root")
    expect(cleanSubject("feat!: drop node 18 support, closes #12")).toBe("drop node 18 support")
    expect(cleanSubject("fix(expect): handle nullish toHaveProperty values (fix #10735) (#10811)")).toBe("handle nullish toHaveProperty values")
    expect(cleanSubject(":bug: [core] keep headers on retry (vuejs/core#42)")).toBe("keep headers on retry")
    expect(cleanSubject("Fix tuple `searchParams` mutations leaking")).toBe("Fix tuple `searchParams` mutations leaking")
  })

  it("tells tests, fixtures and docs from shipped source", () => {
    expect(isTestPath("packages/a/__tests__/x.ts")).toBe(true)
    expect(isTestPath("src/x.spec.tsx")).toBe(true)
    expect(isTestPath("test/fixtures/y.js")).toBe(true)
    expect(isTestPath("src/testament.ts")).toBe(false)
    expect(isSourcePath("src/x.ts")).toBe(true)
    expect(isSourcePath("docs/.vitepress/config.ts")).toBe(false)
    expect(isSourcePath("src/x.test.ts")).toBe(false)
    expect(isSourcePath("README.md")).toBe(false)
  })

  it("tells a Python or Go test from its source by the language's own conventions, and keeps the TypeScript rules as they were", () => {
    expect(isSourcePath("src/flask/app.py", PYTHON)).toBe(true)
    expect(isSourcePath("src/flask/test_app.py", PYTHON)).toBe(false)
    expect(isSourcePath("src/flask/app_test.py", PYTHON)).toBe(false)
    expect(isSourcePath("conftest.py", PYTHON)).toBe(false)
    expect(isSourcePath("tests/helpers.py", PYTHON)).toBe(false)
    expect(isSourcePath("command.go", GO)).toBe(true)
    expect(isSourcePath("command_test.go", GO)).toBe(false)
    expect(isSourcePath("doc/testdata/sample.go", GO)).toBe(false)
    expect(isSourcePath("cmd/testdata/sample.go", GO)).toBe(false)
    // The TypeScript rules take neither language, so the TypeScript set mines as it did.
    expect(isSourcePath("src/app.py")).toBe(false)
    expect(isSourcePath("pkg/testdata/x.ts")).toBe(true)
  })

  it("names relevant files as they were at the parent: renames by their old path, additions not at all", () => {
    expect(relevantAtParent([
      { status: "M", path: "src/b.ts" },
      { status: "A", path: "src/new.ts" },
      { status: "R087", path: "src/renamed.ts", from: "src/old.ts" },
      { status: "D", path: "src/gone.js" },
      { status: "M", path: "src/b.test.ts" }
    ])).toEqual(["src/b.ts", "src/gone.js", "src/old.ts"])
  })

  it("rejects what is not a change a question names, and says why", () => {
    const source = [{ status: "M", path: "src/a.ts" }]
    const reason = (verdict: ReturnType<typeof judge>) => (verdict._tag === "Rejected" ? verdict.reason : "item")
    expect(reason(judge("o/r", commit("merge branch main into dev today", source, { parents: ["a", "b"] })))).toBe("merge")
    expect(reason(judge("o/r", commit("update all the things now", source, { author: "renovate[bot]" })))).toBe("bot")
    expect(reason(judge("o/r", commit("release: v3.2.1", source)))).toBe("release")
    expect(reason(judge("o/r", commit("chore(deps): update dependency vite to v6", source)))).toBe("dependencies")
    expect(reason(judge("o/r", commit("docs: explain the cache option better", source)))).toBe("non-source type")
    expect(reason(judge("o/r", commit("test: cover the retry path fully", source)))).toBe("non-source type")
    expect(reason(judge("o/r", commit("fix: keep headers on retry", [{ status: "M", path: "src/a.test.ts" }])))).toBe("no source file at the parent")
    expect(reason(judge("o/r", commit("fix: typo (#1)", source)))).toBe("query too short")
    expect(reason(judge("o/r", commit("refactor: move every module around", Array.from({ length: 21 }, (_, i) => ({ status: "M", path: `src/m${i}.ts` })))))).toBe("too many files")
    expect(reason(judge("o/r", commit("fix: keep headers on retry", source)))).toBe("item")
  })

  it("makes an item whose split is decided by its id alone", () => {
    const verdict = judge("o/r", commit("fix(core): keep headers on retry (#7)", [{ status: "M", path: "src/a.ts" }]))
    expect(verdict._tag).toBe("Item")
    if (verdict._tag !== "Item") return
    expect(verdict.item).toMatchObject({ id: "o/r@0123456789ab", query: "keep headers on retry", relevant: ["src/a.ts"], parent: "fedcba9876543210fedcba9876543210fedcba98" })
    expect(verdict.item.split).toBe(splitOf("o/r@0123456789ab"))
    const splits = new Set(Array.from({ length: 64 }, (_, i) => splitOf(`o/r@${i}`)))
    expect(splits).toEqual(new Set(["dev", "heldout"]))
  })

  it("reads git's log in the format it asks for", () => {
    const [r, f] = [LOG_FORMAT[0]!, LOG_FORMAT[3]!]
    const output = `${r}abc${f}p1${f}1700000000${f}Ada${f}fix: keep headers\n\nM\tsrc/a.ts\nR100\tsrc/old.ts\tsrc/new.ts\n${r}def${f}p2 p3${f}1700000001${f}Bob${f}merge\n`
    expect(parseLog(output)).toEqual([
      { commit: "abc", parents: ["p1"], committedAt: 1_700_000_000, author: "Ada", subject: "fix: keep headers", changes: [{ status: "M", path: "src/a.ts" }, { status: "R100", path: "src/new.ts", from: "src/old.ts" }] },
      { commit: "def", parents: ["p2", "p3"], committedAt: 1_700_000_001, author: "Bob", subject: "merge", changes: [] }
    ])
  })

  it("scores a ranking by its first relevant file", () => {
    expect(firstRelevantRank(["a", "b", "c"], ["c", "b"])).toBe(2)
    expect(scoreRanking(["a", "b", "c", "d", "e", "f"], ["f"])).toEqual({ reciprocalRank: 1 / 6, hitAt5: 0 })
    expect(scoreRanking(["a"], ["z"])).toEqual({ reciprocalRank: 0, hitAt5: 0 })
  })
})
