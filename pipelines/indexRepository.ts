/**
 * The index dataflow: discovery's snapshot → chunks with provenance → embeddings → one transaction
 * into the embedded index. Incremental by content hash: only notes whose bytes moved are re-chunked,
 * only chunks whose text moved are re-embedded, vanished notes are deleted, and everything lands in
 * one write, so an interrupted run leaves the previous index as it was.
 */
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Effect, FileSystem, Layer, Option, Path, Stream } from "effect"
import type { Scope } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { PlatformError } from "effect/PlatformError"
import type { Chunk, ChunkId } from "../src/domain/Chunk.ts"
import { DiscoveryError, SourceUnreadable } from "../src/domain/DiscoveryError.ts"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { unitsOf } from "../src/discovery/Assemble.ts"
import type { DiscoveryConfig } from "../src/discovery/DiscoveryConfig.ts"
import type { Patched, StoredSnapshot } from "../src/discovery/Patch.ts"
import type { Phase, Progress } from "../src/discovery/Progress.ts"
import type { PreviousUnits } from "../src/discovery/Reuse.ts"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import * as UnitStash from "../src/languages/UnitStash.ts"
import type { SnapshotMemo } from "../src/discovery/SnapshotMemo.ts"
import { redactor } from "../src/discovery/SecretScan.ts"
import { scanFingerprint } from "../src/discovery/Unchanged.ts"
import type { Listing } from "../src/discovery/Walk.ts"
import { isNoteFile } from "../src/index/chunk/NoteFiles.ts"
import * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"
import { Training } from "../src/ports/Training.ts"
import type { EmbedderShape } from "../src/ports/Embedder.ts"
import type { TextEncoderModel } from "../src/index/HashingEmbedder.ts"
import * as Lsa from "../src/index/LatentSemanticEmbedder.ts"
import { isForeignSpace } from "./foreignSpace.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import { TokenCounter } from "../src/ports/TokenCounter.ts"
import { SnapshotStore, type SnapshotStoreError, type StagedSnapshot } from "../src/ports/SnapshotStore.ts"
import * as ChunkerPoolNode from "../layers/node/ChunkerPoolNode.ts"
import { collectHeap } from "../layers/node/HeapCollect.ts"
import * as HistoryGit from "../layers/node/HistoryGit.ts"
import * as SnapshotStoreFile from "../layers/node/SnapshotStoreFile.ts"
import * as TrainingNode from "../layers/node/TrainingNode.ts"
import * as Database from "../layers/sqlite/Database.ts"
import { DatabaseError } from "../layers/sqlite/DatabaseError.ts"
import * as IndexStoreSqlite from "../layers/sqlite/IndexStoreSqlite.ts"
import { locate, postgresIndexStore } from "./indexLocation.ts"
import { IndexStore, type IndexWrite, type IndexWriteError, type NoteRecord, type RebuildContent, type StoredManifest, type VectorSpace, type WriteSummary } from "../src/ports/IndexStore.ts"
import * as TrainingSample from "../src/index/TrainingSample.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { rememberedVerdict, scanConfig } from "./upToDate.ts"
import type { IndexMemory } from "./indexMemory.ts"
import * as ScanCacheFile from "./scanCacheFile.ts"
import { type ChunkedPart, noteChunks } from "./noteChunks.ts"
import { compareIds } from "../src/domain/Ranking.ts"
import { embedInSteps, MODEL_STEP, runCache } from "./modelEmbedding.ts"

export interface IndexOptions {
  readonly root: string
  /** The clock read at the caller's boundary; stamped on the manifest as the build time. */
  readonly now: number
  /** Rebuild from scratch: every note re-chunked, the embedder retrained, the index replaced. */
  readonly rebuild?: boolean
  readonly discovery?: Partial<DiscoveryConfig>
  /**
   * The chunk token target and the agent author patterns (checked; an unknown key or a value out of
   * range fails with `InvalidInput`). An index built under other settings is rebuilt.
   */
  readonly chunking?: ChunkingConfig.ChunkingConfig | undefined
  readonly onProgress?: (event: IndexProgress) => void
  /** Carried across runs by a long-lived process (see indexMemory.ts); a one-shot run reads `.cairn/`. */
  readonly memory?: IndexMemory
  /**
   * A model of the caller's (an HTTP endpoint: `models.embedder`, docs/models.md) in place of the
   * corpus-trained one. Its vectors are cached by content hash (`EmbeddingCache`, else
   * `.cairn/embeddings.sqlite`), so a text is sent to it once; an index of another model, version or
   * dimension is re-embedded whole, never mixed.
   */
  readonly embedder?: EmbedderShape
}

export type IndexProgress =
  /** The scan of the tree, reported after every file (see discovery's `Progress`). */
  | { readonly _tag: "Scanning"; readonly phase: Phase; readonly done: number; readonly total: number }
  | { readonly _tag: "Discovered"; readonly files: number }
  | { readonly _tag: "Chunked"; readonly done: number; readonly total: number }
  /** A refresh's chunks going into the index (a cold build writes each part as it is chunked). */
  | { readonly _tag: "Writing"; readonly chunks: number }
  /** A cold build's chunks are written; the embedder is being fitted on a sample of this many. */
  | { readonly _tag: "Training"; readonly chunks: number }
  /** Chunks being embedded; with `done`, how many of them a model has embedded so far. */
  | { readonly _tag: "Embedding"; readonly chunks: number; readonly done?: number }
  | { readonly _tag: "Written" }

