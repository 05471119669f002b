/**
 * The discover dataflow: list the tree, read the manifests and tsconfigs that define the module
 * universe, then stream modules through their analyzer with bounded concurrency while documents are
 * read and parsed alongside, resolve documents once every module's exports are known, and assemble
 * one deterministic snapshot. A file is reused from the previous snapshot wherever reuse cannot
 * change the answer. Progress is reported after every file.
 */
import { Deferred, Effect, Exit, Fiber, Option, Queue, Stream } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { Coverage, ModuleEntity, Snapshot } from "../domain/Snapshot.ts"
import { SourceTree } from "../ports/SourceTree.ts"
import { AnalyzerPool } from "../ports/AnalyzerPool.ts"
import { areaPaths, areaUnits } from "./Areas.ts"
import type { Unit } from "./Assemble.ts"
import { assemble } from "./Assemble.ts"
import { followUnitCalls } from "./CallTargets.ts"
import { resolveCompilerOptions } from "./CompilerOptions.ts"
import { scanConfigFiles } from "./ConfigScan.ts"
import * as DiscoveryConfig from "./DiscoveryConfig.ts"
import { treeResolver } from "./DocumentResolution.ts"
import type { PreparedDocument } from "./DocumentScan.ts"
import { isUnread, type Unread } from "./FileContent.ts"
import { analysedDocument, ANALYZER_ID, prepareDocument, readDocument, reuseDocument } from "./DocumentScan.ts"
import type { Analysis, Analyzer } from "./FileAnalysis.ts"
import type { Keys } from "./Fingerprints.ts"
import { declaredNames, keysOfSnapshot, moduleUniverseKey, resolutionKey, snapshotKeys, symbolTable, workspacePackage } from "./Fingerprints.ts"
import { sha256Text } from "../source/Hashing.ts"
import type { ModuleUniverse } from "./ModuleResolution.ts"
import { makeResolver } from "./ModuleResolution.ts"
import { languageById } from "../languages/Languages.ts"
import type { UnitStash } from "../languages/UnitStash.ts"
import { NEVER_INDEXED_NAMES } from "../languages/TextFiles.ts"
import type { FileOutcome, ModuleScanContext, ModuleText } from "./ModuleScan.ts"
import { analysedModule, isModuleText, notesToCoverage, readModule, reuseModuleUnread, scanModule } from "./ModuleScan.ts"
import { lazy } from "./Lazy.ts"
import { packageEntities, packageUnits } from "./Packages.ts"
import { basename, extname } from "../source/Paths.ts"
import type { Completed, DiscoveryEvent, Phase, Progress } from "./Progress.ts"
import { standard } from "./StandardAnalyzers.ts"
import * as Reuse from "./Reuse.ts"
import { PIPELINE_VERSION } from "./PipelineVersion.ts"
import * as ScanCache from "./ScanCache.ts"
import { redactor } from "./SecretScan.ts"
import type { ListedFile, Listing } from "./Walk.ts"
import { walk } from "./Walk.ts"
import { compareIds } from "../domain/Ranking.ts"

export { PIPELINE_VERSION }

export interface DiscoverInput {
  readonly config?: Partial<DiscoveryConfig.DiscoveryConfig> | undefined
  /** An offer: reused only where reuse cannot change the answer. */
  readonly previous?: Snapshot | undefined
  /** Carried across scans by a long-lived process; never changes the snapshot. */
  readonly cache?: ScanCache.ScanCache | undefined
  /** A listing of the tree under the same configuration, made just before by the caller; listed again when absent. */
  readonly listing?: Listing | undefined
  /** Where the units of each file parsed with tree-sitter go, for a chunker that would parse it again; never changes the snapshot. */
  readonly units?: UnitStash | undefined
}

type Requirements = SourceTree | Digest.Digest

/**
 * Tree-sitter files read before they are handed to the analyzer pool together: enough for the
 * pool to share between threads, few enough that only one batch of texts is held at a time.
 */
export const POOLED_MODULE_BATCH = 400

export { snapshotKeys }

