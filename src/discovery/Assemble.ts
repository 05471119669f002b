/**
 * The sink of the discover dataflow: every entity with the relations leaving it and its per-file
 * coverage (a unit), put into one deterministic snapshot. External entities are derived from the
 * relations that name them; a relation to an internal entity the scan did not produce (a vanished
 * file) is dropped; everything is canonicalised and sorted.
 *
 * `contentHash` is a two-level SHA-256 over the canonical JSON, so that a warm scan hashes only the
 * units that changed (see `unitText` and `contentHash` below). Canonical forms and unit digests are
 * memoised by object identity in the scan cache; the index keeps the digests beside its snapshot
 * file, under a memo format that must change whenever they would (SnapshotMemo.ts).
 */
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import type { CompilerOptions, Coverage, Entity, Relation, Snapshot } from "../domain/Snapshot.ts"
import { SCHEMA_VERSION } from "../domain/Snapshot.ts"
import * as Canonical from "./Canonical.ts"
import type { PreviousUnits } from "./Reuse.ts"
import type { ScanCache } from "./ScanCache.ts"
import { memo } from "./ScanCache.ts"
import { compareIds } from "../domain/Ranking.ts"

/** One entity, the relations leaving it (every `from` is its id), and the coverage its file earned. */
export interface Unit {
  readonly entity: Entity
  readonly relations: ReadonlyArray<Relation>
  readonly coverage: ReadonlyArray<Coverage>
}

export interface Header {
  readonly pipelineVersion: string
  readonly analyzerVersions: Readonly<Record<string, string>>
  readonly configurationHash: string
  readonly sourceRevision: string | null
  readonly compilerOptions: ReadonlyArray<CompilerOptions>
}

export interface AssemblyInput {
  readonly header: Header
  /** Every entity but the external ones, which are derived here. */
  readonly units: ReadonlyArray<Unit>
  /** Coverage that belongs to no unit: the listing, skipped files, configuration, the run. */
  readonly coverage: ReadonlyArray<Coverage>
}

/** Ids of entities a scan produces from the tree; a relation to one the scan did not produce is dropped. */
export const INTERNAL = /^(module|document|package|area):/
const encoder = new TextEncoder()

const headerFields = (header: Header) => {
  const analyzerVersions: Record<string, string> = {}
  for (const id of Object.keys(header.analyzerVersions).sort(compareIds)) {
    analyzerVersions[id] = header.analyzerVersions[id]!
  }
  return {
    schemaVersion: SCHEMA_VERSION,
    pipelineVersion: header.pipelineVersion,
    analyzerVersions,
    configurationHash: header.configurationHash,
    sourceRevision: header.sourceRevision,
    compilerOptions: [...header.compilerOptions]
      .sort((a, b) => compareIds(a.path, b.path))
      .map((o) => ({
        path: o.path,
        contentHash: o.contentHash,
        baseUrl: o.baseUrl,
        paths: o.paths.map((m) => ({ pattern: m.pattern, targets: [...m.targets] }))
      }))
  }
}

/** Sorted by kind then target, equal keys merged. */
const sortRelations = (relations: ReadonlyArray<Relation>): Array<Relation> => {
  const sorted = [...relations].sort(Canonical.compareRelations)
  const merged: Array<Relation> = []
  for (const relation of sorted) {
    const last = merged[merged.length - 1]
    if (last !== undefined && Canonical.compareRelations(last, relation) === 0) {
      merged[merged.length - 1] = Canonical.relation({ ...last, evidence: [...last.evidence, ...relation.evidence] })
    } else {
      merged.push(relation)
    }
  }
  return merged
}

const isSorted = (relations: ReadonlyArray<Relation>): boolean => {
  for (let index = 1; index < relations.length; index++) {
    if (Canonical.compareRelations(relations[index - 1]!, relations[index]!) >= 0) return false
  }
  return true
}

/** A relation group as a snapshot holds it: each relation canonical, sorted, equal keys merged. */
export const canonicalGroup = (relations: ReadonlyArray<Relation>): ReadonlyArray<Relation> => {
  const items = relations.map(Canonical.relation)
  return isSorted(items) ? items : sortRelations(items)
}

