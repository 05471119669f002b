import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import * as Recall from "../layers/Recall.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { chunk } from "../test/support/Fixtures.ts"
import { lookup } from "./lookup.ts"

const hash = (c: string) => c.repeat(64)
const evidence = (path: string, c: string) => [{ path, contentHash: hash(c) }]
const relation = (kind: string, from: string, to: string) => ({ kind, from, to, status: "observed" as const, confidence: "exact" as const, evidence: [] })

const snapshot: Snapshot = {
  schemaVersion: 1,
  pipelineVersion: "test",
  analyzerVersions: {},
  configurationHash: "",
  sourceRevision: null,
  compilerOptions: [],
  entities: [
    { id: "area:src", kind: "area", path: "src", evidence: [] },
    { id: "document:docs/pack.md", kind: "document", path: "docs/pack.md", evidence: evidence("docs/pack.md", "d"), title: "Packing", headings: [], summary: "How claims are packed into the budget, in words.", wordCount: 9, frontmatter: {}, generatedRegions: [], evidenceTruncated: false },
    { id: "module:src/pack.ts", kind: "module", path: "src/pack.ts", evidence: evidence("src/pack.ts", "a"), language: "ts", exports: [{ name: "pack", line: 3, declared: true, typeOnly: false }], declarations: [{ name: "pack", kind: "function", line: 3 }] },
    { id: "module:src/tokens.ts", kind: "module", path: "src/tokens.ts", evidence: evidence("src/tokens.ts", "b"), language: "ts", exports: [{ name: "count", line: 1, declared: true, typeOnly: false }], declarations: [{ name: "count", kind: "function", line: 1 }] },
    { id: "module:src/words.ts", kind: "module", path: "src/words.ts", evidence: evidence("src/words.ts", "c"), language: "ts", exports: [], declarations: [] }
  ],
  relations: [
    relation("contains", "area:src", "module:src/pack.ts"),
    relation("contains", "area:src", "module:src/tokens.ts"),
    relation("contains", "area:src", "module:src/words.ts"),
    relation("imports", "module:src/pack.ts", "module:src/tokens.ts"),
    relation("calls", "module:src/pack.ts", "module:src/tokens.ts"),
    relation("imports", "module:src/tokens.ts", "module:src/words.ts"),
    relation("imports", "module:src/pack.ts", "unresolved:./gone"),
    relation("mentions", "document:docs/pack.md", "module:src/pack.ts")
  ],
  coverage: [],
  contentHash: ""
}

const layer = Layer.merge(TokenCounterDefault.layer, Recall.reference({
  chunks: [
    chunk({ id: "src/pack.ts#a1", text: "src/pack.ts\n/** Packs claims inside the budget, first to last. */\nimport { count } from \"./tokens.ts\"", noteType: "code" }),
    chunk({ id: "src/tokens.ts#b1", text: "src/tokens.ts\nexport const count = (text: string) => text.length", noteType: "code" }),
    chunk({ id: "docs/pack.md#d1", text: "Packing\nHow claims are packed into the budget, in words." })
  ],
  edges: []
}))

