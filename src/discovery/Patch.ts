/**
 * A refresh that patches the previous snapshot instead of assembling a new one. When the tree
 * still holds exactly the files the scan that made it read, and the only ones that moved are
 * documents and modules that still declare the names they did, a full scan would take every other
 * unit as it stands (both universes are unchanged), so the new snapshot is the old one with those
 * files' units, the run's coverage and the header replaced. The old snapshot stays in its serialised
 * pieces (`StoredSnapshot`); only the units a patch touches, and the handful it looks up on the
 * way, are parsed. That is what lets a one-shot process refresh a 10,000-module repository without
 * loading its whole snapshot.
 *
 * Anything else (a file added or gone, a configuration file changed, a changed export, an external
 * package imported or dropped) answers undefined and the caller runs the full scan.
 * A patch must equal that scan byte for byte; test/embedded/refresh.test.ts holds it to that.
 */
import { Effect, Option } from "effect"
import * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { Coverage, DocumentEntity, Entity, ModuleEntity, PackageEntity, Relation } from "../domain/Snapshot.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import { AnalyzerPool } from "../ports/AnalyzerPool.ts"
import { areaPaths } from "./Areas.ts"
import { canonicalCoverage, canonicalGroup, headerTextOf, INTERNAL, type SnapshotHeader } from "./Assemble.ts"
import { declarerResolver, exportShape, followCalls } from "./CallTargets.ts"
import * as Canonical from "./Canonical.ts"
import { partition, runNote } from "./Discover.ts"
import { PIPELINE_VERSION } from "./PipelineVersion.ts"
import * as DiscoveryConfig from "./DiscoveryConfig.ts"
import { treeResolver } from "./DocumentResolution.ts"
import { isUnread } from "./FileContent.ts"
import { redactor } from "./SecretScan.ts"
import { analysedDocument, ANALYZER_ID, readDocument, reuseDocument } from "./DocumentScan.ts"
import type { Analyzer } from "./FileAnalysis.ts"
import type { Keys } from "./Fingerprints.ts"
import { declaredNames, moduleUniverseKey, symbolTable, workspacePackage } from "./Fingerprints.ts"
import { sha256Text } from "../source/Hashing.ts"
import { makeResolver } from "./ModuleResolution.ts"
import { type FileOutcome, scanModule } from "./ModuleScan.ts"
import { standard } from "./StandardAnalyzers.ts"
import * as Reuse from "./Reuse.ts"
import type { ScanCache } from "./ScanCache.ts"
import type { ListedFile, Listing } from "./Walk.ts"
import { compareIds } from "../domain/Ranking.ts"

/** A snapshot kept as the pieces of its canonical JSON (see Assemble's `serializedUnits`). */
export interface StoredSnapshot {
  readonly header: SnapshotHeader
  readonly coverage: ReadonlyArray<Coverage>
  readonly contentHash: string
  readonly entities: number
  readonly relations: number
  /** The JSON of the entity at `index`, in id order. */
  readonly entityJson: (index: number) => string
  /** The JSON of the relation at `index`, in snapshot order (grouped by `from`, in entity order). */
  readonly relationJson: (index: number) => string
  /** The unit digest of the entity at `index`. */
  readonly digest: (index: number) => Uint8Array
  /** The fingerprints of the scan that produced it. */
  readonly keys: Keys
}

/** One file's unit in the patched snapshot, where the entity at `index` and its relation group were. */
export interface PatchedUnit {
  readonly index: number
  /** The relations it replaces: `[start, end)` in the stored snapshot's relations. */
  readonly replaces: readonly [number, number]
  readonly entity: ModuleEntity | DocumentEntity
  readonly group: ReadonlyArray<Relation>
  readonly entityJson: string
  readonly relationJson: ReadonlyArray<string>
  readonly digest: Uint8Array
}

export interface Patched {
  readonly header: SnapshotHeader
  /** By index. */
  readonly units: ReadonlyArray<PatchedUnit>
  readonly relations: number
  readonly coverage: ReadonlyArray<Coverage>
  readonly contentHash: string
  readonly keys: Keys
}

/**
 * Most files a patch takes. Each costs a parse and a few look-ups; past a few dozen the full scan,
 * which reuses everything else wholesale, is as quick and simpler to trust.
 */
export const MAX_PATCHED_FILES = 32

