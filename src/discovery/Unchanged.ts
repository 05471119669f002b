/**
 * The cheapest answer to "has anything a scan reads changed?": list the tree and compare it with
 * the files the last scan looked at, by stamp, the way `git status` trusts its index. Nothing is
 * read and no snapshot is loaded, so a repository that did not change is confirmed in the time a
 * listing takes. Any doubt (a stamp that moved, a file added or gone, another configuration or
 * analyzer version) answers "changed", and a full scan decides. What it does not look at is what
 * no analyzer reads: the git revision and files no analyzer takes change a snapshot's run fields
 * and coverage, never an entity or a relation.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import { PIPELINE_VERSION } from "./PipelineVersion.ts"
import * as DiscoveryConfig from "./DiscoveryConfig.ts"
import { sha256Text } from "../source/Hashing.ts"
import * as Registry from "./Registry.ts"
import type { ScanCache } from "./ScanCache.ts"
import type { Listing } from "./Walk.ts"
import { walk } from "./Walk.ts"

/**
 * What must be equal for two scans to read files alike: the pipeline, every analyzer's version and
 * the configuration fields that change what is listed or analysed.
 */
export const scanFingerprint = Effect.fnUntraced(function*(overrides: Partial<DiscoveryConfig.DiscoveryConfig> | undefined): Effect.fn.Return<string, DiscoveryError, Digest.Digest> {
    const config = yield* DiscoveryConfig.make(overrides)
    const versions = Object.keys(Registry.kinds.versions).sort().map((id) => `${id}@${Registry.kinds.versions[id]}`)
    return yield* sha256Text([PIPELINE_VERSION, versions.join(","), DiscoveryConfig.hashedFields(config)].join("\n"))
  })

export interface Verdict {
  /** A scan now would look at exactly the files the last one did, each with the stamp it had then. */
  readonly unchanged: boolean
  /** The listing the verdict was read from, which a scan that follows may take instead of listing again. */
  readonly listing: Listing
}

/**
 * Lists the tree and compares it with the files `cache` remembers from the last scan. The cache
 * must hold only that scan's files (as `hashEntries` gives them after a scan), and the caller must
 * check the fingerprint that scan ran under.
 */
export const unchangedSince = Effect.fnUntraced(function*(overrides: Partial<DiscoveryConfig.DiscoveryConfig> | undefined,
  cache: ScanCache): Effect.fn.Return<Verdict, DiscoveryError, SourceTree> {
  const config = yield* DiscoveryConfig.make(overrides)
  // The last scan's own files only: a hash the cache still holds from an older scan vouches for nothing.
  const listing = yield* walk(config, cache)
  let analysable = 0
  for (const file of listing.files) {
    if (Registry.kinds.analyzerFor(file.path) === undefined || file.size > config.maxFileBytes) continue
    analysable++
    if (file.stamp === "" || cache.stampOf(file.path) !== file.stamp) return { unchanged: false, listing }
  }
  // Every listed file is remembered with its stamp; equal counts leave no remembered file unlisted.
  const remembered = cache.entryCount()
  return { unchanged: remembered > 0 && analysable === remembered, listing }
})
