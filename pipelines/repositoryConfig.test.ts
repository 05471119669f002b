import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
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
      const settings: RepositoryConfig.RepositoryConfig = {
        chunking: { targetTokens: 250, agentPatterns: ["renovate"] },
        discovery: { exclude: ["fixtures/"] },
        retrieval: { rerankLimit: 16 },
        models: {
          embedder: { kind: "openai", url: "http://localhost:8000/v1", model: "nomic-embed-text", dimensions: 768, keyEnv: "EMBED_KEY", batchSize: 32 },
          reranker: { kind: "tei", url: "http://localhost:8081", model: "bge-reranker-base", timeoutMs: 5_000 }
        }
      }
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
        [JSON.stringify({ retrieval: { rerankLimit: -3 } }), "retrieval.rerankLimit"],
        [JSON.stringify({ shadow: { retrieval: { rerankLimit: -3 } } }), "shadow.retrieval.rerankLimit"],
        [JSON.stringify({ shadow: { rerankLimit: 3 } }), "shadow.rerankLimit"],
        [JSON.stringify({ models: { embedder: { kind: "openai", url: "localhost:8000", model: "m", dimensions: 8 } } }), "models.embedder.url"],
        [JSON.stringify({ models: { embedder: { kind: "openai", url: "http://key:secret@localhost:8000", model: "m", dimensions: 8 } } }), "models.embedder.url"],
        [JSON.stringify({ models: { embedder: { kind: "tei", url: "http://localhost:8000", model: "m", dimensions: 8 } } }), "models.embedder.kind"],
        [JSON.stringify({ models: { embedder: { kind: "ollama", url: "http://localhost:11434", model: "m" } } }), "models.embedder.dimensions"],
        [JSON.stringify({ models: { embedder: { kind: "ollama", url: "http://localhost:11434", model: "m", dimensions: 8, batchSize: 0 } } }), "models.embedder.batchSize"],
        [JSON.stringify({ models: { embedder: { kind: "ollama", url: "http://localhost:11434", model: "m", dimensions: 8, apiKey: "sk-1" } } }), "models.embedder.apiKey"],
        [JSON.stringify({ models: { reranker: { kind: "cohere", url: "https://api.cohere.com/v2", model: "r", keyEnv: "1KEY" } } }), "models.reranker.keyEnv"],
        [JSON.stringify({ models: { reranker: { kind: "tei", url: "http://localhost:8081", model: "" } } }), "models.reranker.model"],
        [JSON.stringify({ models: { generator: {} } }), "models.generator"]
      ]
      for (const [text, field] of cases) {
        const error = yield* failure(text)
        assert.deepInclude(error, { _tag: "InvalidInput", subject: RepositoryConfig.CONFIG_FILE, field }, text)
        assert.notInclude(error!.message, "\n")
      }
    }))

  it.effect("read - a config linked out of the root is refused without being read, naming only the path; a loop is a loop", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "cairn-config-link-"))),
      (base) =>
        Effect.gen(function*() {
          const outside = join(base, "outside")
          mkdirSync(outside)
          writeFileSync(join(outside, "secret.txt"), "SECRET-FIRST-BYTES root:x:0:0\n")
          writeFileSync(join(outside, "good.json"), "{}")
          // A FIFO: reading it would block until a writer came, so a read hangs the test.
          execFileSync("mkfifo", [join(outside, "fifo")])
          const refused = (root: string) =>
            Effect.gen(function*() {
              const result = yield* Effect.result(RepositoryConfig.read(root))
              assert.strictEqual(result._tag, "Failure", root)
              return result._tag === "Failure" ? result.failure : undefined
            })
          const repo = (name: string, link: string) => {
            const root = join(base, name)
            mkdirSync(root)
            symlinkSync(link, join(root, RepositoryConfig.CONFIG_FILE))
            return root
          }
          for (const target of ["secret.txt", "good.json", "fifo"]) {
            const error = yield* refused(repo(`out-${target}`, join(outside, target)))
            assert.deepInclude(error, { _tag: "InvalidInput", subject: RepositoryConfig.CONFIG_FILE })
            assert.match(error!.message, /leaves the repository root/)
            assert.notInclude(error!.message, "SECRET")
            assert.notInclude(error!.message, outside)
          }
          const loop = yield* refused(repo("loop", RepositoryConfig.CONFIG_FILE))
          assert.match(loop!.message, /loop/)
          assert.notMatch(loop!.message, /leaves/)
          // A link that stays inside the root is an ordinary file.
          const inside = join(base, "inside")
          mkdirSync(inside)
          writeFileSync(join(inside, "settings.json"), JSON.stringify({ retrieval: { rerankLimit: 16 } }))
          symlinkSync("settings.json", join(inside, RepositoryConfig.CONFIG_FILE))
          assert.deepStrictEqual(yield* RepositoryConfig.read(inside), { retrieval: { rerankLimit: 16 } })
          // Neither is a directory or a FIFO in the root a config to read.
          const fifo = join(base, "fifo-root")
          mkdirSync(fifo)
          execFileSync("mkfifo", [join(fifo, RepositoryConfig.CONFIG_FILE)])
          assert.match((yield* refused(fifo))!.message, /not a regular file/)
        }),
      (base) => Effect.sync(() => rmSync(base, { recursive: true, force: true }))
    ).pipe(Effect.provide(NodeServices.layer)), 30_000)
})
