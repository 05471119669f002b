import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { loadCorpus } from "./loadCorpus.ts"

const root = fileURLToPath(new URL("../test/fixtures/docs", import.meta.url))

describe("loadCorpus canonicality", () => {
  it.effect("is keyed by the chunks' note ids and computed over the corpus as indexed", () =>
    Effect.gen(function*() {
      const all = yield* loadCorpus({ name: "docs", root })
      const notes = [...new Set(all.chunks.map((c) => c.noteId))].sort()
      assert.deepStrictEqual([...all.canonicality!.keys()].sort(), notes)
      // storage.md links to the guide, which links on to storage and the decision: the guide is top.
      assert.strictEqual(all.canonicality!.get("docs/guide.md"), 1)
      assert.isAbove(all.canonicality!.get("notes/decision.md")!, all.canonicality!.get("docs/bom.md")!)

      // Left out of the corpus, the guide is neither scored nor counted as a vote.
      const without = yield* loadCorpus({ name: "docs", root, exclude: ["docs/guide.md"] })
      assert.isFalse(without.canonicality!.has("docs/guide.md"))
      assert.strictEqual(without.canonicality!.get("notes/decision.md"), without.canonicality!.get("docs/bom.md"))
      for (const score of without.canonicality!.values()) assert.isTrue(score > 0 && score <= 1)
    }).pipe(Effect.provide(NodeServices.layer)), { timeout: 60_000 })
})
