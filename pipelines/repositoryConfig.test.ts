import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as RepositoryConfig from "./repositoryConfig.ts"

const withConfig = (text: string | undefined) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const root = mkdtempSync(join(tmpdir(), "cairn-config-"))
      if (text !== undefined) writeFileSync(join(root, RepositoryConfig.CONFIG_FILE), text)
      return root
    }),
    (root) => Effect.result(RepositoryConfig.read(root)),
    (root) => Effect.sync(() => rmSync(root, { recursive: true, force: true }))
  ).pipe(Effect.provide(NodeServices.layer))

const failure = (text: string) =>
  Effect.map(withConfig(text), (result) => {
    assert.strictEqual(result._tag, "Failure", text)
    return result._tag === "Failure" ? result.failure : undefined
  })

describe("repositoryConfig", () => {
  it.effect("read - no file is no settings; a file's settings come back as written", () =>
    Effect.gen(function*() {
      const none = yield* withConfig(undefined)
      assert.isTrue(none._tag === "Success" && Object.keys(none.success).length === 0)
      const settings = { chunking: { targetTokens: 250, agentPatterns: ["renovate"] }, discovery: { exclude: ["fixtures/"] }, retrieval: { rerankLimit: 16 } }
      const read = yield* withConfig(JSON.stringify(settings))
      assert.isTrue(read._tag === "Success")
      assert.deepStrictEqual(read._tag === "Success" ? read.success : undefined, settings)
    }))

  it.effect("read - a file that is not JSON, an unknown key or a value out of range names the file and the field", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["{nope", "(root)"],
        [JSON.stringify({ chunk: {} }), "chunk"],
        [JSON.stringify({ chunking: { targetTokens: 10 } }), "chunking.targetTokens"],
        [JSON.stringify({ chunking: { size: 10 } }), "chunking.size"],
        [JSON.stringify({ discovery: { exclude: "fixtures/" } }), "discovery.exclude"],
        [JSON.stringify({ retrieval: { rerankLimit: -3 } }), "retrieval.rerankLimit"]
      ]
      for (const [text, field] of cases) {
        const error = yield* failure(text)
        assert.deepInclude(error, { _tag: "InvalidInput", subject: RepositoryConfig.CONFIG_FILE, field }, text)
        assert.notInclude(error!.message, "\n")
      }
    }))
})