export interface IndexReport {
  /**
   * No file a scan reads had changed since the build the index holds, so nothing was done (the
   * snapshot's run fields, such as the git revision, are brought up by the next full scan).
   */
  readonly upToDate: boolean
  readonly notes: number
  readonly notesIndexed: number
  readonly notesUnchanged: number
  readonly notesDeleted: number
  readonly chunksEmbedded: number
  readonly vectorsReused: number
  readonly retrained: boolean
  /** The caller's model that embedded this run's chunks (`IndexOptions.embedder`), by id, when there is one. */
  readonly model?: string
  /**
   * The last snapshot was patched with the documents and modules that moved instead of scanned
   * again (see src/discovery/Patch.ts): same snapshot, without loading the last one whole.
   */
  readonly snapshotPatched: boolean
  readonly summary: WriteSummary
  readonly snapshotHash: string
  /**
   * The index file was damaged (this says how), so the run built a new one from the repository and
   * put it in its place (see repairIndex.ts).
   */
  readonly replacedDamaged?: string
}

const DOCUMENT_PREFIX = "document:"
const MODULE_PREFIX = "module:"

/** The root must be a directory that exists: indexing nothing into a new folder would hide a typo. */
const requireDirectory = (fs: FileSystem.FileSystem, root: string) =>
  fs.stat(root).pipe(
    Effect.flatMap((info) => info.type === "Directory" ? Effect.void : Effect.fail("not a directory")),
    Effect.mapError(() => new DiscoveryError({ reason: new SourceUnreadable({ path: root, detail: "no such directory; pass an existing repository with --root" }) }))
  )

/**
 * The root must be one an index run can finish in: listable, or the scan fails after the index
 * file is made, and writable where cairn's folder goes, or it cannot be made at all. Checked
 * before anything is created, so a run that must fail leaves the root as it was.
 */
const requireIndexable = Effect.fn("indexRepository.requireIndexable")(function*(fs: FileSystem.FileSystem, path: Path.Path, root: string) {
    yield* requireDirectory(fs, root)
    yield* fs.readDirectory(root).pipe(Effect.mapError((error) =>
      new DiscoveryError({ reason: new SourceUnreadable({ path: root, detail: `the directory cannot be listed (${error.reason._tag})` }) })
    ))
    const folder = cairnDir(path, root)
    const target = (yield* fs.exists(folder).pipe(Effect.orElseSucceed(() => false))) ? folder : root
    yield* fs.access(target, { writable: true }).pipe(Effect.mapError(() =>
      new DatabaseError({
        reason: "open_failed",
        path: Database.defaultPath(root),
        detail: `${target} is not writable, so ${target === folder ? "the index cannot be written there" : "cairn's folder cannot be made in it"}`
      })
    ))
  })

/**
 * The layers an index run needs, over the index file of `root` (or `path`, where a new one is
 * built aside), or the shared server the process's store names (indexLocation.ts): the writer, the snapshot store, the counter, git history, chunking and training
 * shared with worker threads. The root is checked first, so a mistyped path, or one the run could
 * not finish in, creates no `.cairn` folder.
 */
export const indexLayer = (root: string, path: string = Database.defaultPath(root)) =>
  Layer.unwrap(Effect.gen(function*() {
    yield* requireIndexable(yield* FileSystem.FileSystem, yield* Path.Path, root)
    const snapshots = SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root))
    const location = yield* locate(root)
    // On a shared server the writer is PostgreSQL's; the snapshot and scan cache stay with the checkout.
    const store = location._tag === "Postgres" ? postgresIndexStore(location) : IndexStoreSqlite.layer.pipe(Layer.provide(Database.layer({ path })))
    return Layer.mergeAll(store, snapshots, TokenCounterDefault.layer, HistoryGit.layer(root), ChunkerPoolNode.layer, TrainingNode.layer).pipe(
      Layer.provide(NodeChildProcessSpawner.layer)
    )
  }))

/** Where cairn keeps its files under a root. */
export const cairnDir = (path: Path.Path, root: string) => path.join(root, ".cairn")

/**
 * Creates cairn's folder under a root, with the `.gitignore` that keeps it out of the repository's
 * `git status` (as opening the index does); one already there is the user's and stays as it is.
 */
const makeCairnDir = Effect.fn("indexRepository.makeCairnDir")(function*(fs: FileSystem.FileSystem, path: Path.Path, root: string) {
  yield* fs.makeDirectory(cairnDir(path, root), { recursive: true })
  yield* fs.writeFileString(path.join(cairnDir(path, root), ".gitignore"), Database.CAIRN_GITIGNORE, { flag: "wx" }).pipe(
    Effect.catchReason("PlatformError", "AlreadyExists", () => Effect.void)
  )
})

/** A file the index keeps as a note when discovery makes a module or document of it. */
const isNotePath = isNoteFile

interface IndexedNotes {
  /** Note path → content hash. */
  readonly hashes: Map<string, string>
  /** Entity id → note path, for the entities that are notes. */
  readonly byEntity: Map<string, string>
  /** Note path → its entity's id. */
  readonly entityOf: Map<string, string>
}

// Per snapshot object: a long-lived process asks again of the snapshot it kept.
const indexedNotes = new WeakMap<Snapshot, IndexedNotes>()

const notesIn = (snapshot: Snapshot): IndexedNotes => {
  const held = indexedNotes.get(snapshot)
  if (held !== undefined) return held
  const hashes = new Map<string, string>()
  const byEntity = new Map<string, string>()
  const entityOf = new Map<string, string>()
  for (const entity of snapshot.entities) {
    const path = entity.id.startsWith(DOCUMENT_PREFIX) ? entity.id.slice(DOCUMENT_PREFIX.length)
      : entity.id.startsWith(MODULE_PREFIX) ? entity.id.slice(MODULE_PREFIX.length)
      : undefined
    if (path === undefined) continue
    if (!isNotePath(path)) continue
    const hash = "evidence" in entity ? entity.evidence[0]?.contentHash : undefined
    if (hash === undefined) continue
    hashes.set(path, hash)
    byEntity.set(entity.id, path)
    entityOf.set(path, entity.id)
  }
  const notes = { hashes, byEntity, entityOf }
  indexedNotes.set(snapshot, notes)
  return notes
}

