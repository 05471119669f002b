/**
 * The check that a tree is as its last scan left it, on the local file system: a listing and the
 * scan cache, no file read and no parser loaded (discover.ts holds the scan itself).
 */
import type { FileSystem } from "effect"
import { Effect } from "effect"
import * as SourceTreeNode from "../layers/node/SourceTreeNode.ts"
import type { DiscoveryError } from "../src/domain/DiscoveryError.ts"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import type { ScanCache } from "../src/discovery/ScanCache.ts"
import * as Unchanged from "../src/discovery/Unchanged.ts"

/**
 * Whether a scan of `root` now would look at exactly the files `cache` remembers from its last
 * scan, with the same stamps (see `Unchanged.unchangedSince`), and the listing that says so;
 * nothing is read.
 */
export const unchangedSince = (
  options: { readonly root: string; readonly config?: Partial<DiscoveryConfig> | undefined; readonly cache: ScanCache }
): Effect.Effect<Unchanged.Verdict, DiscoveryError, FileSystem.FileSystem> =>
  Unchanged.unchangedSince(options.config, options.cache).pipe(Effect.provide(SourceTreeNode.layer(options.root)))
