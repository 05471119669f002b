/**
 * The file tree discovery reads, bound to one root. The port is a plain view of directories and
 * bytes: which files count (ignore rules, secrets, size, binaries) is decided by discovery, so every
 * backend applies the same policy.
 */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"

/**
 * `undecodable`: an entry whose name is not valid UTF-8. Paths are strings, so it can be neither
 * listed into nor read; its `name` shows each byte that is not UTF-8 as `\xNN`, for the coverage
 * entry that reports it.
 */
export type EntryType = "file" | "directory" | "symlink" | "other" | "undecodable"

export interface SourceEntry {
  /** The entry's name within its directory. */
  readonly name: string
  readonly type: EntryType
  /** Size in bytes; 0 for anything but a file. */
  readonly size: number
  /**
   * An opaque token that changes whenever the file's bytes may have changed (size, modification
   * time, inode). Equal stamps let a warm scan trust a hash it computed earlier without a read.
   */
  readonly stamp: string
}

/**
 * Where a symbolic link leads: to a root-relative path (`Inside`), out of the root (`Outside`), round
 * a loop that never reaches a file (`Loop`), or to nothing that exists or can be resolved
 * (`Dangling`).
 */
export type LinkTarget =
  | { readonly _tag: "Inside"; readonly path: string }
  | { readonly _tag: "Outside" }
  | { readonly _tag: "Loop" }
  | { readonly _tag: "Dangling" }

export class SourceTree extends Context.Service<SourceTree, {
  /** Entries of a directory given by its root-relative path (`""` is the root), in any order. */
  readonly list: (directory: string) => Effect.Effect<ReadonlyArray<SourceEntry>, DiscoveryError>
  /** The bytes of a root-relative file. */
  readonly read: (path: string) => Effect.Effect<Uint8Array, DiscoveryError>
  /** Where a symbolic link leads. Discovery never follows links; this only explains the coverage note. */
  readonly linkTarget: (path: string) => Effect.Effect<LinkTarget>
  /** The revision the tree is checked out at (git HEAD), when there is one. */
  readonly revision: Effect.Effect<Option.Option<string>>
}>()("cairn/ports/SourceTree") {}
