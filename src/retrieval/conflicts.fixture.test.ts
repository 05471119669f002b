/**
 * The planted fixture: exactly five conflicts, one of them split across near-duplicates, and nothing
 * else among the hundreds of other statement pairs; the one a `supersedes` edge resolved stays silent
 * until the edge is removed.
 */
import { assert, describe, it } from "@effect/vitest"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import { candidates, edges, expected } from "../../test/fixtures/conflicts/Planted.ts"
import { splitStatements } from "./conflicts/statements.ts"
import { detect, findClashes } from "./conflicts.ts"
import { claimRef } from "./pack.ts"

// Uncapped, so a false positive cannot hide behind maxConflicts.
const config = { ...RetrievalConfig.defaults, maxConflicts: 100 }

describe("conflicts fixture", () => {
  it("detect - reports exactly the planted conflicts and nothing else", () => {
    assert.deepStrictEqual(detect({ candidates, edges, config }), expected)
  })

  it("detect - the fixture holds enough other statements for silence to mean something", () => {
    const planted = new Set([...expected.flatMap((c) => c.refs), ...edges.flatMap((e) => [e.from, e.to])])
    const others = candidates
      .filter((c) => !planted.has(claimRef(c)) && !planted.has(c.chunk.noteId))
      .flatMap((c) => splitStatements(c.chunk.text))
    assert.isAtLeast(others.length, 15)
  })

  it("detect - every pairwise clash belongs to one of the reported conflicts", () => {
    const reported = new Set(expected.flatMap((conflict) => conflict.refs))
    const clashes = findClashes({ candidates, edges, config })
    assert.strictEqual(clashes.length, 6)
    for (const clash of clashes) {
      assert.isTrue(reported.has(claimRef(clash.a.candidate)), clash.a.text)
      assert.isTrue(reported.has(claimRef(clash.b.candidate)), clash.b.text)
    }
  })

  it("detect - the resolved pair is a real disagreement, silenced only by its supersedes edge", () => {
    const unresolved = detect({ candidates, edges: edges.filter((e) => e.verb !== "supersedes"), config })
    const freeze = unresolved.filter((c) => c.refs.some((ref) => ref.startsWith("releases/")))
    assert.deepStrictEqual(freeze, [{
      topic: "deploys frozen release",
      refs: ["releases/freeze-2024.md:3-4#b1", "releases/freeze.md:3-4#b1"],
      note: "48h (Oct 2024) vs 24h (Oct 2025). Neither superseded."
    }])
  })

  it("detect - the default cap keeps the strongest three", () => {
    assert.deepStrictEqual(detect({ candidates, edges, config: RetrievalConfig.defaults }), expected.slice(0, 3))
  })

  it("detect - the split conflict is seen from either near-duplicate alone", () => {
    for (const hidden of ["guides/onboarding.md", "support/faq.md"]) {
      const rest = candidates.filter((c) => c.chunk.noteId !== hidden)
      const split = detect({ candidates: rest, edges, config }).find((c) => c.topic === "password reset links expire")
      assert.isDefined(split)
      assert.strictEqual(split!.refs.length, 2)
    }
  })
})
