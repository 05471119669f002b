import { assert, describe, it } from "@effect/vitest"
import * as ContextPack from "../../src/domain/ContextPack.ts"
import { makePack } from "../../src/retrieval/pack.ts"
import * as RetrievalConfig from "../../src/RetrievalConfig.ts"
import { candidate, healthy, query } from "../../test/support/Fixtures.ts"
import { MARK_CLOSE, MARK_GUTTER, MARK_OPEN, renderText } from "./PackText.ts"

const pack = makePack((text) => text.length, RetrievalConfig.defaults)
const question = "how is the token budget enforced?"
const budgetNote = candidate({
  id: "docs/budget.md#b1",
  text: "Budget > Enforcement\nPacking is stage nine.\nClaims are ranked first. The packer enforces the token budget exactly, never more. Gaps are free.",
  score: 0.9
})
const queueNote = candidate({ id: "docs/queues.md#b0", text: "Queues > Choice\nDispatch events go over Kafka.", score: 0.5 })
const twoClaims = pack({ query: query(question), candidates: [budgetNote, queueNote], conflicts: [], gaps: [], indexHealth: healthy })

describe("renderText", () => {
  it("opens with one line per claim: ref, heading path, why it matched", () => {
    const lines = renderText(twoClaims).split("\n")
    assert.strictEqual(lines[0], "2 claims:")
    assert.strictEqual(lines[1], "1. docs/budget.md:1-3#b1  Budget > Enforcement  (note; matched token, budget (heading), enforced (heading))")
    assert.strictEqual(lines[2], "2. docs/queues.md:1-2#b0  Queues > Choice  (note; by meaning; none of the question's words)")
  })

  it("marks the best-matching sentence of each claim, not its opening", () => {
    const text = renderText(twoClaims)
    const marked = text.split("\n").filter((line) => line.startsWith(MARK_GUTTER))
    assert.deepStrictEqual(marked, [`${MARK_GUTTER}Claims are ranked first. ${MARK_OPEN}The packer enforces the token budget exactly, never more.${MARK_CLOSE} Gaps are free.`])
    assert.include(text, "\n   Packing is stage nine.\n")
    // The queue claim holds none of the question's words: nothing of it is marked.
    assert.include(text, "\n   Dispatch events go over Kafka.\n")
  })

  it("marks a whole line without brackets when the sentence is the line", () => {
    const line = candidate({ id: "docs/a.md#b0", text: "A > B\nThe token budget is enforced by the packer.", score: 1 })
    const text = renderText(pack({ query: query(question), candidates: [line], conflicts: [], gaps: [], indexHealth: healthy }))
    assert.include(text, `\n${MARK_GUTTER}The token budget is enforced by the packer.\n`)
    assert.notInclude(text, MARK_OPEN)
  })

  it("marks every line a hard-wrapped sentence runs over, bracketing it where it shares them", () => {
    const wrapped = candidate({ id: "docs/w.md#b0", text: "W > X\nIntro here. The packer enforces\nthe token budget. Done.", score: 1 })
    const text = renderText(pack({ query: query(question), candidates: [wrapped], conflicts: [], gaps: [], indexHealth: healthy }))
    assert.include(text, `\n${MARK_GUTTER}Intro here. ${MARK_OPEN}The packer enforces\n${MARK_GUTTER}the token budget.${MARK_CLOSE} Done.`)
  })

  it("reads code a line at a time", () => {
    const code = candidate({ id: "src/pack.ts#b0", noteType: "code", text: "src/pack.ts > enforce\nconst limit = query.max\nexport const enforceTokens = (x) => x", score: 1 })
    const text = renderText(pack({ query: query(question), candidates: [code], conflicts: [], gaps: [], indexHealth: healthy }))
    assert.include(text, `\n${MARK_GUTTER}export const enforceTokens = (x) => x`)
    assert.include(text, "\n   const limit = query.max\n")
  })

  it("leaves the wire JSON as it was", () => {
    const before = ContextPack.serialise(twoClaims)
    renderText(twoClaims)
    assert.strictEqual(ContextPack.serialise(twoClaims), before)
  })

  it("an empty pack prints its gap and budget line, no claim header", () => {
    const empty = pack({ query: query(question), candidates: [], conflicts: [], gaps: [], indexHealth: healthy })
    const text = renderText(empty)
    assert.notInclude(text, "claims:")
    assert.match(text, /^gap \(no_results\): /)
  })

  it("reads the question's words with the configured stopwords", () => {
    const config = { ...RetrievalConfig.defaults, gapStopwords: [...RetrievalConfig.defaults.gapStopwords, "token"] }
    assert.include(renderText(twoClaims, config).split("\n")[1]!, "(note; matched budget (heading), enforced (heading))")
  })
})