/** The indexable notes of a snapshot: Markdown documents and source modules, with their content hashes. */
export const notesOf = (snapshot: Snapshot): ReadonlyMap<string, string> => notesIn(snapshot).hashes

const byEdge = (a: NoteEdge, b: NoteEdge) => compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)

/** Relations between the snapshot's indexable notes, as the graph and link-consensus stages read them, sorted. */
export const edgesOf = (snapshot: Snapshot): Array<NoteEdge> => {
  const { byEntity } = notesIn(snapshot)
  const edges: Array<NoteEdge> = []
  for (const relation of snapshot.relations) {
    const from = byEntity.get(relation.from)
    if (from === undefined) continue
    const to = byEntity.get(relation.to)
    if (to !== undefined && from !== to) edges.push({ from, to, verb: relation.kind })
  }
  return edges.sort(byEdge)
}

/**
 * What an incremental run rewrites of the relations table: the notes whose relation group is not
 * the very group the indexed build had (a changed file, a link that resolves anew, a target that
 * vanished), with their edges now. Without both builds' groups, every note.
 */
const relationUpdate = (
  snapshot: Snapshot,
  groups: { readonly before: PreviousUnits | undefined; readonly after: PreviousUnits | undefined }
): { readonly from: Array<string>; readonly edges: Array<NoteEdge> } => {
  const { before, after } = groups
  const { byEntity, entityOf } = notesIn(snapshot)
  if (before === undefined || after === undefined) return { from: [...entityOf.keys()].sort(compareIds), edges: edgesOf(snapshot) }
  const from: Array<string> = []
  const edges: Array<NoteEdge> = []
  for (const [note, id] of entityOf) {
    const group = after.get(id)?.relations ?? []
    if (before.get(id)?.relations === group) continue
    from.push(note)
    for (const relation of group) {
      const to = byEntity.get(relation.to)
      if (to !== undefined && to !== note) edges.push({ from: note, to, verb: relation.kind })
    }
  }
  return { from: from.sort(compareIds), edges: edges.sort(byEdge) }
}

/** Discovery and its parsers, loaded when a scan reads files: a refresh that finds the tree as it was never needs them. */
const discoveryModule = Effect.promise(() => import("./discover.ts"))

/**
 * The scan of a refresh, against the files the last committed scan read (`remembered`). When the
 * index holds the build of that scan and a listing finds every file as it was, there is nothing to
 * do: the manifest comes back, no snapshot is read. Otherwise discovery takes the listing and is
 * offered the last snapshot (`previous`, else the file), so unchanged files are not parsed again.
 * The snapshot file is trusted; should it hold something a scan cannot take, the scan runs cold,
 * on a cache of its own, which is the one that may vouch for it afterwards.
 */
const scanSince = Effect.fn("indexRepository.scanSince")(function*(options: {
  readonly root: string
  readonly config: Partial<DiscoveryConfig>
  readonly fingerprint: string
  readonly remembered: ScanCacheFile.ScanCacheFile
  readonly manifest: StoredManifest | undefined
  readonly previous?: Snapshot | undefined
  readonly rebuild?: boolean | undefined
  /** The scan's cache outlives the run (a long-lived process keeps it). */
  readonly keepsCache?: boolean | undefined
  /**
   * What a patch asks of the index, when a patch of the last snapshot may stand in for the scan (a
   * one-shot run that keeps nothing and does not retrain; see `patchSince`).
   */
  readonly patchable?: PatchableIndex | undefined
  readonly onProgress?: ((progress: IndexProgress) => void) | undefined
}) {
    const { root, config, remembered, manifest } = options
    const verdict = options.rebuild === true ? undefined : yield* rememberedVerdict(options)
    if (manifest !== undefined && verdict?.unchanged === true) return { _tag: "UpToDate", manifest } satisfies UpToDate
    const snapshots = yield* SnapshotStore
    let cache = remembered.cache
    if (options.patchable !== undefined && verdict !== undefined && remembered.memo !== undefined) {
      const patched = yield* patchSince({ root, config, memo: remembered.memo, listing: verdict.listing, cache, indexed: options.patchable })
      if (patched !== undefined) return patched
    }
    // The memo's JSON pieces are slices of the file's text: a one-shot run takes them, a process that
    // keeps its cache (`keepsCache`) takes only digests and fingerprints.
    const memo = remembered.memo === undefined ? undefined : { memo: remembered.memo, json: options.keepsCache !== true }
    const previous = options.rebuild === true ? undefined
      : options.previous ?? Option.getOrUndefined(yield* snapshots.read(cache, memo))
    const report = options.onProgress
    const onProgress = report === undefined
      ? undefined
      : ({ done, phase, total }: Progress) => report({ _tag: "Scanning", phase, done, total })
    const { discover } = yield* discoveryModule
    // Entries name the bytes they were parsed from, so the cold scan below may add to what a failed one kept.
    const units = UnitStash.make()
    const snapshot = yield* discover({ root, config, previous, cache, listing: verdict?.listing, onProgress, units }).pipe(
      Effect.catchDefect(() =>
        Effect.suspend(() => {
          cache = ScanCache.make()
          return discover({ root, config, cache, onProgress, units })
        })
      )
    )
    return { _tag: "Scanned", snapshot, cache, previous, units } satisfies FullScan
  })

/** A refresh that found every file as the index's build read it: nothing to do. */
interface UpToDate {
  readonly _tag: "UpToDate"
  readonly manifest: StoredManifest
}

/** A scan of the tree, offered the last snapshot. */
interface FullScan {
  readonly _tag: "Scanned"
  readonly snapshot: Snapshot
  readonly cache: ScanCache.ScanCache
  readonly previous: Snapshot | undefined
  /** The units of the files the scan parsed with tree-sitter, for chunking them without a second parse. */
  readonly units: UnitStash.UnitStash
}

