import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as ContextPack from "../domain/ContextPack.ts"
import type { Gap } from "../domain/Gap.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { TokenCounter } from "../ports/TokenCounter.ts"
import { candidate, healthy, query } from "../../test/support/Fixtures.ts"
import {
  clampEchoedQuery,
  ensureNeverSilent,
  layer,
  makePack,
  MAX_ECHOED_QUERY_CHARS,
  MAX_GUARDED_QUERY_CHARS,
  Packer,
  type PackerConfig,
  type PackInput,
  toClaim,
  toSignificant
} from "./pack.ts"

/** One token per character: makes every cost computable by hand. */
const charCount = (text: string): number => text.length
const config: PackerConfig = RetrievalConfig.defaults
/** Claims-only accounting: the reserve is out of reach, so every figure is a sum of claim costs. */
const pack = makePack(charCount, { ...config, reportReserveTokens: 1_000_000 })
/** The shipped reserve: the whole serialised pack must fit too. */
const packWhole = makePack(charCount, config)
const cost = (claim: ContextPack.Claim): number => JSON.stringify(ContextPack.claimToWire(claim)).length

const input = (overrides: Partial<PackInput> & Pick<PackInput, "query">): PackInput => ({
  candidates: [],
  conflicts: [],
  gaps: [],
  indexHealth: healthy,
  ...overrides
})

