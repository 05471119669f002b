import { assert, describe, it } from "@effect/vitest"
import { snapshotOf } from "../../test/graph/snapshot.ts"
import { canonicality, canonicalityRanking } from "./Canonicality.ts"

const leaves = ["a", "b", "c", "d", "e"].map((name) => `document:docs/${name}.md`)

// Five leaves link to one hub; nothing else. With damping a = 0.85 over n = 6 nodes, the hub is
// dangling, so its rank h is spread evenly: leaf = (1 - a)/6 + a·h/6 and
// h = (1 - a)/6 + a·5·leaf + a·h/6. Solving gives h = 0.512195… and leaf = 0.097561…,
// so leaf / h = 4/21 = 0.190476 after max-normalisation.
const star = snapshotOf({
  entities: ["document:docs/hub.md", ...leaves],
  relations: leaves.map((leaf) => [leaf, "links-to", "document:docs/hub.md"] as const)
})

describe("canonicality", () => {
  it("a star of links - the centre scores 1, every leaf 4/21", () => {
    assert.deepStrictEqual(canonicalityRanking(star), [
      { id: "document:docs/hub.md", path: "docs/hub.md", score: 1 },
      ...leaves.map((id) => ({ id, path: id.slice("document:".length), score: 0.190476 }))
    ])
  })

  it("canonicality() - keyed by document path, max-normalised into [0, 1]", () => {
    const map = canonicality(star)
    assert.strictEqual(map.get("docs/hub.md"), 1)
    assert.strictEqual(map.get("docs/a.md"), 0.190476)
    assert.strictEqual(map.size, 6)
  })

  it("covers counts for the covering page: a page covering three modules outranks a leaf", () => {
    const snapshot = snapshotOf({
      entities: ["document:docs/guide.md", "document:docs/leaf.md", "module:src/a.ts", "module:src/b.ts", "module:src/c.ts"],
      relations: [
        ["document:docs/guide.md", "covers", "module:src/a.ts"],
        ["document:docs/guide.md", "covers", "module:src/b.ts"],
        ["document:docs/guide.md", "covers", "module:src/c.ts"]
      ]
    })
    const ranking = canonicalityRanking(snapshot)
    assert.deepStrictEqual(ranking.map((document) => document.path), ["docs/guide.md", "docs/leaf.md"])
    assert.strictEqual(ranking[0]!.score, 1)
    assert.isBelow(ranking[1]!.score, 0.5)
  })

  it("only links-to and covers vote: mentions and author verbs do not", () => {
    const snapshot = snapshotOf({
      entities: ["document:docs/a.md", "document:docs/b.md", "document:docs/c.md"],
      relations: [
        ["document:docs/a.md", "mentions", "document:docs/b.md"],
        ["document:docs/c.md", "relates_to", "document:docs/b.md"]
      ]
    })
    assert.deepStrictEqual(canonicalityRanking(snapshot).map((document) => document.score), [1, 1, 1])
  })

  it("a self-link is no vote, and an empty snapshot ranks nothing", () => {
    const snapshot = snapshotOf({
      entities: ["document:docs/a.md", "document:docs/b.md"],
      relations: [["document:docs/a.md", "links-to", "document:docs/a.md"]]
    })
    assert.deepStrictEqual(canonicalityRanking(snapshot).map((document) => document.score), [1, 1])
    assert.deepStrictEqual(canonicalityRanking(snapshotOf({ entities: [] })), [])
  })
})