/** A scan that patched the last snapshot, with what moved of the notes the index holds. */
interface PatchedScan {
  readonly _tag: "Patched"
  readonly patched: Patched
  readonly stored: StoredSnapshot
  readonly cache: ScanCache.ScanCache
  /** The notes the index holds, as many as the patched snapshot has: a patch adds and deletes none. */
  readonly notes: number
  /** The moved notes whose bytes differ from what the index holds, with their content hashes now. */
  readonly changed: ReadonlyMap<string, string>
}

/** The note an entity of a snapshot is, when it is one: a Markdown document or a source module. */
const noteOfEntity = (id: string): string | undefined => {
  const path = id.startsWith(DOCUMENT_PREFIX) ? id.slice(DOCUMENT_PREFIX.length) : id.startsWith(MODULE_PREFIX) ? id.slice(MODULE_PREFIX.length) : undefined
  return path !== undefined && isNotePath(path) ? path : undefined
}

/**
 * The last snapshot patched with the files that moved (see Patch.ts), when a patch can say,
 * without loading the snapshot whole. The index holds the build of that snapshot (its manifest
 * and the scan cache name the same snapshot hash), so its notes are the snapshot's and only the
 * moved ones are looked up in it. A moved note the index does not hold, or fewer notes than its
 * commit left, means the two disagree, and the full scan decides.
 */
const patchSince = Effect.fn("indexRepository.patchSince")(function*(options: {
  readonly root: string
  readonly config: Partial<DiscoveryConfig>
  readonly memo: SnapshotMemo
  readonly listing: Listing
  readonly cache: ScanCache.ScanCache
  readonly indexed: PatchableIndex
}) {
  const { root, cache } = options
  // Notes lost from the index since its commit (a damaged file) are put back by the full scan.
  if ((yield* options.indexed.held) !== options.indexed.notes) return undefined
  const stored = yield* (yield* SnapshotStore).readStored(options.memo)
  if (Option.isNone(stored)) return undefined
  const { patch } = yield* discoveryModule
  const patched = yield* patch({ root, stored: stored.value, listing: options.listing, config: options.config, cache }).pipe(
    Effect.catchDefect(() => Effect.succeed(undefined))
  )
  if (patched === undefined) return undefined
  const now = new Map<string, string>()
  for (const unit of patched.units) {
    const note = noteOfEntity(unit.entity.id)
    const hash = unit.entity.evidence[0]?.contentHash
    if (note !== undefined && hash !== undefined) now.set(note, hash)
  }
  const held = yield* options.indexed.hashesOf([...now.keys()])
  const changed = new Map<string, string>()
  for (const [note, hash] of now) {
    if (!held.has(note)) return undefined
    if (held.get(note) !== hash) changed.set(note, hash)
  }
  return { _tag: "Patched", patched, stored: stored.value, cache, notes: options.indexed.notes, changed } satisfies PatchedScan
})

/** What a patch asks of the index: how many notes its last commit left and it holds now, and the hashes of some. */
interface PatchableIndex {
  readonly notes: number
  readonly held: Effect.Effect<number, IndexWriteError>
  readonly hashesOf: (notes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string | null>, IndexWriteError>
}

export interface PendingChanges {
  readonly added: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
  readonly deleted: ReadonlyArray<string>
}

/** What a refresh would re-index: files on disk whose bytes differ from what the index holds. Writes nothing. */
export const pendingChanges = Effect.fn("pendingChanges")(function*(options: { readonly root: string; readonly discovery?: Partial<DiscoveryConfig> }) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const writer = yield* IndexStore
  yield* requireDirectory(fs, options.root)
  const config = scanConfig(options.discovery)
  // As a refresh would find it.
  const scanned = yield* scanSince({
    root: options.root,
    config,
    fingerprint: yield* scanFingerprint(config),
    remembered: yield* ScanCacheFile.read(fs, path.join(cairnDir(path, options.root), "scan-cache.json")),
    manifest: yield* writer.manifest
  })
  if (scanned._tag !== "Scanned") return { added: [], changed: [], deleted: [] } satisfies PendingChanges
  const { snapshot } = scanned
  const current = notesOf(snapshot)
  const stored = yield* writer.noteHashes
  return {
    added: [...current.keys()].filter((note) => !stored.has(note)).sort(compareIds),
    changed: [...current].filter(([note, hash]) => stored.has(note) && stored.get(note) !== hash).map(([note]) => note).sort(compareIds),
    deleted: [...stored.keys()].filter((note) => !current.has(note)).sort(compareIds)
  } satisfies PendingChanges
}, (effect) => Effect.provide(effect, NodeCrypto.layerDigest))

/**
 * A scan's snapshot, staged in the `SnapshotStore`, and its scan cache file, written aside into
 * `<root>/.cairn/`, for as long as the enclosing scope: `commit` puts both in place, once the index
 * holds that scan; closing the scope removes whatever was not committed, whether the run failed or
 * was interrupted (staging is not interruptible, so nothing is written without its removal registered).
 */
export const stageScan = (root: string, snapshot: Snapshot, cache: ScanCache.ScanCache, fingerprint: string) =>
  stageFiles(root, fingerprint, snapshot.contentHash, (snapshots) => snapshots.stage(snapshot, cache), cache)

/** Stages a scan's snapshot in `snapshots`, with the memo of what it staged when there is one. */
type SnapshotStager = (snapshots: SnapshotStore["Service"]) => Effect.Effect<StagedSnapshot, SnapshotStoreError, Scope.Scope>

/** A scan's files written aside: `commit` puts them in place. */
interface StagedScan {
  readonly commit: Effect.Effect<void, SnapshotStoreError | PlatformError>
}

