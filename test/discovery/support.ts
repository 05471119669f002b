/** Helpers shared by the discovery integration tests: scanning a fixture on disk or in memory. */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as SourceTreeMemory from "../../layers/reference/SourceTreeMemory.ts"
import { discover } from "../../pipelines/discover.ts"
import type { DiscoveryError } from "../../src/domain/DiscoveryError.ts"
import type { Relation, Snapshot } from "../../src/domain/Snapshot.ts"
import type { DiscoverInput } from "../../src/discovery/Discover.ts"
import * as Discover from "../../src/discovery/Discover.ts"
import type { DiscoveryConfig } from "../../src/discovery/DiscoveryConfig.ts"

export const fixture = (name: string): string => NodePath.join(import.meta.dirname, "..", "fixtures", name)

/** A fixture on disk through the Node backend, as the CLI scans it. */
export const scanDisk = (
  root: string,
  config: Partial<DiscoveryConfig> = {},
  previous?: Snapshot
): Effect.Effect<Snapshot, DiscoveryError> =>
  discover({ root, config, previous }).pipe(Effect.provide(NodeFileSystem.layer))

/** An in-memory tree through the reference backend. */
export const scanMemory = (
  files: Readonly<Record<string, SourceTreeMemory.MemoryNode>>,
  input: DiscoverInput = {}
): Effect.Effect<Snapshot, DiscoveryError> =>
  Discover.discover(input).pipe(
    Effect.provide(SourceTreeMemory.layer(files)),
    Effect.provide(Digest.layerWebCrypto)
  )

/** Every regular file under a directory, as a memory tree (symbolic links are skipped). */
export const readTree = (root: string): Record<string, Uint8Array> => {
  const out: Record<string, Uint8Array> = {}
  const visit = (relative: string) => {
    for (const entry of NodeFs.readdirSync(NodePath.join(root, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) visit(path)
      else if (entry.isFile()) out[path] = new Uint8Array(NodeFs.readFileSync(NodePath.join(root, path)))
    }
  }
  visit("")
  return out
}

/** `kind from -> to`, with markers for fuzzy and declared relations: what the fixtures assert. */
export const relationLines = (snapshot: Snapshot, filter: (relation: Relation) => boolean = () => true): Array<string> =>
  snapshot.relations.filter(filter).map((r) =>
    `${r.kind} ${r.from} -> ${r.to}${r.confidence === "fuzzy" ? " (fuzzy)" : ""}${r.status === "declared" ? " [declared]" : ""}`
  )

export const notContains = (relation: Relation): boolean => relation.kind !== "contains"

/** The snapshot without the entry that describes the run: what a warm scan must equal. */
export const withoutRun = (snapshot: Snapshot): Omit<Snapshot, "contentHash"> => {
  const { contentHash: _, ...rest } = snapshot
  return { ...rest, coverage: snapshot.coverage.filter((entry) => entry.scope !== "reused-entities") }
}
