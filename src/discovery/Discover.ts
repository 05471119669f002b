/**
 * The discover dataflow: list the tree, read the manifests and tsconfigs that define the module
 * universe, stream modules and then documents through their analyzers with bounded concurrency
 * (each one reused from the previous snapshot where reuse cannot change the answer), and assemble
 * one deterministic snapshot. Progress is reported after every file.
 */
import { Effect, Option, Queue, Stream } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { Coverage, Entity, Relation, Snapshot } from "../domain/Snapshot.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import { areaGraph, areaPaths } from "./Areas.ts"
import { assemble } from "./Assemble.ts"
import { compareStrings } from "./Canonical.ts"
import { resolveCompilerOptions } from "./CompilerOptions.ts"
import { scanConfigFiles } from "./ConfigScan.ts"
import * as DiscoveryConfig from "./DiscoveryConfig.ts"
import { makeDocumentResolver } from "./DocumentResolution.ts"
import type { DocumentResolution, ResolutionContext } from "./DocumentResolution.ts"
import { scanDocument } from "./DocumentScan.ts"
import type { Analyzer, DocumentReference } from "./FileAnalysis.ts"
import { moduleUniverseKey, resolutionKey, symbolTable, workspacePackage } from "./Fingerprints.ts"
import type { HashCache } from "./HashCache.ts"
import { sha256Text } from "./Hashing.ts"
import type { ModuleUniverse } from "./ModuleResolution.ts"
import { makeResolver } from "./ModuleResolution.ts"
import { notesToCoverage, scanModule } from "./ModuleScan.ts"
import type { FileOutcome } from "./ModuleScan.ts"
import { makeIndex } from "./NearMiss.ts"
import type { NearMissIndex } from "./NearMiss.ts"
import { containsRelations, dependencyRelations, packageEntities } from "./Packages.ts"
import { basename, extname } from "./Paths.ts"
import type { Completed, DiscoveryEvent, Phase, Progress } from "./Progress.ts"
import * as Registry from "./Registry.ts"
import * as Reuse from "./Reuse.ts"
import type { ListedFile } from "./Walk.ts"
import { walk } from "./Walk.ts"

/** Bumped whenever assembly or resolution would turn the same facts into a different snapshot. */
export const PIPELINE_VERSION = "discover/1"

export interface DiscoverInput {
  readonly config?: Partial<DiscoveryConfig.DiscoveryConfig> | undefined
  /** An offer: reused only where reuse cannot change the answer. */
  readonly previous?: Snapshot | undefined
  /** Lets a long-lived process skip reading files whose stamp it has seen before. */
  readonly cache?: HashCache | undefined
  readonly registry?: Registry.Registry | undefined
}

type Requirements = SourceTree | Digest.Digest

const lazy = <A>(make: () => A): () => A => {
  let value: A | undefined
  return () => (value ??= make())
}

const lazyNearMiss = (candidates: () => ReadonlyArray<string>): NearMissIndex => {
  const index = lazy(() => makeIndex(candidates()))
  return { above: (query) => index().above(query), match: (query) => index().match(query) }
}

const unanalysedNote = (counts: ReadonlyMap<string, number>): Coverage => {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0)
  const parts = [...counts.keys()].sort(compareStrings).map((extension) => `${extension} ${counts.get(extension)}`)
  return {
    analyzer: "repository",
    scope: "unanalysed-files",
    status: "not-analyzed",
    reason: `${total} listed files have no analyzer: ${parts.join(", ")}`
  }
}

interface RunCounts {
  readonly analysed: number
  readonly parsed: number
  readonly reusedModules: number
  readonly reusedDocuments: number
}

/** The one coverage entry that describes the run rather than the repository. */
const runNote = (
  offer: Reuse.Offer,
  counts: RunCounts,
  moduleUniverseUnchanged: boolean,
  resolutionUnchanged: boolean
): Coverage => {
  const entry = (status: Coverage["status"], reason: string): Coverage => ({
    analyzer: "repository",
    scope: "reused-entities",
    status,
    reason
  })
  if (offer._tag === "None") {
    return entry("not-applicable", `no previous snapshot offered; parsed ${counts.parsed} of ${counts.analysed} files`)
  }
  if (offer._tag === "Refused") {
    return entry("partial", `previous snapshot refused: ${offer.reason}; parsed ${counts.parsed} of ${counts.analysed} files`)
  }
  const reused = counts.reusedModules + counts.reusedDocuments
  const why: Array<string> = []
  if (!moduleUniverseUnchanged) {
    why.push(`the module universe changed, so the imports of ${counts.reusedModules} reused modules were re-resolved`)
  }
  if (!resolutionUnchanged) why.push("the resolution universe changed, so no document was reused")
  return entry(
    why.length === 0 ? "complete" : "partial",
    `reused ${reused} entities (${counts.reusedModules} modules, ${counts.reusedDocuments} documents) and parsed ${counts.parsed} of ${counts.analysed} files` +
      (why.length === 0 ? "; nothing reusable was refused" : `; ${why.join("; ")}`)
  )
}