/** `stageScan` of whatever `stageSnapshot` stages as the snapshot. */
const stageFiles = (root: string, fingerprint: string, snapshotHash: string, stageSnapshot: SnapshotStager, cache: ScanCache.ScanCache) =>
  Effect.uninterruptible(Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* makeCairnDir(fs, path, root)
    const snapshot = yield* stageSnapshot(yield* SnapshotStore)
    const cacheFile = yield* Effect.tap(
      ScanCacheFile.stage(fs, path.join(cairnDir(path, root), "scan-cache.json"), cache, { fingerprint, snapshotHash, memo: snapshot.memo }),
      releasedWithScope
    )
    return { commit: Effect.andThen(snapshot.commit, cacheFile.commit) } satisfies StagedScan
  }))

// Not `acquireRelease`, whose finalizer keeps the acquiring effect, and with it the snapshot and
// the scan's memo tables (over 100 MB on a large repository), alive until the scope closes.
const releasedWithScope = (staged: { readonly discard: Effect.Effect<void> }) => Effect.addFinalizer(() => staged.discard)

/** Brings `.cairn/`'s snapshot and scan cache up to what `memory` holds, if they lag behind. */
export const saveIndexMemory = Effect.fn("indexRepository.saveIndexMemory")(function*(root: string, memory: IndexMemory) {
  if (memory.saved !== false || memory.snapshot === undefined || memory.cache === undefined || memory.fingerprint === undefined) return
  yield* Effect.scoped(Effect.flatMap(stageScan(root, memory.snapshot, memory.cache, memory.fingerprint), (staged) => staged.commit)).pipe(
    Effect.provide(SnapshotStoreFile.layer(SnapshotStoreFile.defaultPath(root)))
  )
  memory.saved = true
})

/** The report of a run that found nothing to do. */
const upToDateReport = (manifest: StoredManifest): IndexReport => ({
  upToDate: true,
  notes: manifest.noteCount,
  notesIndexed: 0,
  notesUnchanged: manifest.noteCount,
  notesDeleted: 0,
  chunksEmbedded: 0,
  vectorsReused: 0,
  retrained: false,
  snapshotPatched: false,
  summary: { ...manifest, chunksWritten: 0, chunksDeleted: 0, vectorsWritten: 0 },
  snapshotHash: manifest.snapshotHash
})

/**
 * What an index run's scan found and what the index must take in. The snapshot itself is not
 * here: a one-shot run has already written it aside (`files`), so the 100 MB or so of a large
 * repository's snapshot and scan cache are not held through chunking and writing. A long-lived
 * process keeps them (`kept`), for its next refresh.
 */
interface Scan {
  /** How many notes the tree has now. */
  readonly notes: number
  /** The content hash of every changed note now, at least. */
  readonly hashes: ReadonlyMap<string, string>
  readonly changed: ReadonlyArray<string>
  readonly deleted: ReadonlyArray<string>
  readonly relations: { readonly from: Array<string>; readonly edges: Array<NoteEdge> }
  readonly snapshotHash: string
  readonly space: Omit<VectorSpace, "model"> | undefined
  readonly retrain: boolean
  /** Every note is re-chunked and the batch replaces the index (a retrain, or a rebuild without vectors). */
  readonly rewrite: boolean
  /** How the tree was read: a patch of the last snapshot, or a scan. */
  readonly _tag: "Patched" | "Scanned"
  readonly files: StagedScan | undefined
  readonly kept: { readonly snapshot: Snapshot; readonly cache: ScanCache.ScanCache; readonly fingerprint: string } | undefined
  /** The units the scan parsed, when it parsed (a patch reads too few files to keep them). */
  readonly units: UnitStash.UnitStash | undefined
}

/** A run's chunking settings, checked, and what the index records of them. */
interface ChunkingSettings {
  readonly config: ChunkingConfig.ChunkingConfig
  readonly fingerprint: string
}