/** First index in `[0, count)` where `past` holds, `past` being false then true along the range. */
const firstWhere = (count: number, past: (index: number) => boolean): number => {
  let low = 0
  let high = count
  while (low < high) {
    const middle = (low + high) >>> 1
    if (past(middle)) high = middle
    else low = middle + 1
  }
  return low
}

const externalTargets = (group: ReadonlyArray<Relation>): string =>
  [...new Set(group.filter((relation) => relation.to.startsWith("external:")).map((relation) => relation.to))].sort().join("\n")

/** The stored snapshot as look-ups that parse only what they touch. */
const lookups = (stored: StoredSnapshot) => {
  const parsed = new Map<number, Entity>()
  const entityAt = (index: number): Entity => {
    let entity = parsed.get(index)
    if (entity === undefined) {
      entity = JSON.parse(stored.entityJson(index)) as Entity
      parsed.set(index, entity)
    }
    return entity
  }
  const fromAt = (index: number): string => (JSON.parse(stored.relationJson(index)) as Relation).from
  // Ids sort as the default sort orders strings, by UTF-16 code units, which `<` compares alike.
  const indexOf = (id: string): number | undefined => {
    const index = firstWhere(stored.entities, (i) => entityAt(i).id >= id)
    return index < stored.entities && entityAt(index).id === id ? index : undefined
  }
  const groupOf = (id: string): readonly [number, number] => [
    firstWhere(stored.relations, (i) => fromAt(i) >= id),
    firstWhere(stored.relations, (i) => fromAt(i) > id)
  ]
  const relationsIn = ([start, end]: readonly [number, number]): Array<Relation> =>
    Array.from({ length: end - start }, (_, i) => JSON.parse(stored.relationJson(start + i)) as Relation)
  const relationsFrom = (id: string): Array<Relation> => relationsIn(groupOf(id))
  /** Entities whose ids start with `prefix`, which sort together. */
  const withPrefix = (prefix: string): Array<Entity> => {
    const start = firstWhere(stored.entities, (i) => entityAt(i).id >= prefix)
    const found: Array<Entity> = []
    for (let index = start; index < stored.entities && entityAt(index).id.startsWith(prefix); index++) found.push(entityAt(index))
    return found
  }
  return { entityAt, indexOf, groupOf, relationsIn, relationsFrom, withPrefix }
}

/** An analyzer as it takes a file analysed on its own: a patch moves a few. */
const alone = (analyzer: Analyzer): Analyzer =>
  analyzer.analyzeAlone === undefined ? analyzer : { ...analyzer, analyze: analyzer.analyzeAlone }

export interface PatchInput {
  readonly stored: StoredSnapshot
  /** The tree as listed now, under the same configuration. */
  readonly listing: Listing
  readonly config?: Partial<DiscoveryConfig.DiscoveryConfig> | undefined
  /**
   * Seeded with exactly the files, stamps and hashes of the scan that produced `stored` (the scan
   * cache the index keeps beside it); the patch brings the moved files' entries up to date.
   */
  readonly cache: ScanCache
}

