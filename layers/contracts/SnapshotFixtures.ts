/**
 * Snapshots for the SnapshotStore contract, made as an index run makes them: a small repository
 * scanned by discovery on a tree of text held here, scanned again or patched after an edit.
 */
import { Effect, Layer, Option } from "effect"
import * as Digest from "effect/crypto/Digest"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import * as Discover from "../../src/discovery/Discover.ts"
import * as Patch from "../../src/discovery/Patch.ts"
import * as ScanCache from "../../src/discovery/ScanCache.ts"
import { unchangedSince } from "../../src/discovery/Unchanged.ts"
import { type SourceEntry, SourceTree } from "../../src/ports/SourceTree.ts"

export type Files = Readonly<Record<string, string>>

/** A repository with code, Markdown, a link and non-ASCII text (so pieces and characters differ in length). */
export const REPOSITORY: Files = {
  "package.json": JSON.stringify({ name: "demo" }),
  "src/main.ts": `import { helper } from "./helper.ts"\nexport const main = helper + "é字😀"\n`,
  "src/helper.ts": `export const helper = 1\n`,
  "docs/guide.md": "# Guide\n\nUses `helper` from `src/helper.ts` and [[notes]].\n",
  "docs/notes.md": "# Notes\n"
}

/** REPOSITORY with one module's body and one document edited, declaring the names they did: a patch can take it. */
export const EDITED: Files = {
  ...REPOSITORY,
  "src/helper.ts": `export const helper = 2 // é\n`,
  "docs/notes.md": "# Notes\n\nSee the [guide](guide.md).\n"
}

/** REPOSITORY with a module added: a different snapshot, which a patch cannot take. */
export const GROWN: Files = { ...REPOSITORY, "src/extra.ts": `export const extra = "extra"\n` }

const encoder = new TextEncoder()

/** `files` as a SourceTree: directories from the paths, a stamp that is the content itself. */
const tree = (files: Files): Layer.Layer<SourceTree> => {
  const bytes = new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)] as const))
  const children = new Map<string, Map<string, SourceEntry>>([["", new Map()]])
  for (const [path, content] of bytes) {
    const parts = path.split("/")
    parts.forEach((name, depth) => {
      const directory = parts.slice(0, depth).join("/")
      const siblings = children.get(directory) ?? new Map<string, SourceEntry>()
      children.set(directory, siblings)
      const file = depth === parts.length - 1
      if (!siblings.has(name)) {
        siblings.set(name, file ? { name, type: "file", size: content.length, stamp: `${content.length}:${files[path]}` } : { name, type: "directory", size: 0, stamp: "" })
      }
    })
  }
  return Layer.succeed(SourceTree, SourceTree.of({
    list: (directory) => Effect.succeed([...(children.get(directory)?.values() ?? [])]),
    read: (path) => Effect.succeed(bytes.get(path) ?? new Uint8Array()),
    linkTarget: () => Effect.succeed({ _tag: "Dangling" }),
    revision: Effect.succeed(Option.none())
  }))
}

const onTree = (files: Files) => <A, E>(effect: Effect.Effect<A, E, SourceTree | Digest.Digest>) =>
  effect.pipe(Effect.provide(tree(files)), Effect.provide(Digest.layerWebCrypto), Effect.orDie)

/** The snapshot of `files` on a cache of its own, which then knows every unit of it. */
export const scan = (files: Files, previous?: { readonly snapshot: Snapshot; readonly cache: ScanCache.ScanCache }) =>
  Effect.gen(function*() {
    const cache = previous?.cache ?? ScanCache.make()
    const snapshot = yield* Discover.discover({ cache, ...(previous === undefined ? {} : { previous: previous.snapshot }) }).pipe(onTree(files))
    return { snapshot, cache }
  })

/**
 * `stored` (the snapshot of a scan whose cache remembered the files `entries` names) patched with
 * the files of `files` that moved since; none when a patch cannot say.
 */
export const patch = (files: Files, stored: Patch.StoredSnapshot, entries: ReadonlyArray<readonly [string, string, string]>) =>
  Effect.gen(function*() {
    const cache = ScanCache.make(entries)
    const { listing } = yield* unchangedSince(undefined, cache)
    return Option.fromNullishOr(yield* Patch.patch({ stored, listing, cache }))
  }).pipe(onTree(files))