/** The scan of an index run, or the manifest when there is nothing to do. */
const scanForIndex = Effect.fn("indexRepository.scanForIndex")(function*(options: IndexOptions, chunking: ChunkingSettings, progress: (event: IndexProgress) => void) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const writer = yield* IndexStore
  const config = scanConfig(options.discovery)
  const fingerprint = yield* scanFingerprint(config)
  const memory = options.memory
  // The files the last committed scan read, by stamp: from this process's memory, else from disk.
  // A long-lived process scans on a fork of its cache, kept only once the index commits: a refresh
  // that fails must not leave stamps vouching for files the index never took in.
  const remembered: ScanCacheFile.ScanCacheFile = options.rebuild === true
    ? { cache: ScanCache.make() }
    : memory?.cache !== undefined && memory.snapshot !== undefined && memory.fingerprint !== undefined
    ? { cache: memory.cache.fork(), fingerprint: memory.fingerprint, snapshotHash: memory.snapshot.contentHash }
    : yield* ScanCacheFile.read(fs, path.join(cairnDir(path, options.root), "scan-cache.json"))
  const manifest = yield* writer.manifest
  const space = yield* writer.vectorSpaceHeader
  // Chunks made under other chunking settings are not these settings' chunks: start over.
  const rechunk = manifest !== undefined && (yield* writer.builtUnder) !== chunking.fingerprint
  // Without sqlite-vec no vector is stored, so there is no embedder to fit: only a rebuild or new
  // chunking settings rewrite every note. A caller's model re-embeds everything when the stored
  // vectors are not its own, exactly: another model, version or dimension would mix spaces.
  const external = options.embedder
  const foreignSpace = space === undefined || isForeignSpace(space, external)
  const retrain = writer.vectorsUnavailable === undefined && (options.rebuild === true || rechunk || foreignSpace)
  const rewrite = retrain || options.rebuild === true || rechunk
  const scanned = yield* scanSince({
    root: options.root,
    config,
    fingerprint,
    remembered,
    manifest,
    previous: memory?.snapshot,
    // Vectors of another model are all replaced, however few files moved: no scan may call that up to date.
    rebuild: options.rebuild === true || rechunk || retrain,
    keepsCache: memory !== undefined,
    patchable: memory === undefined && !rewrite && manifest !== undefined ? { notes: manifest.noteCount, held: writer.noteCount, hashesOf: writer.noteHashesOf } : undefined,
    onProgress: progress
  })
  if (scanned._tag === "Patched") return yield* patchedScan(options.root, scanned, { space: space!, fingerprint }, progress)
  if (scanned._tag === "UpToDate") return scanned
  const { snapshot, cache, previous, units } = scanned

  const current = notesOf(snapshot)
  yield* reported(progress, { _tag: "Discovered", files: current.size })
  // What the index holds per note: this process's last snapshot says it when the index holds that build.
  const stored: ReadonlyMap<string, string | null> = memory?.snapshot !== undefined && manifest?.snapshotHash === memory.snapshot.contentHash
    ? notesOf(memory.snapshot)
    : yield* writer.noteHashes
  // Outbound edges move with a note's own text and with how its links resolve; discovery hands a
  // unit's relation group on unchanged (the same object) exactly when neither moved. The groups of
  // the build the index holds are known when this run's previous snapshot is that build.
  const indexedBuild = !rewrite && previous !== undefined && previous.contentHash === manifest?.snapshotHash
  return {
    _tag: "Scanned",
    notes: current.size,
    hashes: current,
    changed: [...current].filter(([note, hash]) => rewrite || stored.get(note) !== hash).map(([note]) => note).sort(compareIds),
    deleted: [...stored.keys()].filter((note) => !current.has(note)).sort(compareIds),
    relations: relationUpdate(snapshot, {
      before: indexedBuild ? unitsOf(previous, cache) : undefined,
      after: unitsOf(snapshot, cache)
    }),
    snapshotHash: snapshot.contentHash,
    space,
    retrain,
    rewrite,
    files: memory === undefined || memory.saved === undefined ? yield* stageScan(options.root, snapshot, cache, fingerprint) : undefined,
    kept: memory === undefined ? undefined : { snapshot, cache, fingerprint },
    units
  } satisfies Scan
})

/**
 * The scan of an index run that patched the last snapshot: the moved modules' notes re-indexed,
 * their outbound edges rewritten, the patched snapshot and its memo staged.
 */
const patchedScan = Effect.fn("indexRepository.patchedScan")(function*(root: string,
  scanned: PatchedScan,
  run: { readonly space: Omit<VectorSpace, "model">; readonly fingerprint: string },
  progress: (event: IndexProgress) => void) {
  const { patched, stored, cache, notes, changed } = scanned
  yield* reported(progress, { _tag: "Discovered", files: notes })
  const from: Array<string> = []
  const edges: Array<NoteEdge> = []
  // Every note of the snapshot is one the index holds; a relation to an entity of the snapshot
  // names one that exists (assembly drops the others).
  for (const unit of patched.units) {
    const note = noteOfEntity(unit.entity.id)
    if (note === undefined) continue
    from.push(note)
    for (const relation of unit.group) {
      const to = noteOfEntity(relation.to)
      if (to !== undefined && to !== note) edges.push({ from: note, to, verb: relation.kind })
    }
  }
  const files = yield* stageFiles(root, run.fingerprint, patched.contentHash, (snapshots) => snapshots.stagePatched(stored, patched), cache)
  return {
    _tag: "Patched",
    notes,
    hashes: changed,
    changed: [...changed.keys()].sort(compareIds),
    deleted: [],
    relations: { from: from.sort(compareIds), edges: edges.sort(byEdge) },
    snapshotHash: patched.contentHash,
    space: run.space,
    retrain: false,
    rewrite: false,
    files,
    kept: undefined,
    units: undefined
  } satisfies Scan
})

export const indexRepository = Effect.fn("indexRepository")(function*(options: IndexOptions) {
  const fs = yield* FileSystem.FileSystem
  yield* requireDirectory(fs, options.root)
  const progress = options.onProgress ?? (() => {})
  // The scan's staged files live in this scope: committed by the write, removed on the way out.
  const config = yield* ChunkingConfig.decode(options.chunking)
  const chunking: ChunkingSettings = { config, fingerprint: ChunkingConfig.fingerprint(config, options.discovery?.unredacted) }
  return yield* Effect.scoped(Effect.gen(function*() {
    const scan = yield* scanForIndex(options, chunking, progress)
    return scan._tag === "UpToDate" ? upToDateReport(scan.manifest) : yield* writeIndex(options, chunking, scan, progress)
  }))
}, (effect) => Effect.provide(effect, NodeCrypto.layerDigest))

/**
 * Reports `event`, then lets other fibers run: a listener that writes progress on a fiber of its
 * own (the CLI) would otherwise see the event only after the long synchronous step that follows.
 */
const reported = (progress: (event: IndexProgress) => void, event: IndexProgress) =>
  Effect.andThen(Effect.sync(() => progress(event)), Effect.yieldNow)

/** What a write stored, and the encoder of its vectors when there are any. */
interface Written {
  readonly summary: WriteSummary
  readonly embedded: number
  readonly reused: number
  readonly encoder: TextEncoderModel | undefined
}

/** A batch's content: everything but its vectors. */
type Content = Omit<IndexWrite, "vectors" | "replaceAll"> & { readonly chunks: ReadonlyArray<Chunk> }

/** A cold build's content besides its parts. */
interface Header {
  readonly relations: NonNullable<RebuildContent["relations"]>
  readonly manifest: RebuildContent["manifest"]
}

