/**
 * A question reads one state of the index: a commit by another connection while recall runs
 * (here, right after the pack's health was read) is not seen half way, so the health, the legs and
 * the claims all come from the build that was committed when the question began.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Embedded from "../../layers/Embedded.ts"
import { indexLayer, indexRepository } from "../../pipelines/indexRepository.ts"
import { recall } from "../../pipelines/recall.ts"
import { IndexHealth } from "../../src/ports/IndexHealth.ts"

const NOW = Date.parse("2026-11-30T12:00:00Z")

const index = (root: string) =>
  indexRepository({ root, now: NOW }).pipe(Effect.provide(indexLayer(root)), Effect.provide(NodeServices.layer))

/** The index's health, and the first time it is read, another connection's commit of the next build. */
const healthThenCommit = (commit: Effect.Effect<unknown, unknown>) =>
  Layer.effect(IndexHealth, Effect.gen(function*() {
    const inner = yield* IndexHealth
    let committed = false
    return IndexHealth.of({
      read: (now) =>
        Effect.tap(inner.read(now), () => {
          if (committed) return Effect.void
          committed = true
          return Effect.orDie(commit)
        })
    })
  }))

describe("recall reads one state", () => {
  it("recall - a rebuild committed while a question is answered is not seen half way", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-consistent-"))
    try {
      mkdirSync(join(root, "docs"))
      writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Dispatch\n\nDispatch events go over NATS JetStream, one subject per tenant.\n")
      writeFileSync(join(root, "docs/budget.md"), "# Budgets\n\n## Enforcement\n\nThe packer never spends more than the token budget.\n")
      writeFileSync(join(root, "docs/deploys.md"), "# Deploys\n\n## Rollback\n\nDeploys roll back with `deployctl rollback`.\n")
      await Effect.runPromise(index(root))

      // The next build says otherwise. It runs apart, as another process would, on a connection of
      // its own (inside the question's fiber it would share the question's layers).
      const nextBuild = Effect.promise(async () => {
        writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Dispatch\n\nDispatch events go over Kafka, one topic per tenant.\n")
        const report = await Effect.runPromise(index(root))
        assert.strictEqual(report.notesIndexed, 1)
      })
      const layers = healthThenCommit(nextBuild).pipe(Layer.provideMerge(Embedded.embedded({ root })), Layer.provide(NodeServices.layer))
      const pack = await Effect.runPromise(recall({ text: "which queue carries dispatch events?" }).pipe(Effect.provide(layers)))

      const texts = pack.claims.map((claim) => claim.text).join("\n")
      assert.include(texts, "NATS JetStream")
      assert.notInclude(texts, "Kafka")
      // The question began on the first build, and the files moved since: the pack says so.
      assert.strictEqual(pack.indexHealth.filesChanged, 1)

      // The next question begins on the build now committed.
      const next = await Effect.runPromise(recall({ text: "which queue carries dispatch events?" }).pipe(Effect.provide(Embedded.embedded({ root })), Effect.provide(NodeServices.layer)))
      assert.include(next.claims.map((claim) => claim.text).join("\n"), "Kafka")
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