export const discoverWith = (
  input: DiscoverInput,
  report: (progress: Progress) => Effect.Effect<void>
): Effect.Effect<Snapshot, DiscoveryError, Requirements> =>
  Effect.gen(function*() {
    const config = yield* DiscoveryConfig.make(input.config)
    const registry = input.registry ?? Registry.standard
    const configurationHash = yield* sha256Text(DiscoveryConfig.hashedFields(config))
    const offer = Reuse.offer(input.previous, {
      pipelineVersion: PIPELINE_VERSION,
      analyzerVersions: registry.versions,
      configurationHash
    })
    const previous = offer._tag === "Accepted" ? offer.index : undefined
    const counts = { seen: 0, done: 0, total: 0, parsed: 0, reused: 0, reusedModules: 0, reusedDocuments: 0 }
    const progress = (phase: Phase): Effect.Effect<void> =>
      report({ _tag: "Progress", phase, seen: counts.seen, done: counts.done, total: counts.total, parsed: counts.parsed, reused: counts.reused })
    const tally = <E>(phase: Phase, outcome: FileOutcome<E>): Effect.Effect<void> => {
      counts.done++
      if (outcome.parsed) counts.parsed++
      if (outcome.reused) counts.reused++
      return progress(phase)
    }

    yield* progress("listing")
    const listing = yield* walk(config)
    counts.seen = listing.files.length
    const coverage: Array<Coverage> = [...listing.coverage]
    const modules: Array<ListedFile> = []
    const documents: Array<ListedFile> = []
    const configFiles: Array<{ file: ListedFile; analyzer: Analyzer }> = []
    const unanalysed = new Map<string, number>()
    let moduleAnalyzer: Analyzer | undefined
    let documentAnalyzer: Analyzer | undefined
    for (const file of listing.files) {
      const analyzer = registry.analyzerFor(file.path)
      const kind = analyzer === undefined || !["typescript", "markdown", "manifest", "tsconfig"].includes(analyzer.id)
        ? undefined
        : analyzer
      if (kind === undefined) {
        const extension = extname(file.path) || basename(file.path)
        unanalysed.set(extension, (unanalysed.get(extension) ?? 0) + 1)
        continue
      }
      if (file.size > config.maxFileBytes) {
        coverage.push({
          analyzer: kind.id,
          scope: file.path,
          status: "skipped-size",
          reason: `${file.size} bytes, over config.maxFileBytes (${config.maxFileBytes}); not read`
        })
        continue
      }
      if (kind.id === "typescript") {
        moduleAnalyzer = kind
        modules.push(file)
      } else if (kind.id === "markdown") {
        documentAnalyzer = kind
        documents.push(file)
      } else {
        configFiles.push({ file, analyzer: kind })
      }
    }
    if (unanalysed.size > 0) coverage.push(unanalysedNote(unanalysed))
    counts.total = modules.length + documents.length + configFiles.length

    yield* progress("configuration")
    const configScan = yield* scanConfigFiles(configFiles, config.concurrency)
    counts.done += configFiles.length
    counts.parsed += configFiles.length
    coverage.push(...configScan.coverage)
    const options = resolveCompilerOptions(configScan.configFiles)
    for (const [path, notes] of options.notes) coverage.push(...notesToCoverage("tsconfig", path, notes))
    const packages = packageEntities(configScan.manifests)
    const universe: ModuleUniverse = {
      modules: new Set(modules.map((file) => file.path)),
      packages: packages.map(workspacePackage),
      compilerOptions: options.options
    }
    const moduleKey = moduleUniverseKey(universe)
    const moduleUniverseUnchanged = previous !== undefined && previous.moduleKey === moduleKey
    const resolver = makeResolver(universe)

    yield* progress("modules")
    const moduleOutcomes = moduleAnalyzer === undefined ? [] : yield* Stream.fromIterable(modules).pipe(
      Stream.mapEffect((file) =>
        scanModule(file, {
          analyzer: moduleAnalyzer!,
          resolve: resolver,
          previous,
          universeUnchanged: moduleUniverseUnchanged,
          cache: input.cache
        }), { concurrency: config.concurrency }),
      Stream.tap((outcome) => {
        if (outcome.reused) counts.reusedModules++
        return tally("modules", outcome)
      }),
      Stream.runCollect
    )

    const moduleEntities = moduleOutcomes.map((outcome) => outcome.entity)
    const symbols = symbolTable(moduleEntities)
    const areas = areaPaths(universe.modules, config.areaDepth)
    const documentPaths = documents.map((file) => file.path)
    const resolutionUnchanged = previous !== undefined &&
      previous.resolutionKey === resolutionKey(moduleKey, documentPaths, areas, symbols)
    const documentResolver = lazy(() => {
      const byStem = new Map<string, Array<string>>()
      for (const path of [...documentPaths].sort(compareStrings)) {
        const stem = basename(path).replace(/\.mdx?$/i, "").toLowerCase()
        const list = byStem.get(stem)
        if (list === undefined) byStem.set(stem, [path])
        else list.push(path)
      }
      const context: ResolutionContext = {
        modules: universe.modules,
        documents: new Set(documentPaths),
        areas,
        packages: new Map(
          packages.filter((p) => p.name !== null && p.id === `package:${p.name}`).map((p) => [p.name!, p.id])
        ),
        symbols,
        documentsByStem: byStem,
        nearMiss: lazyNearMiss(() => [...universe.modules, ...documentPaths, ...areas])
      }
      return makeDocumentResolver(context)
    })
    const resolveDocument = (path: string, references: ReadonlyArray<DocumentReference>): DocumentResolution =>
      documentResolver()(path, references)

    yield* progress("documents")
    const documentOutcomes = documentAnalyzer === undefined ? [] : yield* Stream.fromIterable(documents).pipe(
      Stream.mapEffect((file) =>
        scanDocument(file, {
          analyzer: documentAnalyzer!,
          resolve: resolveDocument,
          previous,
          universeUnchanged: resolutionUnchanged,
          cache: input.cache
        }), { concurrency: config.concurrency }),
      Stream.tap((outcome) => {
        if (outcome.reused) counts.reusedDocuments++
        return tally("documents", outcome)
      }),
      Stream.runCollect
    )

    yield* progress("assembling")
    const area = areaGraph(universe.modules, config.areaDepth)
    const entities: Array<Entity> = [...moduleEntities, ...packages, ...area.entities]
    const relations: Array<Relation> = [
      ...dependencyRelations(configScan.manifests, packages),
      ...containsRelations(packages, universe.modules),
      ...area.relations
    ]
    for (const outcome of [...moduleOutcomes, ...documentOutcomes]) {
      relations.push(...outcome.relations)
      coverage.push(...outcome.coverage)
    }
    for (const outcome of documentOutcomes) entities.push(outcome.entity)
    coverage.push(runNote(offer, {
      analysed: counts.total,
      parsed: counts.parsed,
      reusedModules: counts.reusedModules,
      reusedDocuments: counts.reusedDocuments
    }, moduleUniverseUnchanged, resolutionUnchanged))
    const tree = yield* SourceTree
    const revision = yield* tree.revision
    return yield* assemble({
      pipelineVersion: PIPELINE_VERSION,
      analyzerVersions: registry.versions,
      configurationHash,
      sourceRevision: Option.getOrNull(revision),
      compilerOptions: options.options,
      entities,
      relations,
      coverage
    })
  })

/** The snapshot of the tree the `SourceTree` in context holds. */
export const discover = (input: DiscoverInput = {}): Effect.Effect<Snapshot, DiscoveryError, Requirements> =>
  discoverWith(input, () => Effect.void)

/** The same scan as a stream: progress events, then one `Completed` event carrying the snapshot. */
export const discoverEvents = (input: DiscoverInput = {}): Stream.Stream<DiscoveryEvent, DiscoveryError, Requirements> =>
  Stream.callback<DiscoveryEvent, DiscoveryError, Requirements>((queue) =>
    discoverWith(input, (progress) => Effect.asVoid(Queue.offer(queue, progress))).pipe(
      Effect.flatMap((snapshot) => Queue.offer(queue, { _tag: "Completed", snapshot } satisfies Completed)),
      Effect.andThen(Queue.end(queue))
    )
  )