/** A coverage list as a snapshot holds it: each entry canonical, sorted, duplicates dropped. */
export const canonicalCoverage = (coverage: ReadonlyArray<Coverage>): Array<Coverage> =>
  coverage.map(Canonical.coverage).sort(Canonical.compareCoverage)
    .filter((entry, index, all) => index === 0 || Canonical.compareCoverage(all[index - 1]!, entry) !== 0)

/**
 * The text a unit's digest is taken over: its entity's JSON, then a line per relation leaving it,
 * each the relation's JSON, in snapshot order. Everything here is in the snapshot file, so anyone
 * can recompute it.
 */
export const unitText = (entity: Entity, relations: ReadonlyArray<Relation>): string =>
  [JSON.stringify(entity), ...relations.map((relation) => JSON.stringify(relation))].join("\n")

/** Each entity's unit digest, kept for the relation group it was taken with. */
const digestTable = (cache: ScanCache) => cache.table<Entity, { readonly group: ReadonlyArray<Relation>; readonly digest: Uint8Array }>("unit-digest")

/** A unit's JSON pieces, kept per entity for the relation group they were taken with. */
interface UnitJson {
  readonly group: ReadonlyArray<Relation>
  readonly entity: string
  readonly relations: ReadonlyArray<string>
}

/** The JSON of `entity` and of each relation in `group`, memoised: the digest and the file share them. */
const unitJson = (cache: ScanCache, entity: Entity, group: ReadonlyArray<Relation>): UnitJson => {
  const table = cache.table<Entity, UnitJson>("unit-json")
  const held = table.get(entity)
  if (held !== undefined && held.group === group) return held
  const fresh = { group, entity: JSON.stringify(entity), relations: group.map((relation) => JSON.stringify(relation)) }
  table.set(entity, fresh)
  return fresh
}

/** A snapshot's fields before `entities`. */
export type SnapshotHeader = Omit<Snapshot, "entities" | "relations" | "coverage" | "contentHash">

/** The header text: the snapshot's fields before `entities`, plus the three list lengths. */
export const headerText = (snapshot: Omit<Snapshot, "contentHash">): string =>
  headerTextOf(snapshot, [snapshot.entities.length, snapshot.relations.length, snapshot.coverage.length])

/** `headerText` from the header and the lengths of entities, relations and coverage. */
export const headerTextOf = (header: SnapshotHeader, counts: readonly [number, number, number]): string =>
  JSON.stringify({
    schemaVersion: header.schemaVersion,
    pipelineVersion: header.pipelineVersion,
    analyzerVersions: header.analyzerVersions,
    configurationHash: header.configurationHash,
    sourceRevision: header.sourceRevision,
    compilerOptions: header.compilerOptions,
    counts
  })

interface Canonicalised {
  readonly fields: Omit<Snapshot, "contentHash">
  /** Per entity, in order: the relations leaving it, as they appear in `fields.relations`. */
  readonly groups: ReadonlyArray<ReadonlyArray<Relation>>
}