const unanalysedNote = (counts: ReadonlyMap<string, number>): Coverage => {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0)
  const parts = [...counts.keys()].sort(compareIds).map((extension) => `${extension} ${counts.get(extension)}`)
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
export const runNote = (offer: Reuse.Offer, counts: RunCounts, moduleUnchanged: boolean, resolutionUnchanged: boolean): Coverage => {
  const entry = (status: Coverage["status"], reason: string): Coverage => ({
    analyzer: "repository",
    scope: "reused-entities",
    status,
    reason
  })
  const parsed = `parsed ${counts.parsed} of ${counts.analysed} files`
  if (offer._tag === "None") return entry("not-applicable", `no previous snapshot offered; ${parsed}`)
  if (offer._tag === "Refused") return entry("partial", `previous snapshot refused: ${offer.reason}; ${parsed}`)
  const why: Array<string> = []
  if (!moduleUnchanged) {
    why.push(`the module universe changed, so the imports of ${counts.reusedModules} reused modules were re-resolved`)
  }
  if (!resolutionUnchanged) why.push("the resolution universe changed, so no document was reused")
  return entry(
    why.length === 0 ? "complete" : "partial",
    `reused ${counts.reusedModules + counts.reusedDocuments} entities (${counts.reusedModules} modules, ` +
      `${counts.reusedDocuments} documents) and ${parsed}` +
      (why.length === 0 ? "; nothing reusable was refused" : `; ${why.join("; ")}`)
  )
}

/** Splits the listing by analyzer, reporting files no analyzer takes and files over the size limit. */
export const partition = (files: ReadonlyArray<ListedFile>, config: DiscoveryConfig.DiscoveryConfig) => {
  const modules: Array<ListedFile> = []
  const documents: Array<ListedFile> = []
  const configFiles: Array<{ file: ListedFile; analyzer: Analyzer }> = []
  const coverage: Array<Coverage> = []
  const unanalysed = new Map<string, number>()
  // Some analyzer of modules, when the tree holds any: TypeScript's or a language's.
  let moduleAnalyzer: Analyzer | undefined
  for (const file of files) {
    // A lockfile is generated from a manifest the scan reads, and cairn.config.json steers the scan: counted by name.
    const neverIndexed = NEVER_INDEXED_NAMES.test(basename(file.path))
    const analyzer = standard.analyzerFor(file.path)
    if (analyzer === undefined) {
      const extension = neverIndexed ? basename(file.path) : extname(file.path) || basename(file.path)
      unanalysed.set(extension, (unanalysed.get(extension) ?? 0) + 1)
      continue
    }
    if (file.size > config.maxFileBytes) {
      coverage.push({
        analyzer: analyzer.id,
        scope: file.path,
        status: "skipped-size",
        reason: `${file.size} bytes, over config.maxFileBytes (${config.maxFileBytes}); not read`
      })
      continue
    }
    if (analyzer.id === "typescript" || analyzer.id === "text" || languageById(analyzer.id) !== undefined) {
      moduleAnalyzer = analyzer
      modules.push(file)
    } else if (analyzer.id === ANALYZER_ID) {
      documents.push(file)
    } else {
      configFiles.push({ file, analyzer })
    }
  }
  if (unanalysed.size > 0) coverage.push(unanalysedNote(unanalysed))
  return { modules, documents, configFiles, coverage, moduleAnalyzer }
}

