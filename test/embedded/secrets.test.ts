/**
 * Secrets in ordinary files never reach the index or the snapshot: redacted in chunks and
 * summaries, reported as coverage by file and line without the value, kept as written only where
 * `discovery.unredacted` says so; a bad setting is refused naming the field.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { indexLayer, indexRepository } from "../../pipelines/indexRepository.ts"
import * as RepositoryConfig from "../../pipelines/repositoryConfig.ts"
import type { DiscoveryConfig } from "../../src/discovery/DiscoveryConfig.ts"

// AWS's documented example pair, and made-up tokens of the shapes GitHub and PEM use.
const KEY_ID = "AKIAIOSFODNN7EXAMPLE"
const SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
const TOKEN = `ghp_${"Zq7Lm2Xw9K".repeat(3)}aB3cD4`
const PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
const SECRETS = [KEY_ID, SECRET_KEY, TOKEN, PEM_BODY]

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-secrets-"))
  write(root, "src/aws.ts", `export const credentials = {\n  accessKeyId: "${KEY_ID}",\n  awsSecretAccessKey: "${SECRET_KEY}"\n}\n`)
  write(root, "docs/runbook.md", `${TOKEN} unlocks the deploy bot.\n\n# Runbook\n\nUse the key below.\n\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----\nRotate it monthly.\n`)
  write(root, "docs/examples/keys.md", `# Example keys\n\nThe documented example id is ${KEY_ID}.\n`)
  return root
}

const index = (root: string, discovery: Partial<DiscoveryConfig> = {}) =>
  Effect.runPromise(
    indexRepository({ root, now: Date.parse("2026-11-30T12:00:00Z"), discovery }).pipe(Effect.provide(indexLayer(root)), Effect.provide(NodeServices.layer))
  )

const chunkTexts = (root: string): Map<string, string> => {
  const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
  try {
    const rows = db.prepare("SELECT path, text FROM chunks ORDER BY id").all() as Array<{ path: string; text: string }>
    const out = new Map<string, string>()
    for (const row of rows) out.set(row.path, `${out.get(row.path) ?? ""}${row.text}\n`)
    return out
  } finally {
    db.close()
  }
}

describe("secrets in content", () => {
  it("index - secrets are redacted in chunks and the snapshot, and reported by file and line only", async () => {
    const root = repository()
    try {
      await index(root, { unredacted: ["docs/examples/"] })
      const chunks = chunkTexts(root)
      const snapshot = readFileSync(join(root, ".cairn", "snapshot.json"), "utf8")
      const parsed = JSON.parse(snapshot) as { entities: Array<{ path?: string }>; relations: Array<{ from: string }> }
      const outsideExamples = JSON.stringify({
        entities: parsed.entities.filter((entity) => entity.path !== "docs/examples/keys.md"),
        relations: parsed.relations.filter((relation) => relation.from !== "document:docs/examples/keys.md")
      })
      for (const secret of SECRETS) {
        for (const path of ["src/aws.ts", "docs/runbook.md"]) assert.notInclude(chunks.get(path) ?? "", secret, path)
        assert.notInclude(outsideExamples, secret)
      }
      assert.include(snapshot, "[redacted:github-token] unlocks the deploy bot")
      assert.include(chunks.get("src/aws.ts"), "[redacted:aws-access-key-id]")
      assert.include(chunks.get("docs/runbook.md"), "[redacted:private-key]")
      // Kept as written where the configuration says so, and not reported.
      assert.include(chunks.get("docs/examples/keys.md"), KEY_ID)
      const coverage = (JSON.parse(snapshot) as { coverage: Array<{ scope: string; status: string; reason: string }> }).coverage
        .filter((entry) => entry.status === "excluded-sensitive")
        .map((entry) => [entry.scope, entry.reason.split(";")[0]])
      assert.deepStrictEqual(coverage, [
        ["docs/runbook.md", "line 1: GitHub token redacted (github-token)"],
        ["docs/runbook.md", "line 7: private key block redacted (private-key)"],
        ["src/aws.ts", "line 2: AWS access key id redacted (aws-access-key-id)"],
        ["src/aws.ts", "line 3: AWS secret access key redacted (aws-secret-access-key)"]
      ])
      // Lines keep their numbers: the heading after the token's line is still where the file has it.
      const db = new DatabaseSync(join(root, ".cairn", "index.sqlite"), { readOnly: true })
      try {
        const lines = db.prepare("SELECT line_start, line_end FROM chunks WHERE path = 'docs/runbook.md' ORDER BY line_start").all() as Array<{ line_end: number }>
        assert.strictEqual(lines.at(-1)?.line_end, 10)
      } finally {
        db.close()
      }
      // Without the exception, the example file is redacted too, on the next run.
      await index(root)
      assert.notInclude(chunkTexts(root).get("docs/examples/keys.md"), KEY_ID)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it.effect("cairn.config.json - discovery.unredacted takes patterns; anything else is refused naming the field", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "cairn-secrets-config-"))
      try {
        writeFileSync(join(root, RepositoryConfig.CONFIG_FILE), JSON.stringify({ discovery: { unredacted: ["docs/examples/"] } }))
        assert.deepStrictEqual((yield* RepositoryConfig.read(root)).discovery, { unredacted: ["docs/examples/"] })
        for (const bad of [{ unredacted: "docs/" }, { unredacted: [""] }, { unredacted: [1] }]) {
          writeFileSync(join(root, RepositoryConfig.CONFIG_FILE), JSON.stringify({ discovery: bad }))
          const error = yield* Effect.flip(RepositoryConfig.read(root))
          assert.strictEqual(error._tag, "InvalidInput")
          assert.match(error.field, /^discovery\.unredacted/)
        }
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeServices.layer)))
})