describe("lookup", () => {
  it.effect("an entity by path, symbol or ref, with neighbours by relation within depth, documents and evidence", () =>
    Effect.gen(function*() {
      const byPath = yield* lookup({ path: "src/pack.ts", depth: 2 }, snapshot)
      assert.strictEqual(byPath.entity.id, "module:src/pack.ts")
      assert.strictEqual(byPath.entity.area, "area:src")
      assert.strictEqual(byPath.entity.summary, "Packs claims inside the budget, first to last.")
      assert.deepStrictEqual(byPath.entity.symbols, ["pack"])
      const imports = byPath.neighbours?.find((group) => group.relation === "imports")?.entries ?? []
      assert.deepStrictEqual(imports.map((n) => [n.id, n.direction, n.distance, n.via]), [["module:src/tokens.ts", "out", 1, "module:src/pack.ts"]])
      // Imported and called: listed under both kinds, so the derived `calls` never hides the import.
      const calls = byPath.neighbours?.find((group) => group.relation === "calls")?.entries ?? []
      assert.deepStrictEqual(calls.map((n) => [n.id, n.direction, n.distance, n.via]), [["module:src/tokens.ts", "out", 1, "module:src/pack.ts"]])
      // Each entity at its nearest distance only, through the first entity that reached it in sorted order.
      const contains = byPath.neighbours?.find((group) => group.relation === "contains")?.entries ?? []
      assert.deepStrictEqual(contains.map((n) => [n.id, n.direction, n.distance, n.via]), [
        ["area:src", "in", 1, "module:src/pack.ts"],
        ["module:src/words.ts", "out", 2, "area:src"]
      ])
      assert.strictEqual(byPath.neighbours?.flatMap((group) => group.entries).filter((n) => n.id === "module:src/words.ts").length, 1)
      assert.deepStrictEqual(byPath.documents?.map((d) => [d.id, d.relation]), [["document:docs/pack.md", "mentions"]])
      assert.deepStrictEqual(byPath.evidence.map((e) => e.path), ["src/pack.ts", "docs/pack.md"])
      assert.strictEqual(byPath.evidence[0]?.contentHash, hash("a"))
      assert.deepStrictEqual((yield* lookup({ symbol: "count" }, snapshot)).entity.id, "module:src/tokens.ts")
      assert.deepStrictEqual((yield* lookup({ ref: "src/tokens.ts:1-1#b1" }, snapshot)).entity.id, "module:src/tokens.ts")
      assert.deepStrictEqual((yield* lookup({ path: "src" }, snapshot)).entity.id, "area:src")
      assert.deepStrictEqual((yield* lookup({ path: "src/pack.ts", depth: 0 }, snapshot)).neighbours, [])
    }).pipe(Effect.provide(layer)))

  it.effect("a budget drops sections in the declared order, never the entity or the evidence paths and hashes", () =>
    Effect.gen(function*() {
      const full = yield* lookup({ path: "src/pack.ts", depth: 2, budgetTokens: 32_000 }, snapshot)
      assert.isTrue(full.budget?.fits)
      assert.deepStrictEqual(full.budget?.dropped, [])
      assert.deepStrictEqual(full.budget?.kept, ["evidenceExcerpts", "related", "neighbours", "summaries"])
      const totals: Array<number> = []
      for (const budgetTokens of [full.budget!.tokens.total - 1, full.budget!.tokens.core, 0]) {
        const trimmed = yield* lookup({ path: "src/pack.ts", depth: 2, budgetTokens }, snapshot)
        const budget = trimmed.budget!
        // A prefix of the declared order, and nothing else, is dropped.
        assert.deepStrictEqual(budget.dropped, ["evidenceExcerpts", "related", "neighbours", "summaries"].slice(0, budget.dropped.length))
        assert.strictEqual(trimmed.entity.id, "module:src/pack.ts")
        assert.deepStrictEqual(trimmed.evidence.map((e) => [e.path, e.contentHash]), full.evidence.map((e) => [e.path, e.contentHash]))
        assert.strictEqual(budget.fits, budget.tokens.total <= budgetTokens)
        if (!budget.fits) assert.strictEqual(budget.dropped.length, 4)
        totals.push(budget.tokens.total)
      }
      assert.isAtLeast(totals[0]!, totals[1]!)
      assert.isFalse((yield* lookup({ path: "src/pack.ts", budgetTokens: 0 }, snapshot)).budget!.fits)
    }).pipe(Effect.provide(layer)))

  it.effect("names nothing, two things or an unknown entity: a clear typed error", () =>
    Effect.gen(function*() {
      assert.match((yield* Effect.flip(lookup({}, snapshot))).message, /exactly one of id, path, symbol or ref/)
      assert.match((yield* Effect.flip(lookup({ id: "module:src/pack.ts", path: "src/pack.ts" }, snapshot))).message, /exactly one/)
      const missing = yield* Effect.flip(lookup({ path: "src/gone.ts" }, snapshot))
      assert.strictEqual(missing._tag, "LookupNotFound")
      assert.match((yield* Effect.flip(lookup({ id: "unresolved:./gone" }, snapshot))).message, /no entity for id/)
      assert.match((yield* Effect.flip(lookup({ path: "src/pack.ts", depth: 4 }, snapshot))).message, /depth/)
    }).pipe(Effect.provide(layer)))
})