export const discoverWith = Effect.fnUntraced(function*(input: DiscoverInput,
  report: (progress: Progress) => Effect.Effect<void>): Effect.fn.Return<Snapshot, DiscoveryError, Requirements> {
    const config = yield* DiscoveryConfig.make(input.config)
    const cache = input.cache ?? ScanCache.make()
    cache.startScan()
    const pool = yield* AnalyzerPool
    const configurationHash = yield* sha256Text(DiscoveryConfig.hashedFields(config))
    const keysTable = snapshotKeys(cache)
    const offer = Reuse.offer(input.previous, {
      pipelineVersion: PIPELINE_VERSION,
      analyzerVersions: standard.versions,
      configurationHash
    }, (snapshot) => ScanCache.memo(keysTable, snapshot, keysOfSnapshot), input.previous && cache.table<Snapshot, Reuse.PreviousUnits>("units").get(input.previous))
    const previous = offer._tag === "Accepted" ? offer.index : undefined
    const counts = { seen: 0, done: 0, total: 0, parsed: 0, reused: 0, reusedModules: 0, reusedDocuments: 0 }
    const progress = (phase: Phase): Effect.Effect<void> =>
      report({ _tag: "Progress", phase, seen: counts.seen, done: counts.done, total: counts.total, parsed: counts.parsed, reused: counts.reused })
    const tally = (outcome: FileOutcome): void => {
      counts.done++
      if (outcome.parsed) counts.parsed++
      if (outcome.reused) counts.reused++
    }

    yield* progress("listing")
    const listing = input.listing ?? (yield* walk(config, cache))
    counts.seen = listing.files.length
    const { configFiles, documents, moduleAnalyzer, modules, ...split } = partition(listing.files, config)
    const coverage: Array<Coverage> = [...listing.coverage, ...split.coverage]
    counts.total = modules.length + documents.length + configFiles.length

    yield* progress("configuration")
    const redact = redactor(config.unredacted)
    const configScan = yield* scanConfigFiles(configFiles, config.concurrency, cache, redact)
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
    const moduleUnchanged = previous !== undefined && previous.moduleKey === moduleKey

    // Modules: units the cache vouches for need no I/O; the rest stream through read and parse.
    yield* progress("modules")
    const moduleContext: ModuleScanContext | undefined = moduleAnalyzer && {
      analyzerOf: (path) => standard.analyzerFor(path)!,
      resolve: makeResolver(universe),
      previous,
      universeUnchanged: moduleUnchanged,
      cache,
      redact
    }
    const moduleOutcomes: Array<FileOutcome> = []
    const pendingModules: Array<ListedFile> = []
    for (const file of modules) {
      const outcome = reuseModuleUnread(file, moduleContext!)
      if (outcome === undefined) pendingModules.push(file)
      else moduleOutcomes.push(outcome)
    }
    for (const outcome of moduleOutcomes) tally(outcome)
    const recordModule = (outcome: FileOutcome | Unread): Effect.Effect<void> => {
      if (isUnread(outcome)) {
        coverage.push(outcome.coverage)
        counts.done++
      } else {
        moduleOutcomes.push(outcome)
        tally(outcome)
      }
      return progress("modules")
    }
    // Files read with tree-sitter go to the analyzer pool in batches, which may parse them on every
    // core; TypeScript's analyzer (oxc, a native parser) and the line-chunked text stay here.
    const pooled: Array<ListedFile> = []
    const inline: Array<ListedFile> = []
    for (const file of pendingModules) (moduleContext!.analyzerOf(file.path).ready !== undefined ? pooled : inline).push(file)
    const inlineModules = Stream.fromIterable(inline).pipe(
      Stream.mapEffect((file) => scanModule(file, moduleContext!), { concurrency: config.concurrency }),
      Stream.tap(recordModule),
      Stream.runDrain
    )
    const pooledModules = Effect.scoped(Effect.gen(function*() {
      const session = yield* pool.session
      yield* Stream.fromIterable(pooled).pipe(
        Stream.mapEffect((file) => readModule(file, moduleContext!), { concurrency: config.concurrency }),
        Stream.grouped(POOLED_MODULE_BATCH),
        Stream.mapEffect((reads) =>
          Effect.gen(function*() {
            const texts: Array<ModuleText> = []
            for (const read of reads) {
              if (isModuleText(read)) texts.push(read)
              else yield* recordModule(read)
            }
            if (texts.length === 0) return
            const analyses = yield* session.analyzeAll(
              texts[0]!.analyzer.id,
              texts.map((read) => ({ path: read.file.path, text: read.text, analyzer: read.analyzer.id }))
            )
            for (let i = 0; i < texts.length; i++) {
              const { units } = analyses[i]!
              const parsedFrom = texts[i]!.entity.evidence[0]?.contentHash
              if (units !== undefined && parsedFrom !== undefined) input.units?.put(texts[i]!.file.path, parsedFrom, units)
              yield* recordModule(analysedModule(texts[i]!, analyses[i]!, moduleContext!))
            }
          })),
        Stream.runDrain
      )
    }))
    const modulesPhase = pooled.length === 0 ? inlineModules : Effect.asVoid(Effect.all([inlineModules, pooledModules], { concurrency: 2 }))
    // Documents are read first and those that cannot be reused handed to the analyzer pool, which
    // may parse them on another thread while this one analyses modules, and helps only after: a
    // group of documents taken here in between held the modules up, and left that thread idle.
    const read = yield* Effect.forEach(documents, (file) => prepareDocument(file, previous, cache, redact), {
      concurrency: config.concurrency
    })
    const prepared: Array<PreparedDocument> = []
    for (const document of read) {
      if (document._tag === "Unread") {
        coverage.push(document.coverage)
        counts.done++
      } else prepared.push(document)
    }
    const early = prepared.filter((p) => p.prior === undefined && p.text !== undefined)
    const modulesDone = yield* Deferred.make<void>()
    const earlyAnalyses = yield* Effect.forkChild(
      pool.analyzeAll(ANALYZER_ID, early.map((p) => ({ path: p.file.path, text: p.text! })), { after: Deferred.await(modulesDone) })
    )
    yield* modulesPhase.pipe(Effect.ensuring(Deferred.done(modulesDone, Exit.void)))
    const analyses = yield* Fiber.join(earlyAnalyses)
    const documentWork = { prepared, analysed: new Map<string, Analysis>(early.map((p, i) => [p.file.path, analyses[i]!])) }

    const moduleEntities = moduleOutcomes.map((outcome) => outcome.unit.entity as ModuleEntity)
    const areas = areaPaths(universe.modules, config.areaDepth)
    const documentPaths = documents.map((file) => file.path)
    const declaredTable = cache.table<ModuleEntity, string>("declared-names")
    const currentResolutionKey = resolutionKey(moduleKey, documentPaths, areas, moduleEntities, (module) =>
      ScanCache.memo(declaredTable, module, (m) => declaredNames(m).join(",")))
    const resolutionUnchanged = previous !== undefined && previous.resolutionKey === currentResolutionKey
    const resolveDocument = treeResolver({
      modules: universe.modules,
      documents: documentPaths,
      areas,
      packages,
      symbols: () => symbolTable(moduleEntities)
    })

    // Documents whose hash matched wait for the resolution universe: reused if it held, else parsed.
    yield* progress("documents")
    const late: Array<PreparedDocument> = []
    const lost = new Set<PreparedDocument>()
    for (const prepared of documentWork.prepared) {
      if (prepared.prior !== undefined && !resolutionUnchanged) {
        const again = prepared.text === undefined && !prepared.binary ? yield* readDocument(prepared.file, undefined, cache, redact) : prepared
        if (again._tag === "Unread") {
          // Vouched for by the cache, gone or unreadable once read: it costs that document alone.
          coverage.push(again.coverage)
          lost.add(prepared)
          counts.done++
        } else late.push(again)
      }
    }
    const lateText = late.filter((p) => p.text !== undefined)
    const lateAnalyses = yield* pool.analyzeAll(ANALYZER_ID, lateText.map((p) => ({ path: p.file.path, text: p.text! })))
    lateText.forEach((p, i) => documentWork.analysed.set(p.file.path, lateAnalyses[i]!))
    const documentOutcomes: Array<FileOutcome> = []
    for (const prepared of documentWork.prepared) {
      if (lost.has(prepared)) continue
      const outcome = prepared.prior !== undefined && resolutionUnchanged
        ? reuseDocument(prepared.prior, previous!)
        : analysedDocument(prepared, prepared.binary ? undefined : documentWork.analysed.get(prepared.file.path), resolveDocument)
      documentOutcomes.push(outcome)
      tally(outcome)
    }
    counts.reusedModules = moduleOutcomes.filter((o) => o.reused).length
    counts.reusedDocuments = documentOutcomes.filter((o) => o.reused).length

    yield* progress("assembling")
    const structural = (id: string): Unit | undefined => {
      const prior = previous?.entity(id)
      return prior === undefined ? undefined : { entity: prior, relations: previous!.relationsFrom(id), coverage: [] }
    }
    // Areas depend on module paths alone; a package on its manifest and the module universe.
    const areaList = moduleUnchanged
      ? [...areas].map((path) => structural(`area:${path}`)!)
      : areaUnits(universe.modules, config.areaDepth)
    const freshPackages = lazy(() => new Map(packageUnits(configScan.manifests, packages, universe.modules).map((u) => [u.entity.id, u])))
    const packageList = packages.map((entity) => {
      const prior = moduleUnchanged ? structural(entity.id) : undefined
      return prior !== undefined && Reuse.hashOf(prior.entity) === Reuse.hashOf(entity) ? prior : freshPackages().get(entity.id)!
    })
    coverage.push(runNote(offer, {
      analysed: counts.total,
      parsed: counts.parsed,
      reusedModules: counts.reusedModules,
      reusedDocuments: counts.reusedDocuments
    }, moduleUnchanged, resolutionUnchanged))
    const tree = yield* SourceTree
    const revision = yield* tree.revision
    const snapshot = yield* assemble({
      header: {
        pipelineVersion: PIPELINE_VERSION,
        analyzerVersions: standard.versions,
        configurationHash,
        sourceRevision: Option.getOrNull(revision),
        compilerOptions: options.options
      },
      units: [
        ...followUnitCalls(moduleOutcomes.map((o) => o.unit)),
        ...documentOutcomes.map((o) => o.unit),
        ...packageList,
        ...areaList
      ],
      coverage
    }, cache)
    // This scan's fingerprints are exactly what `keysOfSnapshot` would derive from its snapshot.
    keysTable.set(snapshot, { moduleKey, resolutionKey: currentResolutionKey })
    return snapshot
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
