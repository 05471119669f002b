/**
 * Whether the index holds the tree as it is, confirmed from a listing and `.cairn/scan-cache.json`
 * alone: no file read, no snapshot, none of the index pipeline loaded. A refresh asks it first, and
 * so does an answer from the index as it is, before it loads what counts the files that changed.
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Effect, FileSystem, Path } from "effect"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import { scanFingerprint, type Verdict } from "../src/discovery/Unchanged.ts"
import { IndexStore } from "../src/ports/IndexStore.ts"
import * as ScanCacheFile from "./scanCacheFile.ts"
import { unchangedSince } from "./unchanged.ts"

/** The discovery configuration of an index run: the caller's, never scanning cairn's own folder. */
export const scanConfig = (discovery: Partial<DiscoveryConfig> | undefined): Partial<DiscoveryConfig> =>
  ({ ...discovery, exclude: [...(discovery?.exclude ?? []), ".cairn/"] })

/**
 * The listing's verdict when the index holds the build of the scan `remembered` records (same
 * snapshot, same fingerprint); undefined when it does not, and only a scan can tell.
 */
export const rememberedVerdict = (options: {
  readonly root: string
  readonly config: Partial<DiscoveryConfig>
  readonly fingerprint: string
  readonly remembered: ScanCacheFile.ScanCacheFile
  readonly manifest: { readonly snapshotHash: string } | undefined
}) =>
  options.manifest !== undefined && options.remembered.snapshotHash === options.manifest.snapshotHash &&
    options.remembered.fingerprint === options.fingerprint
    ? Effect.map(unchangedSince({ root: options.root, config: options.config, cache: options.remembered.cache }), (verdict): Verdict | undefined => verdict)
    : Effect.succeed(undefined)

/** True when the index under `root`, read by the `IndexStore` in context, holds every file as it is now. */
export const confirmedUpToDate = Effect.fn("confirmedUpToDate")(function*(options: { readonly root: string; readonly discovery?: Partial<DiscoveryConfig> }) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const writer = yield* IndexStore
  const config = scanConfig(options.discovery)
  const verdict = yield* rememberedVerdict({
    root: options.root,
    config,
    fingerprint: yield* scanFingerprint(config),
    remembered: yield* ScanCacheFile.read(fs, path.join(options.root, ".cairn", "scan-cache.json")),
    manifest: yield* writer.manifest
  })
  return verdict?.unchanged === true
}, (effect) => Effect.provide(effect, NodeCrypto.layerDigest))
