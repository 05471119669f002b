import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as SourceTreeNode from "../../layers/node/SourceTreeNode.ts"
import * as SourceTreeMemory from "../../layers/reference/SourceTreeMemory.ts"
import * as DiscoveryConfig from "../../src/discovery/DiscoveryConfig.ts"
import { walk } from "../../src/discovery/Walk.ts"

const list = (files: Readonly<Record<string, SourceTreeMemory.MemoryNode>>, overrides: Partial<DiscoveryConfig.DiscoveryConfig> = {}) =>
  Effect.gen(function*() {
    const config = yield* DiscoveryConfig.make(overrides)
    const listing = yield* walk(config)
    return {
      files: listing.files.map((f) => f.path).sort(),
      coverage: listing.coverage.map((c) => `${c.status} ${c.scope}`).sort()
    }
  }).pipe(Effect.provide(SourceTreeMemory.layer(files)))

describe("walk", () => {
  it.effect("walk - honours .gitignore at every level, the deepest file deciding", () =>
    Effect.gen(function*() {
      const listing = yield* list({
        ".gitignore": "*.log\nbuild/\n/top-only.ts\n",
        "a.ts": "",
        "debug.log": "",
        "top-only.ts": "",
        "build/out.ts": "",
        "pkg/.gitignore": "!keep.log\nlocal.ts\n",
        "pkg/keep.log": "",
        "pkg/drop.log": "",
        "pkg/local.ts": "",
        "pkg/top-only.ts": "",
        "pkg/deeper/local.ts": "",
        "node_modules/dep/index.js": "",
        ".git/HEAD": ""
      })
      assert.deepStrictEqual(listing.files, [".gitignore", "a.ts", "pkg/.gitignore", "pkg/keep.log", "pkg/top-only.ts"])
    }))

  it.effect("walk - honours .git/info/exclude from the root, every .gitignore taking precedence over it", () =>
    Effect.gen(function*() {
      const listing = yield* list({
        ".git/info/exclude": "# git ls-files --others --exclude-from=.git/info/exclude\n*.tmp\n/scratch/\nlocal.ts\n",
        ".gitignore": "!keep.tmp\n",
        "a.ts": "",
        "drop.tmp": "",
        "keep.tmp": "",
        "scratch/notes.ts": "",
        "pkg/scratch/kept.ts": "",
        "pkg/local.ts": "",
        "pkg/.gitignore": "!local.ts\n",
        "lib/local.ts": ""
      })
      assert.deepStrictEqual(listing.files, [".gitignore", "a.ts", "keep.tmp", "pkg/.gitignore", "pkg/local.ts", "pkg/scratch/kept.ts"])
    }))

  it.effect("walk - on disk, .git/info/exclude applies, and a .git file (a worktree's) is no exclude file", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-walk-"))
      const listDisk = Effect.gen(function*() {
        const listing = yield* walk(yield* DiscoveryConfig.make({}))
        return listing.files.map((f) => f.path).filter((path) => path !== ".git").sort()
      }).pipe(Effect.provide(SourceTreeNode.layer(root)), Effect.provide(NodeFileSystem.layer))
      try {
        NodeFs.writeFileSync(NodePath.join(root, "a.ts"), "")
        NodeFs.writeFileSync(NodePath.join(root, "b.local.ts"), "")
        NodeFs.mkdirSync(NodePath.join(root, ".git", "info"), { recursive: true })
        NodeFs.writeFileSync(NodePath.join(root, ".git", "info", "exclude"), "*.local.ts\n")
        assert.deepStrictEqual(yield* listDisk, ["a.ts"])
        NodeFs.rmSync(NodePath.join(root, ".git"), { recursive: true })
        NodeFs.writeFileSync(NodePath.join(root, ".git"), "gitdir: /elsewhere/.git/worktrees/w\n")
        assert.deepStrictEqual(yield* listDisk, ["a.ts", "b.local.ts"])
      } finally {
        NodeFs.rmSync(root, { recursive: true, force: true })
      }
    }))

  it.effect("walk - config exclude drops paths, a non-empty include keeps only matches", () =>
    Effect.gen(function*() {
      const files = { "src/a.ts": "", "src/gen/b.ts": "", "docs/x.md": "", "scripts/c.ts": "" }
      assert.deepStrictEqual((yield* list(files, { exclude: ["src/gen/", "*.md"] })).files, ["scripts/c.ts", "src/a.ts"])
      assert.deepStrictEqual((yield* list(files, { include: ["src/**"] })).files, ["src/a.ts", "src/gen/b.ts"])
    }))

  it.effect("walk - secrets are reported and not listed unless include names the exact path", () =>
    Effect.gen(function*() {
      const files = { ".env": "", ".env.local": "", "deploy/id_rsa": "", "tls/server.key": "", "app.p12": "", "ok.ts": "" }
      const plain = yield* list(files)
      assert.deepStrictEqual(plain.files, ["ok.ts"])
      assert.deepStrictEqual(plain.coverage, [
        "excluded-sensitive .env",
        "excluded-sensitive .env.local",
        "excluded-sensitive app.p12",
        "excluded-sensitive deploy/id_rsa",
        "excluded-sensitive tls/server.key"
      ])
      const named = yield* list(files, { include: ["**", ".env.local"] })
      assert.deepStrictEqual(named.files, [".env.local", "ok.ts"])
      const glob = yield* list(files, { include: ["**", ".env*"] })
      assert.deepStrictEqual(glob.files, ["ok.ts"])
    }))

  it.effect("walk - symbolic links are never followed, inside or outside the root", () =>
    Effect.gen(function*() {
      const listing = yield* list({ "a.ts": "", "inside.ts": { symlink: "a.ts" }, "outside.ts": { symlink: "../../etc/passwd" } })
      assert.deepStrictEqual(listing.files, ["a.ts"])
      assert.deepStrictEqual(listing.coverage, ["skipped-symlink inside.ts", "skipped-symlink outside.ts"])
    }))

  it.effect("walk - a link loop is reported as a loop and a dangling link as dangling, not as leaving the root", () =>
    Effect.gen(function*() {
      const config = yield* DiscoveryConfig.make({})
      const listing = yield* walk(config).pipe(Effect.provide(SourceTreeMemory.layer({
        "a.ts": "",
        "self.ts": { symlink: "self.ts" },
        "ping.ts": { symlink: "pong.ts" },
        "pong.ts": { symlink: "ping.ts" },
        "gone.ts": { symlink: "missing.ts" },
        "chain.ts": { symlink: "inside.ts" },
        "inside.ts": { symlink: "a.ts" },
        "outside.ts": { symlink: "../elsewhere.ts" }
      })))
      const reasons = Object.fromEntries(listing.coverage.map((c) => [c.scope, c.reason]))
      assert.match(reasons["self.ts"]!, /loop/)
      assert.match(reasons["ping.ts"]!, /loop/)
      assert.match(reasons["pong.ts"]!, /loop/)
      assert.match(reasons["gone.ts"]!, /missing/)
      assert.include(reasons["chain.ts"], "symbolic link to a.ts")
      assert.include(reasons["outside.ts"], "leaving the root")
      for (const scope of ["self.ts", "ping.ts", "pong.ts", "gone.ts"]) assert.notInclude(reasons[scope], "leaving the root")
    }))
})
