/**
 * `.cairn/snapshot.json`: the last snapshot an index run produced, kept so the next run reuses
 * what did not change. It is cairn's own file, written whole (to a temporary name, then renamed),
 * so reading it back trusts it: the JSON is checked for shape, not decoded through the Snapshot
 * Schema (which took longer than the rest of a one-edit refresh), and adopted as canonical. A file
 * that is not a snapshot is ignored and the scan starts cold; it only ever makes a scan faster.
 */
import { Clock, Effect, FileSystem, Option } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { adopt, ENTITIES_TO_RELATIONS, joinUnits, rememberUnits, serializeParts, serializedUnits, unitDigests } from "../src/discovery/Assemble.ts"
import { snapshotKeys } from "../src/discovery/Discover.ts"
import type { ScanCache } from "../src/discovery/ScanCache.ts"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const every = (value: unknown, check: (item: Record<string, unknown>) => boolean): boolean =>
  Array.isArray(value) && value.every((item) => isRecord(item) && check(item))

/** The shape every reader of a previous snapshot relies on; deeper fields are the writer's promise. */
const looksLikeSnapshot = (value: unknown): value is Snapshot =>
  isRecord(value) &&
  typeof value["schemaVersion"] === "number" &&
  typeof value["pipelineVersion"] === "string" &&
  isRecord(value["analyzerVersions"]) &&
  typeof value["configurationHash"] === "string" &&
  (value["sourceRevision"] === null || typeof value["sourceRevision"] === "string") &&
  Array.isArray(value["compilerOptions"]) &&
  typeof value["contentHash"] === "string" &&
  every(value["entities"], (entity) => typeof entity["id"] === "string" && typeof entity["kind"] === "string" && Array.isArray(entity["evidence"])) &&
  every(value["relations"], (relation) =>
    typeof relation["from"] === "string" && typeof relation["to"] === "string" && typeof relation["kind"] === "string" && Array.isArray(relation["evidence"])) &&
  every(value["coverage"], (entry) => typeof entry["scope"] === "string")

/** Bumped whenever a unit's digest, its JSON or a snapshot's fingerprints would be derived differently. */
const MEMO_FORMAT = "cairn/snapshot-memo@1"

/**
 * What the scan that wrote a snapshot file knew of it beyond the file: each unit's digest, where
 * each entity's and relation's JSON lies in the file, and the snapshot's fingerprints. Kept beside
 * the file (in the scan cache), it spares the next one-shot run hashing and serialising every unit
 * it reuses, about half a second on a 10,000-module repository. Packed into strings, so reading
 * the scan cache (which every refresh does, most finding nothing changed) stays cheap.
 */
export interface SnapshotMemo {
  readonly format: typeof MEMO_FORMAT
  readonly snapshotHash: string
  /** The file as written: its size, modification time and inode, all of which the rename into place keeps. */
  readonly stamp: string
  /** Base64 of the 32-byte unit digests, in entity order. */
  readonly digests: string
  /** Base64 of little-endian uint32 UTF-16 lengths: the text before the first entity, each entity's JSON, each relation's. */
  readonly lengths: string
  readonly entities: number
  readonly moduleKey: string
  readonly resolutionKey: string
}

/** A memo as read back from JSON, or undefined for anything else. */
export const asMemo = (value: unknown): SnapshotMemo | undefined =>
  isRecord(value) && value["format"] === MEMO_FORMAT && typeof value["snapshotHash"] === "string" && typeof value["stamp"] === "string" &&
    typeof value["digests"] === "string" && typeof value["lengths"] === "string" && Number.isSafeInteger(value["entities"]) &&
    typeof value["moduleKey"] === "string" && typeof value["resolutionKey"] === "string"
    ? value as unknown as SnapshotMemo
    : undefined

/** A file's stamp as a memo records it; sub-millisecond times, as discovery's stamps take them. */
const stampOf = (file: string): string | undefined => {
  try {
    const info = NodeFs.statSync(file, { throwIfNoEntry: false })
    return info === undefined ? undefined : `${info.size}:${info.mtimeMs}:${info.ino}`
  } catch {
    return undefined
  }
}

const lengthsOf = (memo: SnapshotMemo): Array<number> | undefined => {
  const bytes = Buffer.from(memo.lengths, "base64")
  if (bytes.length % 4 !== 0) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4, true))
}