/** The run's notes, chunked a part at a time (see noteChunks.ts). */
type Parts = Stream.Stream<ChunkedPart, never, Path.Path | Digest.Digest>

/** Chunks read back and embedded per step of a cold build: one step's texts and vectors are in memory at a time. */
export const EMBED_STEP = 5_000

/**
 * A cold build: the parts are written as they are chunked while a sample of their chunks is kept,
 * the embedder is trained on the sample, and every chunk is read back from the build in id order,
 * a step at a time, embedded and stored.
 */
const writeRetrained = Effect.fn("indexRepository.writeRetrained")(function*(
  parts: Parts,
  header: Header,
  progress: (event: IndexProgress) => void
) {
  const writer = yield* IndexStore
  const training = yield* Training
  const sample = TrainingSample.sampler()
  let encoder: TextEncoderModel | undefined
  const summary = yield* writer.rebuild({ ...header, parts: Stream.tap(parts, (part) => Effect.sync(() => sample.offer(part.chunks))) }, (store) =>
    // The training worker lives as long as the embedding.
    Effect.scoped(Effect.gen(function*() {
      // A build of several steps is collected at each, as the last step's texts and vectors go.
      const stepped = sample.offered() > EMBED_STEP
      if (stepped) collectHeap()
      yield* reported(progress, { _tag: "Training", chunks: Math.min(sample.offered(), TrainingSample.MAX_TRAINING_CHUNKS) })
      // Taken, not kept: the sample's texts are the training run's alone.
      const run = yield* training.start(sample.take())
      // The store's space is opened on the trained model, before the first vectors: embedInto
      // hands some over only once training ends, and meanwhile does what needs no model.
      const open = yield* Effect.cached(Effect.gen(function*() {
        const model = yield* run.model
        // Each step is long and synchronous; yielding between them lets a Ctrl-C in meanwhile
        // interrupt the build (and roll it back) instead of waiting for the commit.
        yield* Effect.yieldNow
        encoder = Lsa.encoder(model)
        yield* store.open({ id: encoder.id, version: encoder.version, dimension: encoder.dimension, model: Lsa.encodeModel(model) })
        progress({ _tag: "Embedding", chunks: sample.offered() })
      }))
      // The chunks come back from the build a page at a time; each page's ids wait here for its
      // vectors, and are let go as they are stored.
      const ids: Array<ChunkId> = []
      let next = 0
      const pages = Stream.map(store.texts(EMBED_STEP), (page) => {
        // The last page's texts and vectors are stored and let go.
        if (stepped) collectHeap()
        for (const chunk of page) ids.push(chunk.id)
        return page.map((chunk) => chunk.text)
      })
      yield* run.embedInto(pages, (vectors) => {
        const entries = vectors.map((vector, i) => ({ chunkId: ids[next + i]!, vector }))
        next += vectors.length
        if (next >= EMBED_STEP) {
          ids.splice(0, next)
          next = 0
        }
        return Effect.andThen(open, Effect.andThen(Effect.yieldNow, store.add(entries)))
      })
      yield* open
      yield* Effect.yieldNow
    })))
  return { summary, embedded: sample.offered(), reused: 0, encoder } satisfies Written
})

/**
 * A cold build with a caller's model: the parts are written as they are chunked, then every chunk
 * is read back in id order, a step at a time, and embedded through the cache. The model's space
 * (id, version, dimension) is the build's; nothing of the model itself is stored.
 */
const writeModelEmbedded = Effect.fn("indexRepository.writeModelEmbedded")(function*(
  root: string,
  embedder: EmbedderShape,
  parts: Parts,
  header: Header,
  progress: (event: IndexProgress) => void
) {
  const writer = yield* IndexStore
  const cache = yield* runCache(root)
  let total = 0
  let done = 0
  let cached = 0
  const summary = yield* writer.rebuild({ ...header, parts: Stream.tap(parts, (part) => Effect.sync(() => { total += part.chunks.length })) }, (store) =>
    Effect.gen(function*() {
      yield* store.open({ id: embedder.id, version: embedder.version, dimension: embedder.dimension })
      yield* reported(progress, { _tag: "Embedding", chunks: total, done: 0 })
      yield* Stream.runForEach(store.texts(MODEL_STEP), (page) =>
        Effect.gen(function*() {
          const step = yield* embedInSteps(embedder, cache, page, { of: total, unread: total - done - page.length })
          yield* store.add(step.entries)
          done += page.length
          cached += step.cached
          yield* reported(progress, { _tag: "Embedding", chunks: total, done })
        }))
    }))
  return { summary, embedded: total - cached, reused: cached, encoder: undefined } satisfies Written
})

/** A cold build where no vector can be stored: the parts written as they are chunked, vectors already stored left as they are (see IndexStore). */
const rebuiltWithoutVectors = Effect.fn("indexRepository.rebuiltWithoutVectors")(function*(parts: Parts, header: Header) {
  const writer = yield* IndexStore
  return { summary: yield* writer.rebuild({ ...header, parts }, () => Effect.void), embedded: 0, reused: 0, encoder: undefined } satisfies Written
})

/** The chunks and their text alone, where no vector can be stored; vectors already stored stay as they are (see IndexStore). */
const writeWithoutVectors = Effect.fn("indexRepository.writeWithoutVectors")(function*(batch: IndexWrite, progress: (event: IndexProgress) => void) {
  const writer = yield* IndexStore
  yield* reported(progress, { _tag: "Writing", chunks: batch.chunks?.length ?? 0 })
  return { summary: yield* writer.write(batch), embedded: 0, reused: 0, encoder: undefined } satisfies Written
})

