import { assert, describe, it } from "@effect/vitest"
import { MAX_DOCUMENT_REFERENCES, makeDocumentResolver } from "./DocumentResolution.ts"
import type { DocumentReference } from "./FileAnalysis.ts"
import { makeIndex } from "./NearMiss.ts"

const modules = ["src/retrieval/rank.ts", "src/retrieval/index.ts", "src/a.ts", "src/b.ts"]
const documents = ["docs/guide.md", "docs/adr/0001-ranking.md", "notes/storage.md"]
const areas = ["src", "src/retrieval"]

const resolver = makeDocumentResolver({
  modules: new Set(modules),
  documents: new Set(documents),
  areas: new Set(areas),
  packages: new Map([["@demo/core", "package:@demo/core"]]),
  // `rank` is declared once (the barrel re-exports it, so it is not a declarer); `run` twice.
  symbols: new Map([["rank", ["src/retrieval/rank.ts"]], ["run", ["src/a.ts", "src/b.ts"]]]),
  documentsByStem: new Map([["guide", ["docs/guide.md"]], ["0001-ranking", ["docs/adr/0001-ranking.md"]], ["storage", ["notes/storage.md"]]]),
  nearMiss: makeIndex([...modules, ...documents, ...areas])
})

const ref = (kind: DocumentReference["kind"], target: string, line: number, verb?: string): DocumentReference =>
  verb === undefined ? { kind, target, line } : { kind, target, line, verb }

const summary = (references: ReadonlyArray<DocumentReference>) => {
  const result = resolver("docs/guide.md", references)
  return result.relations.map((r) => `${r.kind} ${r.to} ${r.status} ${r.confidence}`).sort()
}

describe("DocumentResolution", () => {
  it("resolve - every relation kind", () => {
    assert.deepStrictEqual(summary([
      ref("link", "adr/0001-ranking.md#why", 1),
      ref("wikilink", "storage", 2),
      ref("code", "src/retrieval/rank.ts", 3),
      ref("link-text", "src/retrieval", 4),
      ref("code", "@demo/core", 5),
      ref("code", "rank()", 6),
      ref("link", "../src/a.ts", 7),
      ref("covers", "src/retrieval", 8),
      ref("covers", "module:src/b.ts", 9),
      ref("verb", "storage", 10, "depends_on"),
      ref("verb", "0001-ranking", 11, "implemented_by")
    ]), [
      "covers area:src/retrieval declared exact",
      "covers module:src/b.ts declared exact",
      "depends_on document:notes/storage.md declared exact",
      "implemented_by document:docs/adr/0001-ranking.md declared exact",
      "links-to document:docs/adr/0001-ranking.md observed exact",
      "links-to document:notes/storage.md observed exact",
      "mentions area:src/retrieval observed exact",
      "mentions module:src/a.ts observed exact",
      "mentions module:src/retrieval/rank.ts observed exact",
      "mentions package:@demo/core observed exact",
      "mentions-symbol module:src/retrieval/rank.ts observed exact"
    ])
  })

  it("resolve - near misses are fuzzy, broken links unresolved, ambiguous symbols a note", () => {
    const result = resolver("docs/guide.md", [
      // Both rank.ts and its sibling index.ts score above 0.92, so neither is chosen.
      ref("code", "src/retrieval/rnak.ts", 1),
      ref("code", "notes/storag.md", 1),
      ref("link", "adr/0001-rankign.md", 2),
      ref("link", "missing/file.md", 3),
      ref("code", "run", 4),
      ref("code", "notAnything", 5)
    ])
    assert.deepStrictEqual(result.relations.map((r) => `${r.kind} ${r.to} ${r.confidence}`).sort(), [
      "links-to document:docs/adr/0001-ranking.md fuzzy",
      "links-to unresolved:docs/missing/file.md exact",
      "mentions document:notes/storage.md fuzzy"
    ])
    assert.strictEqual(result.notes.length, 1)
    assert.include(result.notes[0]!.reason, "`run` line 4 (2 modules)")
  })

  it("resolve - merges repeated references into one relation with every line", () => {
    const result = resolver("docs/guide.md", [ref("code", "src/a.ts", 3), ref("link", "../src/a.ts", 1)])
    assert.deepStrictEqual(result.relations.map((r) => r.evidence.map((e) => e.line)), [[1, 3]])
  })

  it("resolve - keeps the first 64 distinct references and says so", () => {
    const many = Array.from({ length: MAX_DOCUMENT_REFERENCES + 6 }, (_, i) => ref("link", `gone-${i}.md`, i + 1))
    const result = resolver("docs/guide.md", many)
    assert.strictEqual(result.relations.length, MAX_DOCUMENT_REFERENCES)
    assert.isTrue(result.evidenceTruncated)
    assert.include(result.notes[0]!.reason, "70 distinct references")
    assert.isFalse(resolver("docs/guide.md", many.slice(0, MAX_DOCUMENT_REFERENCES)).evidenceTruncated)
  })
})