/**
 * Each JSON piece the memo places in `text`: entities, then relations. Undefined unless every piece
 * is an object's braces between commas and the pieces end exactly where the coverage begins.
 */
const cut = (text: string, memo: SnapshotMemo, relations: number): { entities: Array<string>; relations: Array<string> } | undefined => {
  const lengths = lengthsOf(memo)
  if (lengths === undefined || lengths.length !== 1 + memo.entities + relations) return undefined
  let at = lengths[0]!
  let next = 1
  const take = (count: number): Array<string> | undefined => {
    const pieces: Array<string> = []
    for (let index = 0; index < count; index++) {
      if (index > 0 && text.charCodeAt(at++) !== 44) return undefined
      const end = at + lengths[next++]!
      if (text.charCodeAt(at) !== 123 || text.charCodeAt(end - 1) !== 125) return undefined
      pieces.push(text.slice(at, end))
      at = end
    }
    return pieces
  }
  if (!text.startsWith(`"entities":[`, at - `"entities":[`.length)) return undefined
  const entityPieces = take(memo.entities)
  if (entityPieces === undefined || !text.startsWith(ENTITIES_TO_RELATIONS, at)) return undefined
  at += ENTITIES_TO_RELATIONS.length
  const relationPieces = take(relations)
  return relationPieces !== undefined && text.startsWith(`],"coverage":`, at) ? { entities: entityPieces, relations: relationPieces } : undefined
}

/**
 * The snapshot in `file`, adopted into `cache`, or none when there is no readable snapshot there.
 * A `memo` of this very file (its stamp unchanged from before the read to after it, and naming
 * the snapshot read) hands the units' digests and the snapshot's fingerprints to the cache; with
 * `json`, the units' JSON as well, as slices of the file's text, which keep all of that text alive
 * as long as any of them is: for a run that ends with its process, not for a long-lived one.
 */
export const read = (
  fs: FileSystem.FileSystem,
  file: string,
  cache: ScanCache,
  memo?: { readonly memo: SnapshotMemo; readonly json: boolean }
): Effect.Effect<Option.Option<Snapshot>> =>
  Effect.gen(function*() {
    const before = memo === undefined ? undefined : stampOf(file)
    const text = yield* fs.readFileString(file)
    const parsed = yield* Effect.try(() => JSON.parse(text) as unknown)
    if (!looksLikeSnapshot(parsed)) return Option.none<Snapshot>()
    adopt(parsed, cache)
    const known = memo?.memo
    if (known === undefined || before !== known.stamp || stampOf(file) !== known.stamp || known.snapshotHash !== parsed.contentHash || known.entities !== parsed.entities.length) {
      return Option.some(parsed)
    }
    const pieces = cut(text, known, parsed.relations.length)
    if (pieces !== undefined) {
      rememberUnits(parsed, cache, { digests: new Uint8Array(Buffer.from(known.digests, "base64")), ...(memo!.json ? pieces : {}) })
      snapshotKeys(cache).set(parsed, { moduleKey: known.moduleKey, resolutionKey: known.resolutionKey })
    }
    return Option.some(parsed)
  }).pipe(Effect.orElseSucceed(() => Option.none<Snapshot>()))

/**
 * `snapshot` written aside, to be put in place by `commit`: a reader never sees half a file, even if
 * this process dies mid-write. With it comes the memo of the file, when the cache knows every unit.
 */
export const stage = (
  fs: FileSystem.FileSystem,
  file: string,
  snapshot: Snapshot,
  cache: ScanCache
): Effect.Effect<Staged & { readonly memo: SnapshotMemo | undefined }, PlatformError> => {
  const pieces = serializedUnits(snapshot, cache)
  const digests = pieces === undefined ? undefined : unitDigests(snapshot, cache)
  const keys = snapshotKeys(cache).get(snapshot)
  const parts = pieces === undefined ? serializeParts(snapshot) : joinUnits(pieces)
  return Effect.map(stageWhole(fs, file, [...parts, "\n"]), (staged) => {
    if (pieces === undefined || digests === undefined || keys === undefined || staged.stamp === undefined) return { ...staged, memo: undefined }
    const lengths = new DataView(new ArrayBuffer(4 * (1 + pieces.entities.length + pieces.relations.length)))
    let next = 0
    for (const length of [pieces.head.length, ...pieces.entities.map((json) => json.length), ...pieces.relations.map((json) => json.length)]) {
      lengths.setUint32(4 * next++, length, true)
    }
    const memo: SnapshotMemo = {
      format: MEMO_FORMAT,
      snapshotHash: snapshot.contentHash,
      stamp: staged.stamp,
      digests: Buffer.from(digests.buffer, digests.byteOffset, digests.byteLength).toString("base64"),
      lengths: Buffer.from(lengths.buffer).toString("base64"),
      entities: pieces.entities.length,
      moduleKey: keys.moduleKey,
      resolutionKey: keys.resolutionKey
    }
    return { ...staged, memo }
  })
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { code?: string }).code === "EPERM"
  }
}

