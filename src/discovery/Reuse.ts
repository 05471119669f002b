/**
 * The previous snapshot as an offer. It is refused outright unless it declares, and matches, the
 * schema, pipeline, analyzer versions and configuration of this scan; once accepted it answers, per
 * file, what a scan may take from it instead of reading and parsing again.
 */
import type { Coverage, Entity, Relation, Snapshot } from "../domain/Snapshot.ts"
import { SCHEMA_VERSION } from "../domain/Snapshot.ts"
import type { Keys } from "./Fingerprints.ts"

export interface Expectations {
  readonly pipelineVersion: string
  readonly analyzerVersions: Readonly<Record<string, string>>
  readonly configurationHash: string
}

export interface PreviousIndex {
  readonly entity: (id: string) => Entity | undefined
  /** Relations leaving an entity, in snapshot order. */
  readonly relationsFrom: (id: string) => ReadonlyArray<Relation>
  /** Per-file coverage an analyzer wrote for a path. */
  readonly coverageOf: (path: string, analyzer: string) => ReadonlyArray<Coverage>
  readonly moduleKey: string
  readonly resolutionKey: string
}

export type Offer =
  | { readonly _tag: "None" }
  | { readonly _tag: "Refused"; readonly reason: string }
  | { readonly _tag: "Accepted"; readonly index: PreviousIndex }

const versionsText = (versions: Readonly<Record<string, string>>): string =>
  Object.keys(versions).sort().map((id) => `${id}@${versions[id]}`).join(",")

/** Why a previous snapshot cannot be trusted by this scan, or undefined when it can. */
export const refusal = (
  previous: Pick<Snapshot, "schemaVersion" | "pipelineVersion" | "analyzerVersions" | "configurationHash">,
  expected: Expectations
): string | undefined => {
  if (previous.schemaVersion !== SCHEMA_VERSION) return `schemaVersion ${previous.schemaVersion} is not ${SCHEMA_VERSION}`
  if (previous.pipelineVersion === "") return "it declares no pipelineVersion"
  if (Object.keys(previous.analyzerVersions).length === 0) return "it declares no analyzerVersions"
  if (previous.configurationHash === "") return "it declares no configurationHash"
  if (previous.pipelineVersion !== expected.pipelineVersion) {
    return `pipelineVersion ${previous.pipelineVersion} is not ${expected.pipelineVersion}`
  }
  if (versionsText(previous.analyzerVersions) !== versionsText(expected.analyzerVersions)) {
    return `analyzerVersions ${versionsText(previous.analyzerVersions)} are not ${versionsText(expected.analyzerVersions)}`
  }
  if (previous.configurationHash !== expected.configurationHash) return "the configuration changed (configurationHash differs)"
  return undefined
}

/** Each entity of a snapshot with the relations leaving it, by id. */
export type PreviousUnits = ReadonlyMap<string, { readonly entity: Entity; readonly relations: ReadonlyArray<Relation> }>

const unitsOf = (snapshot: Snapshot): PreviousUnits => {
  const relations = new Map<string, Array<Relation>>()
  for (const relation of snapshot.relations) {
    const list = relations.get(relation.from)
    if (list === undefined) relations.set(relation.from, [relation])
    else list.push(relation)
  }
  return new Map(snapshot.entities.map((entity) => [entity.id, { entity, relations: relations.get(entity.id) ?? [] }]))
}

/**
 * `keysOf` derives the previous snapshot's fingerprints and `known` may hold its units already
 * grouped (both memos of the scan that produced it).
 */
export const offer = (
  previous: Snapshot | undefined,
  expected: Expectations,
  keysOf: (snapshot: Snapshot) => Keys,
  known: PreviousUnits | undefined
): Offer => {
  if (previous === undefined) return { _tag: "None" }
  const why = refusal(previous, expected)
  if (why !== undefined) return { _tag: "Refused", reason: why }
  const units = known ?? unitsOf(previous)
  const coverage = new Map<string, Array<Coverage>>()
  for (const entry of previous.coverage) {
    const list = coverage.get(entry.scope)
    if (list === undefined) coverage.set(entry.scope, [entry])
    else list.push(entry)
  }
  const keys = keysOf(previous)
  return {
    _tag: "Accepted",
    index: {
      entity: (id) => units.get(id)?.entity,
      relationsFrom: (id) => units.get(id)?.relations ?? [],
      coverageOf: (path, analyzer) => coverage.get(path)?.filter((entry) => entry.analyzer === analyzer) ?? [],
      moduleKey: keys.moduleKey,
      resolutionKey: keys.resolutionKey
    }
  }
}

/** The content hash a file-backed entity carries in its first evidence item. */
export const hashOf = (entity: Entity | undefined): string | undefined => entity?.evidence[0]?.contentHash
