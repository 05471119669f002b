import { assert, describe, it } from "@effect/vitest"
import { isLinkList } from "./LinkList.ts"

describe("isLinkList", () => {
  it("isLinkList - lists of links, wikilinks, autolinks and reference links", () => {
    assert.isTrue(isLinkList("- [Setup](setup.md)\n- [[rollback]]\n* <https://example.com>\n1. [Ref][r]", false))
    assert.isTrue(isLinkList("- see [[a]]\n- also [b](b.md)", false))
    assert.isTrue(isLinkList("[a](a.md) · [b](b.md)", false))
  })

  it("isLinkList - relation lines `verb [[target]]`", () => {
    assert.isTrue(isLinkList("- supersedes [[adr-0003]]\n- depends_on [[ledger]]\n- part of [[payments]]", false))
  })

  it("isLinkList - an item that says something beyond a short label is prose, unless under Relations", () => {
    const body = "- [Setup](setup.md) explains the keys you need before the first deploy"
    assert.isFalse(isLinkList(body, false))
    assert.isTrue(isLinkList(body, true))
  })

  it("isLinkList - prose, a list without links, a sentence around a link, and an empty body are not", () => {
    assert.isFalse(isLinkList("Read [the guide](g.md) first.", false))
    assert.isFalse(isLinkList("- one\n- two", false))
    assert.isFalse(isLinkList("- [[a]]\n- plain item", false))
    assert.isFalse(isLinkList("", false))
    assert.isFalse(isLinkList("- plain item", true))
  })
})
