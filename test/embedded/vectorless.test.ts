/**
 * The embedded index where sqlite-vec cannot load: indexing keeps the lexical side and what is
 * already stored, every pack answers from the lexical legs and says the dense leg failed, and the
 * vectors come back with the extension.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import type { ContextPack } from "../../src/domain/ContextPack.ts"
import { IndexHealth } from "../../src/ports/IndexHealth.ts"
import * as Embedded from "../../layers/Embedded.ts"
import * as Database from "../../layers/sqlite/Database.ts"
import { IndexStore } from "../../src/ports/IndexStore.ts"
import { indexLayer, indexRepository } from "../../pipelines/indexRepository.ts"
import { recall } from "../../pipelines/recall.ts"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-vectorless-"))
  write(root, "docs/rollback.md", "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n")
  write(root, "docs/retention.md", "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n")
  write(root, "docs/queues.md", "# Queues\n\n## Choice\n\nDispatch events go over NATS JetStream because replay is built in.\n")
  return root
}

/** sqlite-vec as on a platform its package has no build for. */
const unsupported = Layer.succeed(Database.VectorExtension, {
  loadablePath: () => {
    throw new Error("Unsupported platform for sqlite-vec, on a linux-riscv64 machine")
  }
})

const NOW = Date.parse("2026-03-01T12:00:00Z")

const index = (root: string, now = NOW) => indexRepository({ root, now }).pipe(Effect.provide(indexLayer(root)))

const ask = (root: string, text: string) => recall({ text, explain: true }).pipe(Effect.provide(Embedded.embedded({ root })))

const manifest = (root: string) => IndexStore.use((writer) => writer.manifest).pipe(Effect.provide(indexLayer(root)))

const denseLeg = (pack: ContextPack) => pack.diagnostics?.legs.find((leg) => leg.name === "dense")?.status

const denseGaps = (pack: ContextPack) => pack.gaps.filter((gap) => gap.reason === "leg_failed" && gap.text.includes("sqlite-vec"))

describe("the embedded index without sqlite-vec", () => {
  it.effect("recall - an index with vectors answers from the lexical legs, and every pack says the dense leg failed and why", () =>
    Effect.gen(function*() {
      const root = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const built = yield* index(root)
      assert.isAbove(built.chunksEmbedded, 0)

      for (const question of ["how long are application logs kept?", "deployctl rollback", "?"]) {
        const pack = yield* ask(root, question).pipe(Effect.provide(unsupported))
        assert.strictEqual(denseLeg(pack), "failed", question)
        assert.lengthOf(denseGaps(pack), 1, question)
        assert.isTrue(pack.partial, question)
      }
      const answered = yield* ask(root, "how long are application logs kept?").pipe(Effect.provide(unsupported))
      assert.isTrue(answered.claims.some((claim) => claim.text.includes("30 days")))
      assert.match(denseGaps(answered)[0]!.text, /sqlite-vec extension could not be loaded \(Unsupported platform .*\); dense search is off/)
      const health = yield* IndexHealth.use((h) => h.read(NOW)).pipe(Effect.provide(Embedded.embedded({ root })), Effect.provide(unsupported))
      assert.include(health.denseUnavailable, "sqlite-vec")

      // With the extension the same index answers with the dense leg and no such gap.
      const dense = yield* ask(root, "how long are application logs kept?")
      assert.oneOf(denseLeg(dense), ["ok", "empty"])
      assert.deepStrictEqual(denseGaps(dense), [])
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), 120_000)

  it.effect("index - builds and refreshes the lexical side without vectors, keeps the stored ones, and the vectors come back with the extension", () =>
    Effect.gen(function*() {
      const root = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      // Built with vectors, then refreshed twice where sqlite-vec cannot load.
      yield* index(root)
      const withVectors = (yield* manifest(root))!
      assert.strictEqual(withVectors.embeddedCount, withVectors.chunkCount)

      write(root, "docs/retention.md", "# Log retention\n\n## Policy\n\nApplication logs are kept for 90 days in the archive bucket.\n")
      const refreshed = yield* index(root, NOW + 60_000).pipe(Effect.provide(unsupported))
      assert.deepStrictEqual([refreshed.notesIndexed, refreshed.chunksEmbedded, refreshed.retrained], [1, 0, false])
      write(root, "docs/oncall.md", "# On call\n\n## Rota\n\nThe platform rota changes every Monday at 09:00.\n")
      yield* index(root, NOW + 120_000).pipe(Effect.provide(unsupported))
      const frozen = (yield* manifest(root).pipe(Effect.provide(unsupported)))!
      assert.isBelow(frozen.embeddedCount, frozen.chunkCount)
      assert.isAbove(frozen.embeddedCount, 0)

      const lexical = yield* ask(root, "when does the platform rota change?").pipe(Effect.provide(unsupported))
      assert.isTrue(lexical.claims.some((claim) => claim.text.includes("every Monday")))
      const edited = yield* ask(root, "how long are application logs kept?").pipe(Effect.provide(unsupported))
      assert.isTrue(edited.claims.some((claim) => claim.text.includes("90 days")))
      assert.isFalse(edited.claims.some((claim) => claim.text.includes("30 days")))

      // Back with the extension: the next refresh that writes embeds what was left without a vector.
      write(root, "docs/queues.md", "# Queues\n\n## Choice\n\nDispatch events go over Kafka now.\n")
      const healed = yield* index(root, NOW + 180_000)
      assert.isFalse(healed.retrained)
      const after = (yield* manifest(root))!
      assert.strictEqual(after.embeddedCount, after.chunkCount)
      const dense = yield* ask(root, "when does the platform rota change?")
      assert.oneOf(denseLeg(dense), ["ok", "empty"])
      assert.isTrue(dense.claims.some((claim) => claim.text.includes("every Monday")))
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), 120_000)

  it.effect("index - a repository first indexed without sqlite-vec is lexical only, and retrained once the extension loads", () =>
    Effect.gen(function*() {
      const root = repository()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const cold = yield* index(root).pipe(Effect.provide(unsupported))
      assert.deepStrictEqual([cold.chunksEmbedded, cold.retrained, cold.summary.embeddedCount], [0, false, 0])
      assert.isAbove(cold.summary.chunkCount, 0)
      // Nothing changed: nothing to do, even though no vector was ever stored.
      assert.isTrue((yield* index(root).pipe(Effect.provide(unsupported))).upToDate)
      const pack = yield* ask(root, "which queue carries dispatch events?").pipe(Effect.provide(unsupported))
      assert.isTrue(pack.claims.some((claim) => claim.text.includes("JetStream")))
      assert.lengthOf(denseGaps(pack), 1)

      write(root, "docs/queues.md", "# Queues\n\n## Choice\n\nDispatch events go over Kafka now.\n")
      const trained = yield* index(root)
      assert.isTrue(trained.retrained)
      assert.strictEqual(trained.summary.embeddedCount, trained.summary.chunkCount)
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), 120_000)
})
