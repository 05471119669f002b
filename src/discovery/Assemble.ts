/**
 * The sink of the discover dataflow: entities, relations and coverage from every file, put into one
 * deterministic snapshot. External entities are derived from the relations that name them; a
 * relation to an internal entity the scan did not produce (a vanished file) is dropped; everything
 * is canonicalised and sorted, and the content hash taken over the resulting bytes.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { CompilerOptions, Coverage, Entity, Relation, Snapshot } from "../domain/Snapshot.ts"
import { SCHEMA_VERSION } from "../domain/Snapshot.ts"
import * as Canonical from "./Canonical.ts"
import { sha256Text } from "./Hashing.ts"

export interface SnapshotParts {
  readonly pipelineVersion: string
  readonly analyzerVersions: Readonly<Record<string, string>>
  readonly configurationHash: string
  readonly sourceRevision: string | null
  readonly compilerOptions: ReadonlyArray<CompilerOptions>
  /** Every entity but the external ones, which are derived here. */
  readonly entities: ReadonlyArray<Entity>
  readonly relations: ReadonlyArray<Relation>
  readonly coverage: ReadonlyArray<Coverage>
}

const INTERNAL = /^(module|document|package|area):/

/** The snapshot's fields in schema order, without `contentHash`. */
export const body = (parts: SnapshotParts): Omit<Snapshot, "contentHash"> => {
  const entities = new Map<string, Entity>()
  for (const entity of parts.entities) entities.set(entity.id, Canonical.entity(entity))
  const relations = new Map<string, Relation>()
  for (const relation of parts.relations) {
    if (INTERNAL.test(relation.to) && !entities.has(relation.to)) continue
    const key = `${relation.from}\u0000${relation.kind}\u0000${relation.to}`
    const held = relations.get(key)
    relations.set(key, held === undefined ? relation : { ...held, evidence: [...held.evidence, ...relation.evidence] })
  }
  for (const relation of relations.values()) {
    if (relation.to.startsWith("external:") && !entities.has(relation.to)) {
      entities.set(relation.to, { id: relation.to, kind: "external", name: relation.to.slice("external:".length), evidence: [] })
    }
  }
  const analyzerVersions: Record<string, string> = {}
  for (const id of Object.keys(parts.analyzerVersions).sort(Canonical.compareStrings)) {
    analyzerVersions[id] = parts.analyzerVersions[id]!
  }
  return {
    schemaVersion: SCHEMA_VERSION,
    pipelineVersion: parts.pipelineVersion,
    analyzerVersions,
    configurationHash: parts.configurationHash,
    sourceRevision: parts.sourceRevision,
    compilerOptions: [...parts.compilerOptions]
      .sort((a, b) => Canonical.compareStrings(a.path, b.path))
      .map((o) => ({
        path: o.path,
        contentHash: o.contentHash,
        baseUrl: o.baseUrl,
        paths: o.paths.map((m) => ({ pattern: m.pattern, targets: [...m.targets] }))
      })),
    entities: [...entities.values()].sort((a, b) => Canonical.compareStrings(a.id, b.id)),
    relations: [...relations.values()].map(Canonical.relation).sort(Canonical.compareRelations),
    coverage: parts.coverage.map(Canonical.coverage).sort(Canonical.compareCoverage)
      .filter((entry, index, all) => index === 0 || Canonical.compareCoverage(all[index - 1]!, entry) !== 0)
  }
}

/** The exact bytes a snapshot is written as; `contentHash` is the SHA-256 of its body's bytes. */
export const serialize = (snapshot: Snapshot | Omit<Snapshot, "contentHash">): string => JSON.stringify(snapshot)

export const assemble = (parts: SnapshotParts): Effect.Effect<Snapshot, never, Digest.Digest> => {
  const fields = body(parts)
  return Effect.map(sha256Text(serialize(fields)), (contentHash) => ({ ...fields, contentHash }))
}
