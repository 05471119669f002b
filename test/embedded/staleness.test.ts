/**
 * Staleness through the library APIs, as the command line reports it: a pack's lag and its
 * `index_incomplete` gap follow the files changed on disk since the build, never the mere age of
 * a build of an unchanged tree.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { ContextPack } from "../../src/domain/ContextPack.ts"
import * as Embedded from "../../layers/Embedded.ts"
import { indexLayer, indexRepository } from "../../pipelines/indexRepository.ts"
import { openCairn } from "../../pipelines/openCairn.ts"
import { recall } from "../../pipelines/recall.ts"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const RETENTION = "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n"

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-staleness-"))
  write(root, "docs/rollback.md", "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n")
  write(root, "docs/retention.md", RETENTION)
  return root
}

const build = (root: string, now: number) => indexRepository({ root, now }).pipe(Effect.provide(indexLayer(root)))

const stalenessGaps = (pack: ContextPack) => pack.gaps.filter((gap) => gap.reason === "index_incomplete")

const QUESTION = "how long are application logs kept?"
const LAG_SECONDS = 125

describe("staleness in the library APIs", () => {
  it.effect("recall over Embedded.embedded - an unchanged tree is behind nothing however old the build; an edit raises the gap with the lag", () =>
    Effect.gen(function*() {
      const root = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const builtAt = Date.parse("2026-03-01T12:00:00Z")
      yield* build(root, builtAt)
      yield* TestClock.setTime(builtAt + LAG_SECONDS * 1000)
      const ask = recall({ text: QUESTION }).pipe(Effect.provide(Embedded.embedded({ root })))

      const unchanged = yield* ask
      assert.deepStrictEqual(stalenessGaps(unchanged), [])
      assert.strictEqual(unchanged.indexHealth.lagSeconds, 0)
      assert.strictEqual(unchanged.indexHealth.filesChanged, 0)

      write(root, "docs/retention.md", RETENTION.replace("30 days", "90 days"))
      const edited = yield* ask
      assert.strictEqual(edited.indexHealth.filesChanged, 1)
      assert.strictEqual(edited.indexHealth.lagSeconds, LAG_SECONDS)
      assert.lengthOf(stalenessGaps(edited), 1)
      assert.include(stalenessGaps(edited)[0]!.text, "1 file changed on disk")
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), 120_000)

  it("openCairn - a refreshed handle knows nothing changed, its status sees an edit, and a handle that does not refresh says so", async () => {
    const root = repository()
    try {
      // Built a while before the handle opens: its own refresh finds nothing to do and keeps that build.
      await Effect.runPromise(build(root, Date.now() - LAG_SECONDS * 1000).pipe(Effect.provide(NodeServices.layer)))
      const cairn = await openCairn({ root })
      const unchanged = await cairn.recall(QUESTION)
      assert.deepStrictEqual(stalenessGaps(unchanged), [])
      assert.strictEqual(unchanged.indexHealth.lagSeconds, 0)
      assert.strictEqual(unchanged.indexHealth.filesChanged, 0)

      write(root, "docs/retention.md", RETENTION.replace("30 days", "90 days"))
      const status = await cairn.status()
      assert.deepStrictEqual(status.pending.changed, ["docs/retention.md"])
      assert.strictEqual(status.filesChanged, 1)
      assert.isAtLeast(status.lagSeconds, LAG_SECONDS)
      const seen = await cairn.recall(QUESTION)
      assert.strictEqual(seen.indexHealth.filesChanged, 1)
      assert.lengthOf(stalenessGaps(seen), 1)
      await cairn.close()

      const asIs = await openCairn({ root, refreshOnOpen: false })
      const stale = await asIs.recall(QUESTION)
      assert.strictEqual(stale.indexHealth.filesChanged, 1)
      assert.isAtLeast(stale.indexHealth.lagSeconds, LAG_SECONDS)
      assert.lengthOf(stalenessGaps(stale), 1)
      await asIs.refresh()
      const fresh = await asIs.recall(QUESTION)
      assert.deepStrictEqual(stalenessGaps(fresh), [])
      assert.strictEqual(fresh.indexHealth.filesChanged, 0)
      assert.isTrue(fresh.claims.some((claim) => claim.text.includes("90 days")))
      await asIs.close()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
