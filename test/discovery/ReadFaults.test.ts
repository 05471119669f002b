/**
 * Reads that fail cost the file that failed, as coverage, never the scan: permission denied, a file
 * gone between listing and reading, a directory where a file was listed, a file that changed size
 * while read, a directory that cannot be listed, a name that is not UTF-8.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Digest from "effect/crypto/Digest"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as SourceTreeMemory from "../../layers/reference/SourceTreeMemory.ts"
import * as SourceTreeNode from "../../layers/node/SourceTreeNode.ts"
import { DiscoveryError, SourceUnreadable } from "../../src/domain/DiscoveryError.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { discover } from "../../src/discovery/Discover.ts"
import { SourceTree } from "../../src/ports/SourceTree.ts"

const REPO = {
  "package.json": JSON.stringify({ name: "demo" }),
  "src/main.ts": `import { helper } from "./helper.js"\nexport const main = helper\n`,
  "src/helper.ts": "export const helper = 1\n",
  "src/locked/secret.ts": "export const hidden = 2\n",
  "docs/guide.md": "# Guide\n\nSee `src/main.ts`.\n",
  "docs/locked.md": "# Locked\n",
  "docs/gone.md": "# Gone\n",
  "docs/.gitignore": "guide.md\n"
}

const denied = (path: string) => new DiscoveryError({ reason: new SourceUnreadable({ path, detail: "EACCES: permission denied" }) })

/**
 * The memory tree with the faults a chmod 000 and a deletion cause on disk (these tests run as
 * root too, where chmod denies nothing): `docs/locked.md`, `docs/.gitignore` and `src/locked/`
 * cannot be read, and `docs/gone.md` is listed but gone when read.
 */
const faulty = Layer.succeed(SourceTree, (() => {
  const inner = SourceTreeMemory.make(REPO)
  return SourceTree.of({
    ...inner,
    list: (directory) => (directory === "src/locked" ? Effect.fail(denied(directory)) : inner.list(directory)),
    read: (path) =>
      path === "docs/locked.md" || path === "docs/.gitignore" ? Effect.fail(denied(path))
      : path === "docs/gone.md" ? Effect.fail(new DiscoveryError({ reason: new SourceUnreadable({ path, detail: "ENOENT: no such file or directory" }) }))
      : inner.read(path)
  })
})())

const failures = (snapshot: Snapshot) =>
  snapshot.coverage.filter((entry) => entry.status === "failed").map((entry) => [entry.analyzer, entry.scope, entry.reason])

describe("discover under read faults", () => {
  it.effect("discover - an unreadable file or directory and a vanished file each cost only themselves, as coverage", () =>
    Effect.gen(function*() {
      const snapshot = yield* discover()
      assert.deepStrictEqual(failures(snapshot), [
        ["markdown", "docs/gone.md", "cannot read: ENOENT: no such file or directory; not analysed, read again by the next scan"],
        ["markdown", "docs/locked.md", "cannot read: EACCES: permission denied; not analysed, read again by the next scan"],
        ["source-tree", "docs/.gitignore", "cannot read: EACCES: permission denied; its rules are not applied"],
        ["source-tree", "src/locked", "cannot read: EACCES: permission denied; the files below it are not listed"]
      ])
      const ids = snapshot.entities.map((entity) => entity.id)
      for (const id of ["module:src/main.ts", "module:src/helper.ts", "document:docs/guide.md"]) assert.include(ids, id)
      for (const id of ["document:docs/locked.md", "document:docs/gone.md", "module:src/locked/secret.ts"]) assert.notInclude(ids, id)
    }).pipe(Effect.provide(faulty), Effect.provide(Digest.layerWebCrypto)))

  it.effect("discover - the root itself unreadable still fails the scan, naming it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(discover())
      assert.strictEqual(error.reason._tag, "SourceUnreadable")
    }).pipe(
      Effect.provide(Layer.succeed(SourceTree, SourceTree.of({ ...SourceTreeMemory.make(REPO), list: () => Effect.fail(denied("")) }))),
      Effect.provide(Digest.layerWebCrypto)
    ))

  it.effect("discover - on disk: a file deleted, made a directory or grown after the listing is coverage, the rest is scanned", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-faults-"))
      const at = (path: string) => NodePath.join(root, path)
      NodeFs.mkdirSync(at("docs"))
      for (const name of ["keep", "gone", "dir", "grow"]) NodeFs.writeFileSync(at(`docs/${name}.md`), `# ${name}\n\nText.\n`)
      // What an editor's save or a checkout does between the listing of docs/ and its reads.
      const churn = () => {
        NodeFs.rmSync(at("docs/gone.md"))
        NodeFs.rmSync(at("docs/dir.md"))
        NodeFs.mkdirSync(at("docs/dir.md"))
        NodeFs.appendFileSync(at("docs/grow.md"), "More text.\n")
      }
      const snapshot = yield* Effect.gen(function*() {
        const tree = yield* SourceTree
        const churning = SourceTree.of({
          ...tree,
          list: (directory) => Effect.tap(tree.list(directory), () => Effect.sync(() => directory === "docs" && churn()))
        })
        return yield* discover().pipe(Effect.provideService(SourceTree, churning))
      }).pipe(
        Effect.provide(SourceTreeNode.layer(root)),
        Effect.provide(NodeFileSystem.layer),
        Effect.provide(Digest.layerWebCrypto),
        Effect.ensuring(Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true })))
      )
      assert.deepStrictEqual(failures(snapshot).map(([, scope, reason]) => [scope, reason!.split(";")[0]]), [
        ["docs/dir.md", "cannot read: EISDIR: illegal operation on a directory"],
        ["docs/gone.md", "cannot read: ENOENT: no such file or directory"],
        ["docs/grow.md", "changed while read (listed 14 bytes, read 25)"]
      ])
      assert.deepStrictEqual(snapshot.entities.filter((entity) => entity.kind === "document").map((entity) => entity.id), ["document:docs/keep.md"])
    }))

  it.effect("walk - on disk, a name that is not UTF-8 is reported with its bytes escaped, never silently absent", () =>
    Effect.gen(function*() {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-names-"))
      NodeFs.mkdirSync(NodePath.join(root, "docs"))
      NodeFs.writeFileSync(NodePath.join(root, "docs/ok.md"), "# Ok\n")
      // "caf\xe9.md": Latin-1, as an old archive or another system names it.
      NodeFs.writeFileSync(Buffer.concat([Buffer.from(`${root}/docs/caf`), Buffer.from([0xe9]), Buffer.from(".md")]), "# Cafe\n")
      const snapshot = yield* discover().pipe(
        Effect.provide(SourceTreeNode.layer(root)),
        Effect.provide(NodeFileSystem.layer),
        Effect.provide(Digest.layerWebCrypto),
        Effect.ensuring(Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true })))
      )
      assert.deepStrictEqual(failures(snapshot), [[
        "source-tree",
        "docs/caf\\xe9.md",
        "name is not valid UTF-8 (shown with \\xNN for its other bytes); not read, rename it to index it"
      ]])
      assert.deepStrictEqual(snapshot.entities.filter((entity) => entity.kind === "document").map((entity) => entity.id), ["document:docs/ok.md"])
    }))
})
