/**
 * Reference backend of `SourceTree`: a tree held in memory, for tests and property tests. Directory
 * entries come back in the order the files were given, so a test can shuffle the listing.
 */
import { Effect, Layer, Option } from "effect"
import { DiscoveryError, SourceUnreadable } from "../../src/domain/DiscoveryError.ts"
import { dirname, normalize } from "../../src/source/Paths.ts"
import type { LinkTarget, SourceEntry } from "../../src/ports/SourceTree.ts"
import { SourceTree } from "../../src/ports/SourceTree.ts"

/** A file's text or bytes, or a symbolic link with its target relative to the link's directory. */
export type MemoryNode = string | Uint8Array | { readonly symlink: string }

export interface MemoryOptions {
  readonly revision?: string
}

const encoder = new TextEncoder()

const unreadable = (path: string, detail: string) =>
  new DiscoveryError({ reason: new SourceUnreadable({ path, detail }) })

// Exact and cheap for the small trees tests build: the stamp is the content itself.
const stampOf = (bytes: Uint8Array): string => `${bytes.length}:${Array.from(bytes, (b) => String.fromCharCode(b)).join("")}`

export const make = (files: Readonly<Record<string, MemoryNode>>, options: MemoryOptions = {}): SourceTree["Service"] => {
  const bytesOf = new Map<string, Uint8Array>()
  const links = new Map<string, string>()
  const children = new Map<string, Map<string, SourceEntry>>()
  const add = (directory: string, entry: SourceEntry) => {
    let siblings = children.get(directory)
    if (siblings === undefined) {
      siblings = new Map()
      children.set(directory, siblings)
    }
    if (!siblings.has(entry.name)) siblings.set(entry.name, entry)
  }
  for (const [path, node] of Object.entries(files)) {
    const name = path.slice(path.lastIndexOf("/") + 1)
    if (typeof node === "object" && "symlink" in node) {
      links.set(path, node.symlink)
      add(dirname(path), { name, type: "symlink", size: 0, stamp: "" })
    } else {
      const bytes = typeof node === "string" ? encoder.encode(node) : node
      bytesOf.set(path, bytes)
      add(dirname(path), { name, type: "file", size: bytes.length, stamp: stampOf(bytes) })
    }
    for (let directory = dirname(path); directory !== ""; directory = dirname(directory)) {
      add(dirname(directory), { name: directory.slice(directory.lastIndexOf("/") + 1), type: "directory", size: 0, stamp: "" })
    }
  }
  // Follows a chain of links the way the kernel does for the last component: a link met twice is a loop.
  const resolveLink = (path: string): LinkTarget => {
    const seen = new Set<string>()
    for (let current = path; ;) {
      if (seen.has(current)) return { _tag: "Loop" }
      seen.add(current)
      const target = links.get(current)
      if (target === undefined) {
        return bytesOf.has(current) || children.has(current) ? { _tag: "Inside", path: current } : { _tag: "Dangling" }
      }
      const resolved = target.startsWith("/") ? undefined : normalize(`${dirname(current)}/${target}`)
      if (resolved === undefined) return { _tag: "Outside" }
      current = resolved
    }
  }
  return SourceTree.of({
    list: (directory) =>
      directory === "" || children.has(directory)
        ? Effect.succeed([...(children.get(directory)?.values() ?? [])])
        : Effect.fail(unreadable(directory, "no such directory")),
    read: (path) => {
      const bytes = bytesOf.get(path)
      return bytes === undefined ? Effect.fail(unreadable(path, "no such file")) : Effect.succeed(bytes)
    },
    linkTarget: (path) => Effect.succeed(resolveLink(path)),
    revision: Effect.succeed(Option.fromNullishOr(options.revision))
  })
}

export const layer = (files: Readonly<Record<string, MemoryNode>>, options: MemoryOptions = {}): Layer.Layer<SourceTree> =>
  Layer.succeed(SourceTree, make(files, options))
