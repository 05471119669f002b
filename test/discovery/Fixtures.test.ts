import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { serialize } from "../../src/discovery/Assemble.ts"
import { fixture, notContains, readTree, relationLines, scanDisk, scanMemory } from "./support.ts"

describe("discovery fixtures", () => {
  it.effect("barrels - a symbol resolves to the module declaring it, never to a barrel", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("barrels"))
      assert.deepStrictEqual(relationLines(snapshot, notContains), [
        "mentions-symbol document:docs/shapes.md -> module:src/shapes/circle.ts",
        "mentions-symbol document:docs/shapes.md -> module:src/shapes/shape.ts",
        "mentions-symbol document:docs/shapes.md -> module:src/shapes/square.ts",
        "calls module:src/geometry.ts -> module:src/shapes/circle.ts",
        "imports module:src/geometry.ts -> module:src/shapes/index.ts",
        "re-exports module:src/index.ts -> module:src/geometry.ts",
        "re-exports module:src/index.ts -> module:src/shapes/index.ts",
        "imports-type module:src/shapes/circle.ts -> module:src/shapes/shape.ts",
        "re-exports module:src/shapes/index.ts -> module:src/shapes/circle.ts",
        "re-exports module:src/shapes/index.ts -> module:src/shapes/shape.ts",
        "re-exports module:src/shapes/index.ts -> module:src/shapes/square.ts",
        "imports-type module:src/shapes/square.ts -> module:src/shapes/shape.ts"
      ])
      const barrel = snapshot.entities.find((e) => e.id === "module:src/index.ts")
      assert.deepStrictEqual(barrel?.kind === "module" ? barrel.exports.map((e) => [e.name, e.declared]) : [], [["computeArea", false]])
    }), 30_000) // the first scan in this file loads the analyzers

  it.effect("cycles - a cycle of imports is kept as observed, self-imports included", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("cycles"))
      assert.deepStrictEqual(relationLines(snapshot, notContains), [
        "calls module:src/a.ts -> module:src/b.ts",
        "imports module:src/a.ts -> module:src/b.ts",
        "calls module:src/b.ts -> module:src/c.ts",
        "imports module:src/b.ts -> module:src/c.ts",
        "imports-type module:src/c.ts -> module:src/a.ts",
        "imports module:src/self.ts -> module:src/self.ts"
      ])
    }))

  it.effect("tsconfig-paths - extends, baseUrl and paths resolve; a matched path with no file is unresolved", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("tsconfig-paths"))
      assert.deepStrictEqual(relationLines(snapshot, notContains), [
        "imports module:src/app/main.ts -> module:src/app/local.ts",
        "imports module:src/app/main.ts -> module:src/core/engine.ts",
        "imports module:src/app/main.ts -> module:src/shared/index.ts",
        "imports module:src/app/main.ts -> unresolved:@gone/nothing"
      ])
      const engine = snapshot.relations.find((r) => r.to === "module:src/core/engine.ts" && r.kind === "imports")
      assert.deepStrictEqual(engine?.evidence.map((e) => [e.line, e.text]), [[2, "@core/engine"], [4, "src/core/engine"]])
      assert.deepStrictEqual(snapshot.compilerOptions.map((o) => [o.path, o.baseUrl, o.paths.length]), [["tsconfig.json", "", 3]])
    }))

  it.effect("workspace - packages, exports maps, depends-on and contains", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("workspace"))
      assert.deepStrictEqual(relationLines(snapshot, (r) => r.kind !== "contains" || r.from.startsWith("package:")), [
        "mentions document:README.md -> package:@ws/app",
        "mentions document:README.md -> package:@ws/core",
        "mentions-symbol document:README.md -> module:packages/core/src/model.ts",
        "calls module:packages/app/src/index.ts -> module:packages/core/src/model.ts",
        "imports module:packages/app/src/index.ts -> external:lodash",
        "imports module:packages/app/src/index.ts -> external:node:fs",
        "imports module:packages/app/src/index.ts -> module:packages/core/src/index.ts",
        "imports module:packages/app/src/index.ts -> package:@ws/legacy",
        "imports-type module:packages/app/src/index.ts -> module:packages/core/src/model.ts",
        "re-exports module:packages/core/src/index.ts -> module:packages/core/src/model.ts",
        "contains package:@ws/app -> module:packages/app/src/index.ts",
        "depends-on package:@ws/app -> external:lodash [declared]",
        "depends-on package:@ws/app -> package:@ws/core [declared]",
        "depends-on package:@ws/app -> package:@ws/legacy [declared]",
        "contains package:@ws/core -> module:packages/core/src/index.ts",
        "contains package:@ws/core -> module:packages/core/src/model.ts",
        "depends-on package:@ws/core -> external:zod [declared]",
        "contains package:@ws/legacy -> module:packages/legacy/src/index.ts",
        "depends-on package:workspace-root -> external:typescript [declared]"
      ])
      assert.deepStrictEqual(
        snapshot.entities.filter((e) => e.kind === "external").map((e) => e.id),
        ["external:lodash", "external:node:fs", "external:typescript", "external:zod"]
      )
    }))

  it.effect("docs - every relation kind, generated regions ignored, limits and malformed blocks reported", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("docs"))
      assert.deepStrictEqual(relationLines(snapshot, (r) => r.kind !== "contains" && r.from !== "document:docs/index.md"), [
        "links-to document:docs/bom.md -> document:docs/storage.md",
        "covers document:docs/guide.md -> area:src/retrieval [declared]",
        "covers document:docs/guide.md -> module:src/jobs/a.ts [declared]",
        "depends_on document:docs/guide.md -> document:docs/storage.md [declared]",
        "implements document:docs/guide.md -> document:notes/decision.md [declared]",
        "inspired_by document:docs/guide.md -> document:notes/decision.md [declared]",
        "links-to document:docs/guide.md -> document:docs/storage.md",
        "links-to document:docs/guide.md -> document:notes/decision.md",
        "links-to document:docs/guide.md -> unresolved:docs/gone.md",
        "mentions document:docs/guide.md -> area:src/retrieval",
        "mentions document:docs/guide.md -> document:notes/decision.md (fuzzy)",
        "mentions document:docs/guide.md -> module:src/retrieval/rank.ts",
        "mentions document:docs/guide.md -> package:docs-demo",
        "mentions-symbol document:docs/guide.md -> module:src/retrieval/rank.ts",
        "covers document:docs/malformed.md -> area:src/retrieval [declared]",
        "covers document:docs/malformed.md -> unresolved:[unclosed [declared]",
        "links-to document:docs/storage.md -> document:docs/guide.md",
        "re-exports module:src/retrieval/index.ts -> module:src/retrieval/rank.ts"
      ])
      assert.strictEqual(snapshot.relations.filter((r) => r.from === "document:docs/index.md").length, 64)
      const guide = snapshot.entities.find((e) => e.id === "document:docs/guide.md")
      assert.strictEqual(guide?.kind, "document")
      if (guide?.kind === "document") {
        assert.strictEqual(guide.title, "Retrieval guide")
        assert.deepStrictEqual(guide.generatedRegions, [{ startLine: 18, endLine: 20 }])
        assert.strictEqual(guide.frontmatter["updated"], "2026-01-15")
      }
      const index = snapshot.entities.find((e) => e.id === "document:docs/index.md")
      assert.isTrue(index?.kind === "document" && index.evidenceTruncated)
      assert.deepStrictEqual(
        snapshot.coverage.filter((c) => c.analyzer === "markdown").map((c) => [c.scope, c.status]),
        [["docs/guide.md", "partial"], ["docs/index.md", "partial"], ["docs/malformed.md", "partial"]]
      )
    }))

  it.effect("docs - a Markdown file's hash is taken after its byte-order mark", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("docs"))
      const bytes = NodeFs.readFileSync(NodePath.join(fixture("docs"), "docs/bom.md"))
      assert.deepStrictEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf])
      const entity = snapshot.entities.find((e) => e.id === "document:docs/bom.md")
      assert.strictEqual(entity?.evidence[0]?.contentHash, createHash("sha256").update(bytes.subarray(3)).digest("hex"))
    }))

  it.effect("hazards - secrets, binaries, oversized files, parser failures and links out of the root are coverage", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-hazards-"))
      NodeFs.cpSync(fixture("hazards"), NodePath.join(root, "repo"), { recursive: true })
      const repo = NodePath.join(root, "repo")
      // Files that would upset the project's own type check are stored with a `.fixture` suffix.
      for (const name of ["syntax", "deep", "blob"]) {
        NodeFs.renameSync(NodePath.join(repo, `src/${name}.ts.fixture`), NodePath.join(repo, `src/${name}.ts`))
      }
      NodeFs.writeFileSync(NodePath.join(root, "outside.ts"), "export const secret = 1\n")
      NodeFs.symlinkSync("../../outside.ts", NodePath.join(repo, "src/escape.ts"))
      NodeFs.symlinkSync("readme.md", NodePath.join(repo, "docs/alias.md"))
      NodeFs.mkdirSync(NodePath.join(repo, "generated"))
      NodeFs.writeFileSync(NodePath.join(repo, "generated/out.ts"), "export const ignored = 1\n")
      NodeFs.writeFileSync(NodePath.join(repo, "debug.log"), "ignored\n")

      const snapshot = yield* scanDisk(repo, { maxFileBytes: 20_000 })
      NodeFs.rmSync(root, { recursive: true, force: true })
      assert.deepStrictEqual(snapshot.coverage.map((c) => [c.analyzer, c.scope, c.status]), [
        ["repository", "reused-entities", "not-applicable"],
        ["repository", "unanalysed-files", "not-analyzed"],
        ["source-tree", ".env", "excluded-sensitive"],
        ["source-tree", ".env.example", "excluded-sensitive"],
        ["source-tree", "certs/dev.pem", "excluded-sensitive"],
        ["source-tree", "docs/alias.md", "skipped-symlink"],
        ["source-tree", "docs/credentials.md", "excluded-sensitive"],
        ["source-tree", "keys/id_rsa", "excluded-sensitive"],
        ["source-tree", "src/escape.ts", "skipped-symlink"],
        ["typescript", "src/big.ts", "skipped-size"],
        ["typescript", "src/blob.ts", "skipped-binary"],
        ["typescript", "src/deep.ts", "failed"],
        ["typescript", "src/syntax.ts", "failed"]
      ])
      const reasons = new Map(snapshot.coverage.map((c) => [c.scope, c.reason]))
      assert.include(reasons.get("src/escape.ts"), "leaving the root")
      assert.include(reasons.get("docs/alias.md"), "docs/readme.md")
      assert.include(reasons.get("src/deep.ts"), "analyzer threw")
      assert.include(reasons.get("unanalysed-files"), ".png 1")
      // A failed file costs only itself: the rest of the tree is still analysed.
      assert.deepStrictEqual(relationLines(snapshot, notContains), ["imports module:src/ok.ts -> unresolved:src/missing.js"])
      assert.deepStrictEqual(snapshot.entities.filter((e) => e.kind === "module").map((e) => e.id), [
        "module:src/blob.ts",
        "module:src/deep.ts",
        "module:src/ok.ts",
        "module:src/syntax.ts"
      ])
      assert.notInclude(serialize(snapshot), "fixture-not-a-secret")
    }))

  it.effect("hazards - config.include naming a secret's exact path lets it be read", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(fixture("hazards"), { include: ["**", "docs/credentials.md"] })
      const scopes = snapshot.coverage.filter((c) => c.status === "excluded-sensitive").map((c) => c.scope)
      assert.deepStrictEqual(scopes, [".env", ".env.example", "certs/dev.pem", "keys/id_rsa"])
      const document = snapshot.entities.find((e) => e.id === "document:docs/credentials.md")
      assert.strictEqual(document?.kind === "document" ? document.title : undefined, "Rotating credentials")
    }))

  it.effect("backends - the Node and in-memory trees give the same snapshot of a fixture", () =>
    Effect.gen(function*() {
      for (const name of ["docs", "workspace", "tsconfig-paths"]) {
        const disk = yield* scanDisk(fixture(name))
        const memory = yield* scanMemory(readTree(fixture(name)))
        assert.deepStrictEqual({ ...memory, sourceRevision: null, contentHash: "" }, { ...disk, sourceRevision: null, contentHash: "" })
      }
    }))
})