/** An incremental write: the stored model embeds the new chunks; the batch names no model data, so the stored stays. */
const writeWithStoredModel = Effect.fn("indexRepository.writeWithStoredModel")(function*(
  content: Content,
  scan: Scan,
  options: IndexOptions,
  progress: (event: IndexProgress) => void
) {
  const writer = yield* IndexStore
  const { chunks } = content
  const { changed, deleted } = scan
  const space = scan.space!
  const memory = options.memory
  // The caller's model, when it is the stored space's (the scan re-embeds everything otherwise).
  const external = options.embedder
  const encoder = external !== undefined ? undefined
    : memory?.encoder !== undefined && memory.encoder.version === space.version
    ? memory.encoder
    : Lsa.encoder(yield* Lsa.decodeModel((yield* writer.vectorSpace)?.model ?? "").pipe(Effect.orDie))
  const existing = yield* writer.storedChunks(changed)
  const toEmbed = chunks.filter((chunk) => {
    const known = existing.get(chunk.id)
    return known === undefined || !known.embedded || known.contentSha !== chunk.contentSha
  })
  // Chunks of other notes that a write without sqlite-vec left without a vector (the manifest
  // counts fewer vectors than chunks) are embedded too.
  const manifest = yield* writer.manifest
  const unembedded = manifest !== undefined && manifest.embeddedCount < manifest.chunkCount
    ? yield* writer.unembedded([...changed, ...deleted])
    : []
  const pending = [...toEmbed, ...unembedded]
  yield* reported(progress, { _tag: "Embedding", chunks: pending.length })
  const model = external === undefined ? undefined : yield* embedInSteps(external, yield* runCache(options.root), pending, {
    onStep: (done) => reported(progress, { _tag: "Embedding", chunks: pending.length, done })
  })
  const entries = model?.entries ?? pending.map((chunk) => ({ chunkId: chunk.id as ChunkId, vector: encoder!.embedOne(chunk.text) }))
  yield* reported(progress, { _tag: "Writing", chunks: chunks.length })
  const summary = yield* writer.write({
    ...content,
    vectors: { model: { id: space.modelId, version: space.version, dimension: space.dimension }, entries }
  })
  const cached = model?.cached ?? 0
  return { summary, embedded: entries.length - cached, reused: chunks.length - toEmbed.length + cached, encoder } satisfies Written
})

/** A refresh's one batch, with vectors from the stored model where sqlite-vec can store them. */
const writeRefresh = Effect.fn("indexRepository.writeRefresh")(function*(content: Content, scan: Scan, options: IndexOptions, progress: (event: IndexProgress) => void) {
  const writer = yield* IndexStore
  return writer.vectorsUnavailable !== undefined
    ? yield* writeWithoutVectors(content, progress)
    : yield* writeWithStoredModel(content, scan, options, progress)
})

/**
 * An incremental run's parts as one batch: its notes are what moved since the index's build, and
 * the batch must be one write, so the index never holds half of a refresh.
 */
const collected = Effect.fn("indexRepository.collected")(function*(parts: Parts) {
  const chunks: Array<Chunk> = []
  const notes: Array<NoteRecord> = []
  yield* Stream.runForEach(parts, (part) =>
    Effect.sync(() => {
      for (const chunk of part.chunks) chunks.push(chunk)
      for (const note of part.notes) notes.push(note)
    }))
  return { chunks, notes }
})

/** Chunks, embeds and writes what the scan found, then puts the scan's files in place. */
const writeIndex = Effect.fn("indexRepository.writeIndex")(function*(options: IndexOptions, chunking: ChunkingSettings, scan: Scan, progress: (event: IndexProgress) => void) {
    const writer = yield* IndexStore
    const memory = options.memory
    const { hashes, changed, deleted, retrain } = scan
    const parts = noteChunks({
      root: options.root,
      notes: changed,
      hashes,
      redact: redactor(options.discovery?.unredacted ?? []),
      counter: yield* TokenCounter,
      chunking: chunking.config,
      units: scan.units,
      onChunked: (done, total) => progress({ _tag: "Chunked", done, total })
    })
    const header: Header = {
      relations: scan.relations,
      manifest: { snapshotHash: scan.snapshotHash, builtAt: new Date(options.now).toISOString(), chunking: chunking.fingerprint }
    }
    // A retrain fits the latent semantic model on a sample of the chunks, once they are written,
    // then embeds them all (a caller's model needs no fitting, and embeds them all); a rewrite without sqlite-vec writes them alone. Either streams the
    // repository through in parts. An incremental run is one batch of what moved: its chunks, with
    // vectors from the stored model for those whose text the index has none for.
    const { summary, embedded, reused, encoder }: Written = retrain
      ? options.embedder === undefined ? yield* writeRetrained(parts, header, progress) : yield* writeModelEmbedded(options.root, options.embedder, parts, header, progress)
      : writer.vectorsUnavailable !== undefined && scan.rewrite ? yield* rebuiltWithoutVectors(parts, header)
      : yield* writeRefresh({ ...(yield* collected(parts)), deleteNotes: deleted, ...header }, scan, options, progress)
    // Only now, with the index committed, may the files vouch for this scan.
    if (scan.files !== undefined) yield* scan.files.commit
    if (memory !== undefined && scan.kept !== undefined) {
      memory.snapshot = scan.kept.snapshot
      memory.cache = scan.kept.cache
      memory.fingerprint = scan.kept.fingerprint
      memory.encoder = encoder
      memory.saved = memory.saved === undefined
    }
    progress({ _tag: "Written" })
    return {
      upToDate: false,
      notes: scan.notes,
      notesIndexed: changed.length,
      notesUnchanged: scan.notes - changed.length,
      notesDeleted: deleted.length,
      chunksEmbedded: embedded,
      vectorsReused: reused,
      retrained: retrain,
      ...(options.embedder === undefined ? {} : { model: options.embedder.id }),
      snapshotPatched: scan._tag === "Patched",
      summary,
      snapshotHash: scan.snapshotHash
    } satisfies IndexReport
  })