describe("pack", () => {
  it("publishes related in the order stage 5 gave it, not re-sorted", () => {
    const c = { ...candidate({ id: "a.md#0", text: "alpha", score: 0.5 }), related: ["z.md", "b.md", "m.md"] }
    assert.deepStrictEqual(toClaim(c, false).related, ["z.md", "b.md", "m.md"])
    const packed = pack(input({ query: query("alpha"), candidates: [c] }))
    assert.deepStrictEqual(packed.claims[0]!.related, ["z.md", "b.md", "m.md"])
  })

  it("an empty candidate list gives the fallback gap and no claims", () => {
    const result = pack(input({ query: query("anything") }))
    assert.deepStrictEqual(result.claims, [])
    assert.deepStrictEqual(result.gaps, [{ reason: "no_results", text: config.fallbackGapText }])
    assert.strictEqual(result.usedTokens, 0)
    assert.isFalse(result.partial)
  })

  it("a zero budget packs nothing, says why and counts the drops", () => {
    const result = pack(input({
      query: query("q", 0),
      candidates: [candidate({ id: "a.md#1", text: "alpha", score: 2 }), candidate({ id: "b.md#1", text: "beta", score: 1 })]
    }))
    assert.deepStrictEqual(result.claims, [])
    assert.strictEqual(result.usedTokens, 0)
    assert.deepStrictEqual(result.gaps.map((g) => g.reason), ["budget_truncated"])
    assert.strictEqual(result.budget.dropped, 2)
    assert.isTrue(result.partial)
  })

  it("fills in score order and charges each claim its wire JSON", () => {
    const candidates = [
      candidate({ id: "b.md#1", text: "second", score: 1 }),
      candidate({ id: "a.md#1", text: "first", score: 2 })
    ]
    const result = pack(input({ query: query("q", 4_000), candidates }))
    assert.deepStrictEqual(result.claims.map((c) => c.text), ["first", "second"])
    assert.strictEqual(result.usedTokens, result.claims.reduce((sum, c) => sum + cost(c), 0))
    assert.strictEqual(result.budget.used, result.usedTokens)
    assert.isAbove(result.budget.report, 0)
  })

  it("admits claims in fill order and publishes them in publish order, the same claims either way", () => {
    const candidates = [
      candidate({ id: "a.md#1", text: "a one", score: 4 }),
      candidate({ id: "a.md#2", text: "a two", score: 3 }),
      candidate({ id: "b.md#1", text: "b one", score: 2 }),
      candidate({ id: "c.md#1", text: "c one is the longest of them", score: 1 })
    ]
    const [a1, a2, b1] = candidates.map((c) => cost(toClaim(c, false)))
    // Room for the first three in fill order; the fourth misses and cannot be cut to fit.
    const budget = a1! + a2! + b1!
    const reversed = (list: ReadonlyArray<typeof candidates[number]>) => [...list].reverse()
    const plain = pack(input({ query: query("q", budget), candidates }))
    const published = pack(input({ query: query("q", budget), candidates, publishOrder: reversed }))
    assert.deepStrictEqual(plain.claims.map((c) => c.text), ["a one", "a two", "b one"])
    assert.deepStrictEqual(published.claims.map((c) => c.text), ["b one", "a two", "a one"])
    assert.strictEqual(published.usedTokens, plain.usedTokens)
    assert.strictEqual(published.budget.dropped, plain.budget.dropped)
    // The publish order is handed the packed claims only, in fill order.
    const seen: Array<string> = []
    pack(input({ query: query("q", budget), candidates, publishOrder: (list) => (seen.push(...list.map((c) => c.chunk.id)), list) }))
    assert.deepStrictEqual(seen, ["a.md#1", "a.md#2", "b.md#1"])
  })

  it("at any budget, with the report measured too, the publish order changes the claims' order and nothing else", () => {
    const candidates = Array.from({ length: 6 }, (_, i) => candidate({ id: `n${i}.md#1`, text: `claim ${i} `.repeat(8), score: 10 - i }))
    const total = candidates.reduce((sum, c) => sum + cost(toClaim(c, false)), 0)
    const reversed = (list: ReadonlyArray<typeof candidates[number]>) => [...list].reverse()
    // From budgets the claims fit alone by their own costs to ones that hold the report as well.
    for (let budget = total; budget < total + 2_000; budget += 50) {
      const plain = packWhole(input({ query: query("q", budget), candidates }))
      const published = packWhole(input({ query: query("q", budget), candidates, publishOrder: reversed }))
      assert.deepStrictEqual([...published.claims].reverse().map((c) => c.text), plain.claims.map((c) => c.text))
    }
  })

  it("breaks score ties by chunk id", () => {
    const candidates = [candidate({ id: "z.md#1", text: "z", score: 1 }), candidate({ id: "a.md#1", text: "a", score: 1 })]
    assert.deepStrictEqual(pack(input({ query: query("q", 4_000), candidates })).claims.map((c) => c.note), ["a.md", "z.md"])
  })

  it("drops a candidate that is nothing but a link list, without calling it a budget drop", () => {
    const candidates = [
      candidate({ id: "a.md#rel", text: "depends_on [[b]]", score: 9, isLinkList: true }),
      candidate({ id: "a.md#1", text: "words", score: 1 })
    ]
    const result = pack(input({ query: query("q", 400), candidates }))
    assert.deepStrictEqual(result.claims.map((c) => c.text), ["words"])
    assert.strictEqual(result.budget.dropped, 0)
  })

  it("skips a claim that does not fit instead of stopping, and cuts the best miss at a sentence", () => {
    const big = candidate({ id: "big.md#1", text: "Big > Part\nOne sentence fits. The rest " + "is long ".repeat(40), score: 3 })
    const small = candidate({ id: "small.md#1", text: "small", score: 1 })
    const smallCost = cost(toClaim(small, false))
    const cutCost = cost({ ...toClaim(big, false), text: "Big > Part\nOne sentence fits.", truncated: true })
    const result = pack(input({ query: query("q", smallCost + cutCost + 5), candidates: [small, big] }))
    assert.deepStrictEqual(result.claims.map((c) => [c.note, c.text, c.truncated ?? false]), [
      ["big.md", "Big > Part\nOne sentence fits.", true],
      ["small.md", "small", false]
    ])
    assert.strictEqual(result.usedTokens, smallCost + cutCost)
    assert.strictEqual(result.budget.dropped, 1)
    assert.isTrue(result.partial)
    assert.strictEqual(result.gaps.at(-1)?.reason, "budget_truncated")
  })

  it("a cut keeps the sentence that matches the question when the fitting prefix would lose it", () => {
    const filler = "Filler words go here. ".repeat(12)
    const big = candidate({ id: "big.md#1", text: `Big > Part\n${filler}The rotation policy renews keys monthly. Trailing words. ` + "more ".repeat(40), score: 3 })
    const kept = "Big > Part\n… The rotation policy renews keys monthly. Trailing words."
    const keptCost = cost({ ...toClaim(big, false), text: kept, truncated: true })
    const result = pack(input({ query: query("what is the key rotation policy?", keptCost + 2), candidates: [big] }))
    assert.deepStrictEqual(result.claims.map((c) => [c.text, c.truncated ?? false]), [[kept, true]])
    // With no named term to match, the cut is the longest fitting prefix, as before.
    const plain = pack(input({ query: query("q", keptCost + 2), candidates: [big] }))
    assert.isTrue(plain.claims[0]!.text.startsWith("Big > Part\nFiller words go here."))
    // When the prefix already holds the sentence, the prefix is kept.
    const early = candidate({ id: "early.md#1", text: `Big > Part\nThe rotation policy renews keys monthly. ${filler}` + "more ".repeat(40), score: 3 })
    const earlyResult = pack(input({ query: query("what is the key rotation policy?", keptCost + 2), candidates: [early] }))
    assert.isTrue(earlyResult.claims[0]!.text.startsWith("Big > Part\nThe rotation policy renews keys monthly."))
    assert.notInclude(earlyResult.claims[0]!.text, "…")
  })

  it("budget_truncated only when what was left out held a question term the packed claims lack", () => {
    const answer = candidate({ id: "a.md#1", text: "Keys > Rotation\nThe rotation policy renews keys monthly.", score: 3 })
    const repeat = candidate({ id: "b.md#1", text: "Keys > Again\nRotation of keys follows the policy. " + "more ".repeat(30), score: 2 })
    const other = candidate({ id: "c.md#1", text: "Audit > Log\nEvery renewal is audited in the ledger. " + "more ".repeat(30), score: 1 })
    const room = cost(toClaim(answer, false)) + 4
    const repeated = pack(input({ query: query("what is the key rotation policy?", room), candidates: [answer, repeat] }))
    assert.deepStrictEqual(repeated.claims.map((c) => c.note), ["a.md"])
    assert.strictEqual(repeated.budget.dropped, 1)
    assert.isTrue(repeated.partial)
    assert.notInclude(repeated.gaps.map((g) => g.reason), "budget_truncated")
    // "ledger" is held only by the claim left out: the reader lost something, so the notice says so.
    const lost = pack(input({ query: query("what is the key rotation policy in the ledger?", room), candidates: [answer, other] }))
    assert.deepStrictEqual(lost.claims.map((c) => c.note), ["a.md"])
    assert.include(lost.gaps.map((g) => g.reason), "budget_truncated")
  })

  it("cuts at most one claim", () => {
    const text = "T > H\nFirst sentence. " + "more words ".repeat(30)
    const candidates = [candidate({ id: "a.md#1", text, score: 2 }), candidate({ id: "b.md#1", text, score: 1 })]
    const result = pack(input({ query: query("q", cost(toClaim(candidates[0]!, false)) - 10), candidates }))
    assert.strictEqual(result.claims.filter((c) => c.truncated === true).length, 1)
    assert.strictEqual(result.budget.dropped, 2)
  })

  it("caps gaps at maxGaps, most specific first, the budget notice displacing the least specific", () => {
    const gaps: Array<Gap> = [
      { reason: "no_results", text: "No claims found about zebra." },
      { reason: "low_confidence", text: "Nothing joins the two halves." },
      { reason: "filtered_out", text: "Your filters removed 3 matches." },
      { reason: "implied_type", text: "No decision found." }
    ]
    const roomy = pack(input({ query: query("q", 400), gaps }))
    assert.deepStrictEqual(roomy.gaps.map((g) => g.reason), ["filtered_out", "implied_type", "low_confidence"])
    const tight = pack(input({ query: query("q", 0), gaps, candidates: [candidate({ id: "a.md#1", text: "x", score: 1 })] }))
    assert.deepStrictEqual(tight.gaps.map((g) => g.reason), ["filtered_out", "implied_type", "budget_truncated"])
  })

  it("maxGaps 0 reports nothing while claims stand, and the fallback when none do", () => {
    const quiet = makePack(charCount, { ...config, maxGaps: 0 })
    const gaps: Array<Gap> = [{ reason: "no_results", text: "No claims found about zebra." }]
    const withClaims = quiet(input({ query: query("q", 400), gaps, candidates: [candidate({ id: "a.md#1", text: "x", score: 1 })] }))
    assert.deepStrictEqual(withClaims.gaps, [])
    const empty = quiet(input({ query: query("q", 400), gaps }))
    assert.deepStrictEqual(empty.gaps, [{ reason: "no_results", text: config.fallbackGapText }])
  })

  it("publishes score and freshness at three significant digits", () => {
    assert.strictEqual(toSignificant(3.0249e-13), 3.02e-13)
    assert.strictEqual(toSignificant(0.0123456), 0.0123)
    assert.strictEqual(toSignificant(1234.5), 1230)
    assert.strictEqual(toSignificant(0.99951), 1)
    assert.strictEqual(toSignificant(0), 0)
    const claim = toClaim(candidate({ id: "a.md#1", text: "x", score: 0.0254007 }), false)
    assert.strictEqual(claim.score, 0.0254)
  })

  it("explain adds the components, which multiply out to the unrounded score", () => {
    const c = candidate({ id: "a.md#1", text: "x", score: 0.0254007 })
    const claim = toClaim(c, true)
    assert.deepStrictEqual(claim.components, c.components)
    assert.isUndefined(toClaim(c, false).components)
  })

  it("clamps the echoed query, harder when it holds an over-long piece", () => {
    assert.strictEqual(clampEchoedQuery("a".repeat(50_000)).length, MAX_GUARDED_QUERY_CHARS)
    assert.strictEqual(clampEchoedQuery("word ".repeat(10_000)).length, MAX_ECHOED_QUERY_CHARS)
    assert.strictEqual(clampEchoedQuery("short question"), "short question")
    // Never splits a surrogate pair.
    const emoji = "😀".repeat(20_000)
    assert.strictEqual(clampEchoedQuery(emoji).length % 2, 0)
  })

  it("trims the echoed query when the budget is at least the reserve and the query alone would breach it", () => {
    const result = packWhole(input({ query: query("q".repeat(3_000) + " end", 600) }))
    assert.isAtMost(ContextPack.serialise(result).length, 600)
    assert.isBelow(result.query.length, 3_004)
  })

  it("keeps the whole serialised pack inside a budget at or above the reserve", () => {
    const candidates = Array.from({ length: 30 }, (_, i) =>
      candidate({ id: `n${i}.md#1`, text: `Note ${i} > Section\n` + "Some sentence here. ".repeat(10), score: 1 / (i + 1) }))
    for (const budget of [512, 700, 1_500, 4_000]) {
      const result = packWhole(input({ query: query("what is here", budget), candidates }))
      assert.isAtMost(ContextPack.serialise(result).length, budget, `budget ${budget}`)
      assert.isAtMost(result.usedTokens, budget)
    }
  })

  it("codeEvidence outline packs code claims as outlines, documents as written, so more files fit", () => {
    const body = Array.from({ length: 30 }, (_, i) => `  const step${i} = input.value + ${i}`).join("\n")
    const code = (id: string, score: number) =>
      candidate({ id, text: `${id.split("#")[0]}\n/** Sums the steps. */\nexport function total(input: { value: number }) {\n${body}\n  return 0\n}`, noteType: "code", score })
    const candidates = [code("src/a.ts#1", 0.9), code("src/b.ts#1", 0.8), code("src/c.ts#1", 0.7), candidate({ id: "docs/a.md#1", text: "A\nA { brace } in prose stays.", score: 0.6 })]
    const outlined = makePack(charCount, { ...config, reportReserveTokens: 1_000_000, codeEvidence: "outline" })
    const budget = cost(toClaim(candidates[0]!, false)) + cost(toClaim(candidates[3]!, false)) + 10
    const full = pack(input({ query: query("total steps", budget), candidates }))
    const outline = outlined(input({ query: query("total steps", budget), candidates }))
    assert.isAbove(new Set(outline.claims.map((c) => c.note)).size, new Set(full.claims.map((c) => c.note)).size)
    const first = outline.claims[0]!
    assert.match(first.text, /^src\/a\.ts\n\/\*\* Sums the steps\. \*\/\nexport function total\(input: \{ value: number \}\) \{\n  … lines \d+-\d+ elided\n\}$/)
    assert.strictEqual(outline.claims.find((c) => c.note === "docs/a.md")?.text, "A\nA { brace } in prose stays.")
    assert.isAtMost(outline.usedTokens, budget)
  })

  it("ensureNeverSilent - adds the fallback only to a pack with neither claims nor gaps", () => {
    const empty = pack(input({ query: query("q", 400) }))
    const stripped = { ...empty, gaps: [] }
    assert.deepStrictEqual(ensureNeverSilent(stripped, "nothing").gaps, [{ reason: "no_results", text: "nothing" }])
    assert.strictEqual(ensureNeverSilent(empty, "nothing"), empty)
  })

  it.effect("Packer layer - uses the counter and config it is given", () =>
    Effect.gen(function*() {
      const packer = yield* Packer
      const result = yield* packer.pack(input({ query: query("q", 400), gaps: [
        { reason: "no_results", text: "a" },
        { reason: "no_results", text: "b" }
      ] }))
      assert.deepStrictEqual(result.gaps.map((g) => g.text), ["a"])
    }).pipe(Effect.provide(layer.pipe(
      Layer.provide(Layer.succeed(TokenCounter, { id: "chars", exact: false, count: charCount })),
      Layer.provide(RetrievalConfig.layer({ maxGaps: 1 }))
    ))))
})