/** Bytes encoded and written at a time: one buffer of a few MB, however large the file. */
const WRITE_BUFFER_BYTES = 4 << 20

const utf8 = new TextEncoder()

/** A file written under a temporary name: `commit` renames it into place, `discard` removes it. */
export interface Staged {
  readonly commit: Effect.Effect<void, PlatformError>
  readonly discard: Effect.Effect<void>
}

/** A staged file, with the stamp it was written with (see `SnapshotMemo`), unless it could not be taken. */
export interface StagedFile extends Staged {
  readonly stamp: string | undefined
}

/**
 * How old a dead writer's temporary must be to be removed. A staged file lives from the end of a
 * scan to the index commit, seconds to minutes, and a writer in another pid namespace cannot be
 * told from a dead one.
 */
const STALE_TEMPORARY_MS = 60 * 60 * 1000

/** Temporaries staged by this process so far: each staging writes a name of its own. */
let staged = 0

/** `<file>.<pid>.<n>.tmp`, or `<file>.<pid>.tmp` as earlier versions named them: the writer's pid. */
const writerOf = (name: string, prefix: string): number => {
  const match = name.startsWith(prefix) ? /^(\d+)(?:\.\d+)?\.tmp$/.exec(name.slice(prefix.length)) : null
  return match === null ? Number.NaN : Number(match[1])
}

/**
 * `text` (one string, or consecutive parts) written to a temporary file of this staging's own, next
 * to `file`; `commit` renames it over `file`, so readers see the old file or the new one, and two
 * writers at once do not take each other's temporary. Parts are encoded one by one into a buffer of
 * a few MB, so text given in parts is never joined or encoded whole; a part must not end inside a
 * surrogate pair. A
 * temporary an hour old whose writer is gone is removed, so none accumulate.
 */
export const stageWhole = (fs: FileSystem.FileSystem, file: string, text: string | ReadonlyArray<string>): Effect.Effect<StagedFile, PlatformError> =>
  Effect.gen(function*() {
    const directory = NodePath.dirname(file)
    const prefix = `${NodePath.basename(file)}.`
    const now = yield* Clock.currentTimeMillis
    for (const name of yield* fs.readDirectory(directory).pipe(Effect.orElseSucceed(() => []))) {
      const pid = writerOf(name, prefix)
      if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue
      // A writer in another pid namespace (a container) looks dead from here: only an old temporary is its leftover.
      const modified = yield* fs.stat(NodePath.join(directory, name)).pipe(
        Effect.map((info) => Option.getOrElse(Option.map(info.mtime, (date) => date.getTime()), () => now)),
        Effect.orElseSucceed(() => now)
      )
      if (now - modified >= STALE_TEMPORARY_MS) yield* fs.remove(NodePath.join(directory, name)).pipe(Effect.ignore)
    }
    const temporary = `${file}.${process.pid}.${staged++}.tmp`
    const discard = fs.remove(temporary).pipe(Effect.ignore)
    yield* Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(temporary, { flag: "w" })
      const parts = typeof text === "string" ? [text] : text
      // Each part straight into the buffer: joining parts into batches and encoding each batch anew
      // took about a third of staging a 33 MB snapshot.
      const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES)
      let used = 0
      for (const part of parts) {
        // A UTF-16 code unit takes at most 3 bytes of UTF-8.
        if (used + 3 * part.length > buffer.length && used > 0) {
          yield* handle.writeAll(buffer.subarray(0, used))
          used = 0
        }
        if (3 * part.length > buffer.length) yield* handle.writeAll(utf8.encode(part))
        else used += buffer.write(part, used, "utf8")
      }
      if (used > 0) yield* handle.writeAll(buffer.subarray(0, used))
    })).pipe(Effect.onError(() => discard))
    return { commit: fs.rename(temporary, file), discard, stamp: stampOf(temporary) }
  })
