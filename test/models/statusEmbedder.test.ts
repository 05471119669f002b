/**
 * `status` says when the index was embedded by another model than cairn.config.json names, by the
 * same test the index run uses to decide a full re-embed: a model named over an index of the
 * corpus-trained one, another model name, the model removed again, and each time the index run
 * that makes it true no longer.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ModelServer from "../../layers/http-models/testing/ModelServer.ts"
import { openCairn } from "../../pipelines/openCairn.ts"
import { statusReport } from "../../pipelines/statusReport.ts"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const configure = (root: string, url: string | undefined, model = "status-embed") =>
  write(root, "cairn.config.json", JSON.stringify(url === undefined ? {} : {
    models: { embedder: { kind: "openai", url: `${url}/v1`, model, dimensions: 16, timeoutMs: 1_000, retries: 1 } }
  }))

describe("status and the embedding model", () => {
  it.live("embedderChanged follows the configured model against the index's vectors", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* ModelServer.start({ dimensions: 16 })
      const root = mkdtempSync(join(tmpdir(), "cairn-status-model-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      write(root, "docs/rollback.md", "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n")
      write(root, "docs/retention.md", "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n")
      const changed = () => Effect.map(statusReport(root, 0), (report) => report.embedderChanged).pipe(Effect.provide(NodeServices.layer))
      const index = () => Effect.promise(async () => {
        const cairn = await openCairn({ root })
        await cairn.close()
      })

      // Never built: no vectors, nothing to change.
      configure(root, server.url)
      assert.isFalse(yield* changed())
      // Built by the corpus-trained model, then a model named: changed, until the index re-embeds.
      configure(root, undefined)
      yield* index()
      assert.isFalse(yield* changed())
      configure(root, server.url)
      assert.isTrue(yield* changed())
      const before = server.requests.length
      yield* index()
      assert.isAbove(server.requests.length, before)
      assert.isFalse(yield* changed())
      // Another model name is another space.
      configure(root, server.url, "status-embed-2")
      assert.isTrue(yield* changed())
      yield* index()
      assert.isFalse(yield* changed())
      // Removing the model returns to the corpus-trained one, by a re-embed too.
      configure(root, undefined)
      assert.isTrue(yield* changed())
      yield* index()
      assert.isFalse(yield* changed())
    })), 120_000)
})
