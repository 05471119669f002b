import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { SourceTree } from "../../src/ports/SourceTree.ts"
import { contract, type TreeFixture } from "../contracts/SourceTree.contract.ts"
import * as SourceTreeNode from "./SourceTreeNode.ts"

const SHA = "0123456789abcdef0123456789abcdef01234567"

const withTree = <A, E>(setup: (root: string) => void, use: (tree: SourceTree["Service"], root: string) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-tree-"))
    setup(root)
    return yield* Effect.gen(function*() {
      const tree = yield* SourceTree
      return yield* use(tree, root)
    }).pipe(
      Effect.provide(SourceTreeNode.layer(root)),
      Effect.ensuring(Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true })))
    )
  }).pipe(Effect.provide(NodeFileSystem.layer))

/** A temporary root holding `tree` (a checkout's revision as a detached `.git/HEAD`), for as long as the layer lives. */
const nodeTree = (tree: TreeFixture) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-tree-contract-"))
      for (const [path, node] of Object.entries(tree.files)) {
        const file = NodePath.join(root, path)
        NodeFs.mkdirSync(NodePath.dirname(file), { recursive: true })
        if (typeof node === "object" && "symlink" in node) NodeFs.symlinkSync(node.symlink, file)
        else NodeFs.writeFileSync(file, node)
      }
      if (tree.revision !== undefined) {
        NodeFs.mkdirSync(NodePath.join(root, ".git"))
        NodeFs.writeFileSync(NodePath.join(root, ".git/HEAD"), `${tree.revision}\n`)
      }
      return root
    }),
    (root) => Effect.sync(() => NodeFs.rmSync(root, { recursive: true, force: true }))
  ).pipe(Effect.map(SourceTreeNode.layer), Layer.unwrap, Layer.provide(NodeFileSystem.layer))

contract("node", nodeTree)

describe("SourceTreeNode", () => {
  it.effect("list - entries with types, sizes and stamps that move when the file changes", () =>
    withTree((root) => {
      NodeFs.mkdirSync(NodePath.join(root, "src"))
      NodeFs.writeFileSync(NodePath.join(root, "src/a.ts"), "export const a = 1\n")
      NodeFs.symlinkSync("a.ts", NodePath.join(root, "src/link.ts"))
    }, (tree, root) =>
      Effect.gen(function*() {
        const top = yield* tree.list("")
        assert.deepStrictEqual(top.map((e) => [e.name, e.type]), [["src", "directory"]])
        const before = yield* tree.list("src")
        const file = before.find((e) => e.name === "a.ts")!
        assert.deepStrictEqual([file.type, file.size], ["file", 19])
        assert.deepStrictEqual(before.find((e) => e.name === "link.ts")?.type, "symlink")
        NodeFs.writeFileSync(NodePath.join(root, "src/a.ts"), "export const a = 2\n")
        const after = (yield* tree.list("src")).find((e) => e.name === "a.ts")!
        assert.notStrictEqual(after.stamp, file.stamp)
        assert.strictEqual(new TextDecoder().decode(yield* tree.read("src/a.ts")), "export const a = 2\n")
      })))

  it.effect("linkTarget - inside the root as a relative path, outside once it leaves", () =>
    withTree((root) => {
      NodeFs.mkdirSync(NodePath.join(root, "repo"))
      NodeFs.writeFileSync(NodePath.join(root, "repo/a.ts"), "")
      NodeFs.symlinkSync("a.ts", NodePath.join(root, "repo/in.ts"))
      NodeFs.symlinkSync(NodePath.join(NodePath.dirname(root), "elsewhere.ts"), NodePath.join(root, "repo/out.ts"))
      NodeFs.symlinkSync("..", NodePath.join(root, "repo/up"))
    }, (tree) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* tree.linkTarget("repo/in.ts"), { _tag: "Inside", path: "repo/a.ts" })
        assert.deepStrictEqual(yield* tree.linkTarget("repo/out.ts"), { _tag: "Outside" })
        assert.deepStrictEqual(yield* tree.linkTarget("repo/up"), { _tag: "Outside" })
      })))

  it.effect("linkTarget - a loop is a loop and a link to nothing dangles; neither is said to leave the root", () =>
    withTree((root) => {
      NodeFs.symlinkSync("self", NodePath.join(root, "self"))
      NodeFs.symlinkSync("pong", NodePath.join(root, "ping"))
      NodeFs.symlinkSync("ping", NodePath.join(root, "pong"))
      NodeFs.symlinkSync("missing.ts", NodePath.join(root, "gone.ts"))
    }, (tree) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* tree.linkTarget("self"), { _tag: "Loop" })
        assert.deepStrictEqual(yield* tree.linkTarget("ping"), { _tag: "Loop" })
        assert.deepStrictEqual(yield* tree.linkTarget("gone.ts"), { _tag: "Dangling" })
      })))

  it.effect("revision - reads HEAD through a branch ref or packed-refs", () =>
    withTree((root) => {
      NodeFs.mkdirSync(NodePath.join(root, ".git/refs/heads"), { recursive: true })
      NodeFs.writeFileSync(NodePath.join(root, ".git/HEAD"), "ref: refs/heads/main\n")
      NodeFs.writeFileSync(NodePath.join(root, ".git/packed-refs"), `# pack-refs\n${SHA} refs/heads/main\n`)
    }, (tree) => Effect.map(tree.revision, (revision) => assert.deepStrictEqual(revision, Option.some(SHA)))))

  it.effect("read - a missing file fails with SourceUnreadable", () =>
    withTree(() => {}, (tree) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(tree.read("nope.ts"))
        assert.strictEqual(error.reason._tag, "SourceUnreadable")
      })))
})
