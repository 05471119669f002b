/**
 * Discovery on a directory of the local file system: the discover dataflow over the Node
 * `SourceTree`, hashing on `node:crypto`, large Markdown batches parsed on worker threads. The file system itself stays a requirement, so a caller
 * provides `NodeFileSystem.layer` (or `NodeServices.layer`) once.
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import type { FileSystem } from "effect"
import { Effect, Stream } from "effect"
import * as AnalyzerPoolNode from "../layers/node/AnalyzerPoolNode.ts"
import * as SourceTreeNode from "../layers/node/SourceTreeNode.ts"
import type { DiscoveryError } from "../src/domain/DiscoveryError.ts"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import * as Discover from "../src/discovery/Discover.ts"
import * as Patch from "../src/discovery/Patch.ts"
import type { ScanCache } from "../src/discovery/ScanCache.ts"
import type { DiscoveryEvent, Progress } from "../src/discovery/Progress.ts"
import type { Listing } from "../src/discovery/Walk.ts"
import type { UnitStash } from "../src/languages/UnitStash.ts"

export interface DiscoverOptions {
  /** The directory to scan. */
  readonly root: string
  readonly config?: Partial<DiscoveryConfig> | undefined
  /** A snapshot of an earlier scan, offered for reuse. */
  readonly previous?: Snapshot | undefined
  /** Keep one across scans in a long-lived process to skip reading unchanged files. */
  readonly cache?: ScanCache | undefined
  /** A listing made just before under the same configuration (`unchangedSince` gives one). */
  readonly listing?: Listing | undefined
  /** Hears the scan's progress after every file, as `discoverStream` streams it. */
  readonly onProgress?: ((progress: Progress) => void) | undefined
  /** Keeps the units of files parsed with tree-sitter for chunking them next (see `UnitStash`). */
  readonly units?: UnitStash | undefined
}

const input = (options: DiscoverOptions): Discover.DiscoverInput => ({
  config: options.config,
  previous: options.previous,
  cache: options.cache,
  listing: options.listing,
  units: options.units
})

/** The snapshot of `root`. */
export const discover = (options: DiscoverOptions): Effect.Effect<Snapshot, DiscoveryError, FileSystem.FileSystem> =>
  (options.onProgress === undefined
    ? Discover.discover(input(options))
    : Discover.discoverWith(input(options), (progress) => Effect.sync(() => options.onProgress!(progress)))).pipe(
    Effect.provide(SourceTreeNode.layer(options.root)),
    Effect.provide(NodeCrypto.layerDigest),
    Effect.provide(AnalyzerPoolNode.layer)
  )

/** The same scan as progress events ending in one `Completed` event carrying the snapshot. */
export const discoverStream = (
  options: DiscoverOptions
): Stream.Stream<DiscoveryEvent, DiscoveryError, FileSystem.FileSystem> =>
  Discover.discoverEvents(input(options)).pipe(
    Stream.provide(SourceTreeNode.layer(options.root)),
    Stream.provide(NodeCrypto.layerDigest),
    Stream.provide(AnalyzerPoolNode.layer)
  )

/**
 * The snapshot a scan of `root` would produce, as `stored` patched, when a patch can say (see
 * `Patch.patch`); nothing is read but the files that moved.
 */
export const patch = (
  options: { readonly root: string; readonly stored: Patch.StoredSnapshot; readonly listing: Listing; readonly config?: Partial<DiscoveryConfig> | undefined; readonly cache: ScanCache }
): Effect.Effect<Patch.Patched | undefined, DiscoveryError, FileSystem.FileSystem> =>
  Patch.patch(options).pipe(Effect.provide(SourceTreeNode.layer(options.root)), Effect.provide(NodeCrypto.layerDigest))