/** The snapshot without its hash: canonical, sorted, vanished edges dropped, externals derived. */
export const body = (input: AssemblyInput, cache: ScanCache): Canonicalised => {
  const canonicalEntities = cache.table<Entity, Entity>("canonical-entity")
  const canonicalRelations = cache.table<Relation, Relation>("canonical-relation")
  const sortedGroups = cache.table<ReadonlyArray<Relation>, ReadonlyArray<Relation>>("canonical-group")
  const canonical = <A extends object>(table: WeakMap<A, A>, build: (value: A) => A) => (value: A): A =>
    memo(table, value, (input) => {
      const result = build(input)
      table.set(result, result)
      return result
    })
  const entity = canonical(canonicalEntities, Canonical.entity)
  const relation = canonical(canonicalRelations, Canonical.relation)
  // A group already canonical and sorted (a reused unit's) is its own canonical form.
  const group = (relations: ReadonlyArray<Relation>): ReadonlyArray<Relation> =>
    memo(sortedGroups, relations, (input) => {
      const items = input.map(relation)
      const result = isSorted(items) ? items : sortRelations(items)
      sortedGroups.set(result, result)
      return result
    })

  // Per relation list, its external and internal targets: a reused list is not scanned again.
  const targetTable = cache.table<ReadonlyArray<Relation>, { externals: Array<string>; internals: Array<string> }>("targets")
  const targetsOf = (relations: ReadonlyArray<Relation>) =>
    memo(targetTable, relations, (list) => ({
      externals: list.filter((r) => r.to.startsWith("external:")).map((r) => r.to),
      internals: list.filter((r) => INTERNAL.test(r.to)).map((r) => r.to)
    }))
  const units = new Map<string, Unit>()
  for (const unit of input.units) units.set(unit.entity.id, unit)
  for (const unit of input.units) {
    for (const to of targetsOf(unit.relations).externals) {
      if (!units.has(to)) {
        units.set(to, { entity: { id: to, kind: "external", name: to.slice("external:".length), evidence: [] }, relations: [], coverage: [] })
      }
    }
  }
  // The default sort orders strings by UTF-16 code units, like `compareIds`, only faster.
  const ids = [...units.keys()].sort()
  // A relation list checked against this very set of ids needs no second check: the set gets a
  // token, handed down while the ids stay the same from one scan to the next.
  const lastIds = cache.textTable<{ ids: ReadonlyArray<string>; token: object }>("id-set")
  const held = lastIds.get("last")
  const token = held !== undefined && held.ids.length === ids.length && held.ids.every((id, i) => id === ids[i]) ? held.token : {}
  lastIds.set("last", { ids, token })
  const checkedUnder = cache.table<ReadonlyArray<Relation>, object>("checked-under")
  const entities: Array<Entity> = []
  const relations: Array<Relation> = []
  const groups: Array<ReadonlyArray<Relation>> = []
  const coverage: Array<Coverage> = [...input.coverage]
  for (const id of ids) {
    const unit = units.get(id)!
    entities.push(entity(unit.entity))
    const intact = checkedUnder.get(unit.relations) === token ||
      targetsOf(unit.relations).internals.every((to) => units.has(to))
    const kept = intact ? unit.relations : unit.relations.filter((r) => !INTERNAL.test(r.to) || units.has(r.to))
    if (intact) checkedUnder.set(unit.relations, token)
    const items = group(kept)
    groups.push(items)
    for (const item of items) relations.push(item)
    for (const item of unit.coverage) coverage.push(item)
  }
  return { fields: { ...headerFields(input.header), entities, relations, coverage: canonicalCoverage(coverage) }, groups }
}

/**
 * SHA-256 over the concatenated raw SHA-256 digests of the header text, of each entity's unit text
 * in entity order, and of the coverage list's JSON. Unit digests are memoised per (entity, relation
 * group) identity, so a reused unit is not hashed again.
 */
const contentHash = Effect.fnUntraced(function*(canonical: Canonicalised, cache: ScanCache): Effect.fn.Return<string, never, Digest.Digest> {
  const digest = yield* Digest.Digest
  const sha = (text: string) => digest.digest(Digest.sha256, encoder.encode(text))
  const unitDigests = digestTable(cache)
  const { fields, groups } = canonical
  const parts: Array<Uint8Array> = [yield* sha(headerText(fields))]
  for (let index = 0; index < fields.entities.length; index++) {
    const entity = fields.entities[index]!
    const group = groups[index]!
    const held = unitDigests.get(entity)
    if (held !== undefined && held.group === group) {
      parts.push(held.digest)
    } else {
      const json = unitJson(cache, entity, group)
      const fresh = yield* sha([json.entity, ...json.relations].join("\n"))
      unitDigests.set(entity, { group, digest: fresh })
      parts.push(fresh)
    }
  }
  parts.push(yield* sha(JSON.stringify(fields.coverage)))
  const joined = new Uint8Array(parts.length * 32)
  parts.forEach((part, index) => joined.set(part, index * 32))
  return yield* digest.digestHex(Digest.sha256, joined)
})

