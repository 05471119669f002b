/**
 * An index embedded by an HTTP model and reranked by another, end to end through the Promise API,
 * against a model server the test runs: vectors cached by content hash, a failing endpoint at
 * question time (the lexical legs still answer) and at index time (the previous index stays), a
 * model changed under an index, and the key found nowhere it should not be.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ModelServer from "../../layers/http-models/testing/ModelServer.ts"
import type { ContextPack } from "../../src/domain/ContextPack.ts"
import { openCairn } from "../../pipelines/openCairn.ts"
import * as ContextPackWire from "../../src/domain/ContextPack.ts"

const KEY = "sk-cairn-test-9f8e7d6c5b4a"
const KEY_ENV = "CAIRN_TEST_MODEL_KEY"

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const DOCS: Record<string, string> = {
  "docs/rollback.md": "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n\n## When\n\nRoll back when the error rate doubles after a release.\n",
  "docs/retention.md": "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n",
  "docs/oncall.md": "# On call\n\n## Rota\n\nThe platform rota changes every Monday at 09:00.\n",
  "src/backoff.ts": "/** Waits twice as long after each failed attempt. */\nexport const backoff = (attempt: number): number => 250 * 2 ** attempt\n"
}

const configure = (root: string, url: string, model: string) =>
  write(root, "cairn.config.json", JSON.stringify({
    retrieval: { rerankMinCorpus: 0 },
    models: {
      embedder: { kind: "openai", url: `${url}/v1`, model, dimensions: 16, keyEnv: KEY_ENV, timeoutMs: 1_000, retries: 1 },
      reranker: { kind: "tei", url, model: "test-rerank", keyEnv: KEY_ENV, timeoutMs: 1_000, retries: 1 }
    }
  }))

const embeddedTexts = (server: ModelServer.ModelServer, from = 0) =>
  server.requests.slice(from).filter((r) => r.path === "/v1/embeddings").flatMap((r) => (r.body as { input: Array<string> }).input)

const legOf = (pack: ContextPack, name: string) => pack.diagnostics?.legs.find((leg) => leg.name === name)?.status

/** Every file under `.cairn/`, as text, to look for the key in. */
const cairnFiles = (root: string): string =>
  readdirSync(join(root, ".cairn")).map((name) => {
    try {
      return readFileSync(join(root, ".cairn", name)).toString("latin1")
    } catch {
      return ""
    }
  }).join("\n")

describe("HTTP models over the embedded index", () => {
  it("index, refresh, rebuild, a failing endpoint and a changed model, with the key kept out of everything", async () => {
    const scope = Effect.runSync(Scope.make())
    const server = await Effect.runPromise(Scope.provide(ModelServer.start({ dimensions: 16 }), scope))
    const root = mkdtempSync(join(tmpdir(), "cairn-models-"))
    process.env[KEY_ENV] = KEY
    try {
      for (const [path, text] of Object.entries(DOCS)) write(root, path, text)
      configure(root, server.url, "test-embed")

      // A cold build sends every chunk's text once, with the key.
      const cairn = await openCairn({ root })
      const first = embeddedTexts(server)
      assert.isAbove(first.length, 3)
      assert.strictEqual(new Set(first).size, first.length)
      assert.isTrue(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`))

      const pack = await cairn.recall("how do I roll back a deploy with deployctl?", { explain: true })
      assert.strictEqual(legOf(pack, "dense"), "ok")
      assert.strictEqual(legOf(pack, "rerank"), "ok")
      assert.strictEqual(pack.claims[0]?.note, "docs/rollback.md")
      assert.isTrue(server.requests.some((r) => r.path === "/rerank"))
      assert.deepStrictEqual(pack.gaps.filter((g) => g.reason === "leg_failed"), [])

      // Nothing changed: no text is sent again. One file changed: only its new chunk is.
      const before = server.requests.length
      assert.isTrue((await cairn.refresh()).upToDate)
      assert.strictEqual(embeddedTexts(server, before).length, 0)
      write(root, "docs/retention.md", DOCS["docs/retention.md"]!.replace("30 days", "90 days"))
      const mark = server.requests.length
      const refreshed = await cairn.refresh()
      const sent = embeddedTexts(server, mark)
      assert.strictEqual(sent.length, 1)
      assert.include(sent[0]!, "90 days")
      assert.strictEqual(refreshed.chunksEmbedded, 1)

      // The endpoint down at question time: the dense leg and rerank say so, the lexical leg answers.
      server.always = { status: 503 }
      const degraded = await cairn.recall("how long are application logs kept?", { explain: true })
      assert.strictEqual(legOf(degraded, "dense"), "failed")
      assert.isTrue(degraded.gaps.some((g) => g.reason === "leg_failed" && g.text.includes("dense")))
      assert.strictEqual(degraded.claims[0]?.note, "docs/retention.md")

      // The endpoint down at index time: the refresh fails naming what was not embedded, and the
      // index still answers with what it held.
      write(root, "docs/oncall.md", DOCS["docs/oncall.md"]!.replace("Monday", "Tuesday"))
      const failed = await cairn.refresh().then(() => undefined, (error: unknown) => error)
      assert.instanceOf(failed, Error)
      const message = (failed as Error).message
      assert.include(message, "1 of 1 chunks were not embedded")
      assert.include(message, "docs/oncall.md")
      assert.include(message, "the index is as it was")
      assert.notInclude(message, KEY)
      server.always = undefined
      const kept = await cairn.recall("when does the platform rota change?")
      assert.include(kept.claims.map((c) => c.text).join("\n"), "Monday")
      await cairn.close()

      // A rebuild from nothing pays for no text the model already embedded.
      rmSync(join(root, ".cairn", "index.sqlite"), { force: true })
      for (const suffix of ["-wal", "-shm"]) rmSync(join(root, ".cairn", `index.sqlite${suffix}`), { force: true })
      const rebuiltMark = server.requests.length
      const rebuilt = await openCairn({ root })
      const resent = embeddedTexts(server, rebuiltMark)
      // Only the chunk the failed refresh never got a vector for.
      assert.strictEqual(resent.length, 1)
      assert.include(resent[0]!, "Tuesday")
      const answer = await rebuilt.recall("when does the platform rota change?", { explain: true })
      assert.strictEqual(legOf(answer, "dense"), "ok")
      await rebuilt.close()

      // Another model: questions are refused a mixed space until the index is re-embedded.
      configure(root, server.url, "test-embed-2")
      const changed = await openCairn({ root, refreshOnOpen: false })
      const mismatched = await changed.recall("how do I roll back?", { explain: true })
      assert.strictEqual(legOf(mismatched, "dense"), "failed")
      assert.isTrue(mismatched.gaps.some((g) => g.text.includes("cairn index")))
      const reembedMark = server.requests.length
      const reembedded = await changed.refresh()
      assert.isTrue(reembedded.retrained)
      assert.strictEqual(embeddedTexts(server, reembedMark).length, reembedded.summary.chunkCount)
      const after = await changed.recall("how do I roll back?", { explain: true })
      assert.strictEqual(legOf(after, "dense"), "ok")

      // The key is in no pack, no index file, no cache, no snapshot.
      for (const p of [pack, degraded, kept, answer, after]) assert.notInclude(ContextPackWire.serialise(p), KEY)
      assert.notInclude(cairnFiles(root), KEY)
      await changed.close()
    } finally {
      delete process.env[KEY_ENV]
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