/** The snapshot a full scan of the tree would produce, as `stored` patched; undefined when a patch cannot say. */
export const patch = Effect.fnUntraced(function*(input: PatchInput): Effect.fn.Return<Patched | undefined, DiscoveryError, SourceTree | Digest.Digest> {
    const { stored, listing, cache } = input
    const config = yield* DiscoveryConfig.make(input.config)
    const configurationHash = yield* sha256Text(DiscoveryConfig.hashedFields(config))
    const expected = { pipelineVersion: PIPELINE_VERSION, analyzerVersions: standard.versions, configurationHash }
    if (Reuse.refusal(stored.header, expected) !== undefined || stored.entities === 0) return undefined
    const { modules, documents, configFiles, coverage: partitionCoverage, moduleAnalyzer } = partition(listing.files, config)

    // Exactly the files the stored scan read, and only modules and documents moved.
    if (cache.entryCount() !== modules.length + documents.length + configFiles.length) return undefined
    /** Whether `file` moved since the stored scan; undefined when that scan did not read it as it is listed. */
    const hasMoved = (file: ListedFile): boolean | undefined => {
      const stamp = cache.stampOf(file.path)
      if (stamp === undefined) return undefined
      if (file.stamp === stamp) return false
      // A file without a stamp is one the scan cache cannot remember: the full scan leaves it out.
      return file.stamp === "" ? undefined : true
    }
    const movedModules: Array<ListedFile> = []
    const movedDocuments: Array<ListedFile> = []
    for (const [files, moved] of [[modules, movedModules], [documents, movedDocuments]] as const) {
      for (const file of files) {
        const verdict = hasMoved(file)
        if (verdict === undefined) return undefined
        if (verdict) moved.push(file)
      }
    }
    // A configuration file that moved may move every module's resolution: the full scan decides.
    for (const { file } of configFiles) if (hasMoved(file) !== false) return undefined
    const modulePaths = new Set(modules.map((file) => file.path))
    const moved = movedModules.length + movedDocuments.length
    if (moved === 0 || moved > MAX_PATCHED_FILES) return undefined

    // The module universe, from the listing and the stored packages and compiler options.
    const look = lookups(stored)
    const universe = {
      modules: modulePaths,
      packages: look.withPrefix("package:").filter((entity): entity is PackageEntity => entity.kind === "package").map(workspacePackage),
      compilerOptions: stored.header.compilerOptions
    }
    if (moduleUniverseKey(universe) !== stored.keys.moduleKey) return undefined
    let coverageByScope: Map<string, Array<Coverage>> | undefined
    const previous: Reuse.PreviousIndex = {
      entity: (id) => {
        const index = look.indexOf(id)
        return index === undefined ? undefined : look.entityAt(index)
      },
      relationsFrom: look.relationsFrom,
      coverageOf: (path, analyzer) => {
        coverageByScope ??= Map.groupBy(stored.coverage, (entry) => entry.scope)
        return coverageByScope.get(path)?.filter((entry) => entry.analyzer === analyzer) ?? []
      },
      moduleKey: stored.keys.moduleKey,
      resolutionKey: stored.keys.resolutionKey
    }
    // A tree of documents alone has no module analyzer, and no module to scan with one.
    const redact = redactor(config.unredacted)
    const context = moduleAnalyzer && { analyzerOf: (path: string) => alone(standard.analyzerFor(path)!), resolve: makeResolver(universe), previous, universeUnchanged: true, cache, redact }

    const digest = yield* Digest.Digest
    const encoder = new TextEncoder()
    const units: Array<PatchedUnit> = []
    const unitCoverage: Array<Coverage> = []
    let parsed = 0
    let notReused = 0
    let documentsNotReused = 0
    /** The unit of an outcome, where the entity of the same id was; undefined when a patch cannot place it. */
    const place = Effect.fnUntraced(function*(outcome: FileOutcome): Effect.fn.Return<PatchedUnit | undefined> {
      const entity = outcome.unit.entity
      const index = look.indexOf(entity.id)
      if (index === undefined || look.entityAt(index).kind !== entity.kind || (entity.kind !== "module" && entity.kind !== "document")) return undefined
      // As assembly keeps them: a relation to an internal entity the tree does not hold is dropped.
      const group = canonicalGroup(outcome.unit.relations.filter((relation) => !INTERNAL.test(relation.to) || look.indexOf(relation.to) !== undefined))
      const replaces = look.groupOf(entity.id)
      // External entities exist for as long as some relation names them; a patch cannot tell.
      if (externalTargets(group) !== externalTargets(look.relationsIn(replaces))) return undefined
      const canonical = Canonical.entity(entity) as ModuleEntity | DocumentEntity
      const entityJson = JSON.stringify(canonical)
      const relationJson = group.map((relation) => JSON.stringify(relation))
      return {
        index,
        replaces,
        entity: canonical,
        group,
        entityJson,
        relationJson,
        digest: yield* digest.digest(Digest.sha256, encoder.encode([entityJson, ...relationJson].join("\n")))
      }
    })
    const byPath = (a: ListedFile, b: ListedFile) => compareIds(a.path, b.path)
    const newModules = new Map<string, ModuleEntity>()
    // Calls are followed through re-exports over the stored modules: a moved one exports as it did
    // (checked below), so the tree the full scan would follow them over is the same.
    const declarerOf = declarerResolver((id) => {
      const index = look.indexOf(id)
      const entity = index === undefined ? undefined : look.entityAt(index)
      return entity?.kind === "module" ? { exports: entity.exports, relations: look.relationsFrom(id) } : undefined
    })
    for (const file of movedModules.sort(byPath)) {
      // A module to scan means the partition found the module analyzer, so there is a context.
      const outcome = yield* scanModule(file, context!)
      // A file that cannot be read now leaves an entity out: the full scan says so.
      if (isUnread(outcome)) return undefined
      if (outcome.parsed) parsed++
      if (!outcome.reused) notReused++
      const prior = previous.entity(`module:${file.path}`)
      const entity = outcome.unit.entity
      // Another declared name would move the resolution universe: every document is resolved again.
      if (prior?.kind !== "module" || entity.kind !== "module" || declaredNames(prior).join(",") !== declaredNames(entity).join(",")) return undefined
      // Another re-export may move the calls of modules the patch does not touch.
      if (exportShape({ exports: prior.exports, relations: look.relationsFrom(prior.id) }) !== exportShape({ exports: entity.exports, relations: outcome.unit.relations })) {
        return undefined
      }
      const followed = { ...outcome.unit, relations: followCalls(entity.id, outcome.unit.relations, declarerOf) }
      const unit = yield* place({ ...outcome, unit: followed })
      if (unit === undefined) return undefined
      units.push(unit)
      unitCoverage.push(...outcome.unit.coverage)
      newModules.set(entity.id, entity)
    }
    // Documents resolve against the tree as the full scan's resolver sees it; the symbol table,
    // which needs every module, only once a document's inline code is looked up as a symbol.
    const areas = areaPaths(modulePaths, config.areaDepth)
    const resolveDocument = treeResolver({
      modules: modulePaths,
      documents: documents.map((file) => file.path),
      areas,
      packages: universe.packages,
      symbols: () =>
        symbolTable(look.withPrefix("module:").map((entity) => newModules.get(entity.id) ?? entity).filter((entity): entity is ModuleEntity => entity.kind === "module"))
    })
    const pool = yield* AnalyzerPool
    for (const file of movedDocuments.sort(byPath)) {
      const prepared = yield* readDocument(file, previous, cache, redact)
      if (prepared._tag === "Unread") return undefined
      const outcome = prepared.prior !== undefined
        ? reuseDocument(prepared.prior, previous)
        : analysedDocument(
          prepared,
          prepared.binary || prepared.text === undefined ? undefined : (yield* pool.analyzeAll(ANALYZER_ID, [{ path: file.path, text: prepared.text }]))[0],
          resolveDocument
        )
      if (outcome.parsed) parsed++
      if (!outcome.reused) documentsNotReused++
      const unit = yield* place(outcome)
      if (unit === undefined) return undefined
      units.push(unit)
      unitCoverage.push(...outcome.unit.coverage)
    }
    units.sort((a, b) => a.index - b.index)

    // Coverage as the full scan gathers it: the listing's and the partition's afresh, the run's note
    // anew, the moved modules' own; the rest (configuration, every other file) as it was.
    const movedPaths = new Set([...movedModules, ...movedDocuments].map((file) => file.path))
    const kept = stored.coverage.filter((entry) =>
      entry.analyzer !== "source-tree" && entry.analyzer !== "repository" && entry.status !== "skipped-size" &&
      !((entry.analyzer === standard.analyzerFor(entry.scope)?.id || entry.analyzer === ANALYZER_ID) && movedPaths.has(entry.scope))
    )
    const note = runNote({ _tag: "Accepted", index: previous }, {
      analysed: modules.length + documents.length + configFiles.length,
      parsed: configFiles.length + parsed,
      reusedModules: modules.length - notReused,
      reusedDocuments: documents.length - documentsNotReused
    }, true, true)
    const coverage = canonicalCoverage([...listing.coverage, ...partitionCoverage, ...kept, ...unitCoverage, note])

    const tree = yield* SourceTree
    const header: SnapshotHeader = { ...stored.header, sourceRevision: Option.getOrNull(yield* tree.revision) }
    const relations = units.reduce((count, unit) => count + unit.group.length - (unit.replaces[1] - unit.replaces[0]), stored.relations)
    const parts = new Uint8Array((stored.entities + 2) * 32)
    parts.set(yield* digest.digest(Digest.sha256, encoder.encode(headerTextOf(header, [stored.entities, relations, coverage.length]))), 0)
    let next = 0
    for (let index = 0; index < stored.entities; index++) {
      const unit = units[next]?.index === index ? units[next++] : undefined
      parts.set(unit?.digest ?? stored.digest(index), 32 * (index + 1))
    }
    parts.set(yield* digest.digest(Digest.sha256, encoder.encode(JSON.stringify(coverage))), 32 * (stored.entities + 1))
    return {
      header,
      units,
      relations,
      coverage,
      contentHash: yield* digest.digestHex(Digest.sha256, parts),
      keys: stored.keys
    } satisfies Patched
  })