const SNAPSHOT_KEYS = [
  "schemaVersion", "pipelineVersion", "analyzerVersions", "configurationHash", "sourceRevision", "compilerOptions",
  "entities", "relations", "coverage", "contentHash"
].join(",")

/** A snapshot's JSON cut at its units: the header through `"entities":[`, each entity's and each relation's JSON, then the rest. */
export interface SerializedUnits {
  readonly head: string
  readonly entities: ReadonlyArray<string>
  readonly relations: ReadonlyArray<string>
  readonly tail: string
}

/** Between the last entity and the first relation. */
export const ENTITIES_TO_RELATIONS = `],"relations":[`

/**
 * A snapshot's JSON cut at its units, from the JSON its scan already made for the unit digests;
 * undefined when the cache does not hold that scan's units (the snapshot was not assembled or
 * adopted by it), or they do not describe the snapshot exactly.
 */
export const serializedUnits = (snapshot: Snapshot, cache: ScanCache): SerializedUnits | undefined => {
  const units = unitsOf(snapshot, cache)
  if (units === undefined || Object.keys(snapshot).join(",") !== SNAPSHOT_KEYS) return undefined
  const entities: Array<string> = []
  const relations: Array<string> = []
  for (const entity of snapshot.entities) {
    const unit = units.get(entity.id)
    if (unit === undefined || unit.entity !== entity) return undefined
    const json = unitJson(cache, entity, unit.relations)
    entities.push(json.entity)
    for (const relation of json.relations) relations.push(relation)
  }
  // The groups must be the snapshot's relations exactly, in order, or the pieces do not describe it.
  if (relations.length !== snapshot.relations.length) return undefined
  const { entities: _entities, relations: _relations, coverage, contentHash, ...header } = snapshot
  return {
    head: `${JSON.stringify(header).slice(0, -1)},"entities":[`,
    entities,
    relations,
    tail: `],"coverage":${JSON.stringify(coverage)},"contentHash":${JSON.stringify(contentHash)}}`
  }
}

/**
 * The exact bytes a snapshot is written as: its JSON, keys in schema order, in consecutive parts.
 * Given the cache of the scan that assembled it (or adopted it), the entities and relations are the
 * JSON that scan already made for their digests, one part each: the same bytes as `JSON.stringify`,
 * without making them twice, and without one 30 MB string (and its UTF-8 copy) when written part
 * by part.
 */
export const serializeParts = (snapshot: Snapshot | Omit<Snapshot, "contentHash">, cache?: ScanCache): ReadonlyArray<string> => {
  const pieces = "contentHash" in snapshot && cache !== undefined ? serializedUnits(snapshot, cache) : undefined
  return pieces === undefined ? [JSON.stringify(snapshot)] : joinUnits(pieces)
}

/** The parts of a snapshot's JSON from its pieces: `serializeParts` once they are cut. */
export const joinUnits = (pieces: SerializedUnits): Array<string> => {
  const parts: Array<string> = [pieces.head]
  pieces.entities.forEach((json, i) => parts.push(i === 0 ? json : `,${json}`))
  parts.push(ENTITIES_TO_RELATIONS)
  pieces.relations.forEach((json, i) => parts.push(i === 0 ? json : `,${json}`))
  parts.push(pieces.tail)
  return parts
}

/** `serializeParts` as one string. */
export const serialize = (snapshot: Snapshot | Omit<Snapshot, "contentHash">, cache?: ScanCache): string =>
  serializeParts(snapshot, cache).join("")

/**
 * Each entity of a snapshot this cache assembled or adopted, with its relation group. A group is
 * the same object from one scan to the next for as long as the unit was reused unchanged, so two
 * snapshots' groups compared by identity tell which entities' relations may have moved.
 */
export const unitsOf = (snapshot: Snapshot, cache: ScanCache): PreviousUnits | undefined =>
  cache.table<Snapshot, PreviousUnits>("units").get(snapshot)

