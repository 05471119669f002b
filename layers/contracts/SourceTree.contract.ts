/**
 * Behaviour every SourceTree backend must show, run against each backend by its own test file. A
 * backend is given as a function from a described tree (files by root-relative path, symbolic
 * links with their targets as written, the revision it is checked out at) to a layer bound to a
 * root holding it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Layer } from "effect"
import { DiscoveryError } from "../../src/domain/DiscoveryError.ts"
import { SourceTree } from "../../src/ports/SourceTree.ts"

/** A file's text or bytes, or a symbolic link with its target relative to the link's directory. */
export type TreeNode = string | Uint8Array | { readonly symlink: string }

export interface TreeFixture {
  readonly files: Readonly<Record<string, TreeNode>>
  /** The commit the tree is checked out at, when it is a checkout. */
  readonly revision?: string
}

export type MakeTreeLayer<E> = (tree: TreeFixture) => Layer.Layer<SourceTree, E>

const NOT_UTF8 = new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0x00, 0x0a])

const TREE: TreeFixture = {
  files: {
    "README.md": "# Read me\n",
    "docs/guide.md": "# Guide\n\nWords.\n",
    "docs/deep/page.md": "deep",
    "docs/empty.md": "",
    "bin/blob.dat": NOT_UTF8,
    "docs/up.md": { symlink: "../README.md" },
    "to-docs": { symlink: "docs" },
    "chain": { symlink: "docs/up.md" },
    "gone.md": { symlink: "missing.md" },
    "loop-a": { symlink: "loop-b" },
    "loop-b": { symlink: "loop-a" },
    "out.md": { symlink: "../outside-the-root.md" }
  }
}

const utf8 = new TextEncoder()

export interface SourceTreeContractOptions {
  /** Per test, in milliseconds: a backend that writes a real tree per test may need more than the default. */
  readonly timeout?: number
}

export const contract = <E>(name: string, makeLayer: MakeTreeLayer<E>, options: SourceTreeContractOptions = {}) => {
  const withTree = <A, E2>(tree: TreeFixture, f: (source: SourceTree["Service"]) => Effect.Effect<A, E2>) =>
    Effect.gen(function*() {
      return yield* f(yield* SourceTree)
    }).pipe(Effect.provide(makeLayer(tree)))
  const timeout = options.timeout ?? 10_000
  const listed = (source: SourceTree["Service"], directory: string) =>
    Effect.map(source.list(directory), (entries) => entries.map((e) => [e.name, e.type, e.size] as const).sort(([a], [b]) => (a < b ? -1 : 1)))

  describe(`SourceTree contract (${name})`, () => {
    it.effect("list - each entry of a directory once, with its type; sizes in bytes for files, 0 for anything else", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* listed(source, ""), [
            ["README.md", "file", 10],
            ["bin", "directory", 0],
            ["chain", "symlink", 0],
            ["docs", "directory", 0],
            ["gone.md", "symlink", 0],
            ["loop-a", "symlink", 0],
            ["loop-b", "symlink", 0],
            ["out.md", "symlink", 0],
            ["to-docs", "symlink", 0]
          ])
          assert.deepStrictEqual(yield* listed(source, "docs"), [
            ["deep", "directory", 0],
            ["empty.md", "file", 0],
            ["guide.md", "file", 16],
            ["up.md", "symlink", 0]
          ])
          assert.deepStrictEqual(yield* listed(source, "docs/deep"), [["page.md", "file", 4]])
        })), timeout)

    it.effect("list - a directory that does not exist, or a file, fails with a typed error", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          for (const directory of ["nowhere", "docs/nowhere", "README.md"]) {
            const error = yield* Effect.flip(source.list(directory))
            assert.instanceOf(error, DiscoveryError, directory)
            assert.strictEqual(error.reason._tag, "SourceUnreadable", directory)
          }
        })), timeout)

    it.effect("read - a file's bytes exactly, whatever they encode; a missing file or a directory fails with a typed error", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* source.read("docs/guide.md"), utf8.encode("# Guide\n\nWords.\n"))
          assert.deepStrictEqual(yield* source.read("bin/blob.dat"), NOT_UTF8)
          assert.strictEqual((yield* source.read("docs/empty.md")).length, 0)
          for (const path of ["docs/missing.md", "docs"]) {
            const error = yield* Effect.flip(source.read(path))
            assert.strictEqual(error.reason._tag, "SourceUnreadable", path)
          }
        })), timeout)

    it.effect("list - a file's stamp holds while it is unchanged and differs between files of different bytes", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          const stamps = (entries: ReadonlyArray<{ readonly name: string; readonly stamp: string }>) => new Map(entries.map((e) => [e.name, e.stamp]))
          const first = stamps(yield* source.list("docs"))
          const again = stamps(yield* source.list("docs"))
          assert.deepStrictEqual(again, first)
          assert.isAbove(first.get("guide.md")!.length, 0)
          assert.notStrictEqual(first.get("guide.md"), first.get("empty.md"))
        })), timeout)

    it.effect("linkTarget - inside the root as a root-relative path (through links, to files or directories), or outside", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* source.linkTarget("docs/up.md"), { _tag: "Inside", path: "README.md" })
          assert.deepStrictEqual(yield* source.linkTarget("chain"), { _tag: "Inside", path: "README.md" })
          assert.deepStrictEqual(yield* source.linkTarget("to-docs"), { _tag: "Inside", path: "docs" })
          assert.deepStrictEqual(yield* source.linkTarget("out.md"), { _tag: "Outside" })
        })), timeout)

    it.effect("linkTarget - a link round a loop is a loop, and a link to nothing dangles", () =>
      withTree(TREE, (source) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* source.linkTarget("loop-a"), { _tag: "Loop" })
          assert.deepStrictEqual(yield* source.linkTarget("gone.md"), { _tag: "Dangling" })
        })), timeout)

    it.effect("revision - the commit the tree is checked out at, and none when it is no checkout", () =>
      Effect.gen(function*() {
        const sha = "0123456789abcdef0123456789abcdef01234567"
        assert.deepStrictEqual(yield* withTree({ files: { "a.md": "a" }, revision: sha }, (source) => source.revision), Option.some(sha))
        assert.deepStrictEqual(yield* withTree({ files: { "a.md": "a" } }, (source) => source.revision), Option.none())
      }), timeout)
  })
}