/**
 * Takes a snapshot read back from a file `serialize` wrote as its own canonical form: its entities
 * and relation groups are registered as canonical, so a scan offered it reuses them without
 * rebuilding them. Trusts the file: a hand-edited snapshot would be taken as canonical. Single
 * relations are not registered (90,000 weak-map entries on a large repository): assembly looks at
 * them only in a group it must rebuild, which is rare, and rebuilds them equal.
 */
export const adopt = (snapshot: Snapshot, cache: ScanCache): void => {
  const canonicalEntities = cache.table<Entity, Entity>("canonical-entity")
  const sortedGroups = cache.table<ReadonlyArray<Relation>, ReadonlyArray<Relation>>("canonical-group")
  const groups = new Map<string, Array<Relation>>()
  for (const relation of snapshot.relations) {
    const group = groups.get(relation.from)
    if (group === undefined) groups.set(relation.from, [relation])
    else group.push(relation)
  }
  const byId = new Map<string, { readonly entity: Entity; readonly relations: ReadonlyArray<Relation> }>()
  for (const entity of snapshot.entities) {
    const group = groups.get(entity.id) ?? []
    canonicalEntities.set(entity, entity)
    sortedGroups.set(group, group)
    byId.set(entity.id, { entity, relations: group })
  }
  cache.table<Snapshot, PreviousUnits>("units").set(snapshot, byId)
}

/** Each entity's unit digest, concatenated in entity order, when the cache holds them all. */
export const unitDigests = (snapshot: Snapshot, cache: ScanCache): Uint8Array | undefined => {
  const units = unitsOf(snapshot, cache)
  const digests = digestTable(cache)
  if (units === undefined) return undefined
  const joined = new Uint8Array(snapshot.entities.length * 32)
  for (let index = 0; index < snapshot.entities.length; index++) {
    const entity = snapshot.entities[index]!
    const held = digests.get(entity)
    if (held === undefined || held.group !== units.get(entity.id)?.relations) return undefined
    joined.set(held.digest, index * 32)
  }
  return joined
}

/**
 * Hands an adopted snapshot's units what an earlier scan knew of them: their digests (as
 * `unitDigests` gave them) and, if given, their JSON (as `serializedUnits` cut it), so a scan that
 * reuses them does not hash them, or serialise them, again. The caller vouches that these describe
 * this very snapshot; anything of the wrong size is ignored.
 */
export const rememberUnits = (
  snapshot: Snapshot,
  cache: ScanCache,
  known: { readonly digests: Uint8Array; readonly entities?: ReadonlyArray<string>; readonly relations?: ReadonlyArray<string> }
): void => {
  const units = unitsOf(snapshot, cache)
  if (units === undefined || known.digests.length !== snapshot.entities.length * 32) return
  const withJson = known.entities?.length === snapshot.entities.length && known.relations?.length === snapshot.relations.length
  const digests = digestTable(cache)
  const json = cache.table<Entity, UnitJson>("unit-json")
  let next = 0
  snapshot.entities.forEach((entity, index) => {
    const group = units.get(entity.id)!.relations
    digests.set(entity, { group, digest: known.digests.subarray(index * 32, index * 32 + 32) })
    if (withJson) json.set(entity, { group, entity: known.entities![index]!, relations: known.relations!.slice(next, next + group.length) })
    next += group.length
  })
}

export const assemble = Effect.fnUntraced(function*(input: AssemblyInput, cache: ScanCache): Effect.fn.Return<Snapshot, never, Digest.Digest> {
  const canonical = body(input, cache)
  const snapshot: Snapshot = { ...canonical.fields, contentHash: yield* contentHash(canonical, cache) }
  // The next scan offered this snapshot finds its units here instead of regrouping 100,000 relations.
  const byId = new Map<string, { readonly entity: Entity; readonly relations: ReadonlyArray<Relation> }>()
  snapshot.entities.forEach((entity, index) => byId.set(entity.id, { entity, relations: canonical.groups[index]! }))
  cache.table<Snapshot, PreviousUnits>("units").set(snapshot, byId)
  return snapshot
})
