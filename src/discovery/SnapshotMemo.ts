/**
 * A snapshot as it is stored: its canonical JSON (`serializeParts`), and the memo that says where
 * each unit's JSON lies in those bytes, with each unit's digest and the snapshot's fingerprints. A
 * store keeps the memo beside the scan (the scan cache), so the next one-shot run takes what it
 * reuses without hashing and serialising every unit again. The bytes are the writer's own, so
 * reading them back trusts them: checked for shape, not decoded through the Snapshot Schema (which
 * took longer than the rest of a one-edit refresh). Pure: a store reads and writes the bytes, and
 * stamps what it stored so that a memo is taken only for the very bytes it was made with.
 */
import { Option } from "effect"
import type { Coverage, Snapshot } from "../domain/Snapshot.ts"
import {
  adopt,
  ENTITIES_TO_RELATIONS,
  joinUnits,
  rememberUnits,
  serializeParts,
  serializedUnits,
  type SnapshotHeader,
  unitDigests
} from "./Assemble.ts"
import { type Keys, snapshotKeys } from "./Fingerprints.ts"
import type { Patched, StoredSnapshot } from "./Patch.ts"
import type { ScanCache } from "./ScanCache.ts"

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
const MEMO_FORMAT = "cairn/snapshot-memo@2"

/**
 * What the scan that stored a snapshot knew of it beyond its bytes: each unit's digest, where each
 * entity's and relation's JSON lies in the bytes, and the snapshot's fingerprints. Kept beside the
 * stored snapshot (in the scan cache), it spares the next one-shot run hashing and serialising
 * every unit it reuses, about half a second on a 10,000-module repository. Packed into strings, so
 * reading the scan cache (which every refresh does, most finding nothing changed) stays cheap.
 */
export interface SnapshotMemo {
  readonly format: typeof MEMO_FORMAT
  readonly snapshotHash: string
  /** The store's stamp of the bytes as stored (a file's size, modification time and inode). */
  readonly stamp: string
  /** Base64 of the 32-byte unit digests, in entity order. */
  readonly digests: string
  /** Base64 of little-endian uint32 UTF-8 lengths: the bytes before the first entity, each entity's JSON, each relation's. */
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

const lengthsOf = (memo: SnapshotMemo): Array<number> | undefined => {
  const bytes = Buffer.from(memo.lengths, "base64")
  if (bytes.length % 4 !== 0) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4, true))
}

/** Where the memo places each JSON piece in a stored snapshot's bytes. */
interface Located {
  /** The bytes before the first entity, each entity's JSON, each relation's (UTF-8). */
  readonly lengths: ReadonlyArray<number>
  readonly entityStart: Float64Array
  readonly relationStart: Float64Array
  /** Where `],"coverage":` begins. */
  readonly tail: number
}

const ENTITIES_OPEN = `"entities":[`
const COVERAGE_OPEN = `],"coverage":`

/**
 * Each JSON piece the memo places in `bytes`, entities then relations (`relations` of them, when
 * known). Undefined unless every piece is an object's braces between commas and the pieces end
 * exactly where the coverage begins.
 */
const locate = (bytes: Buffer, memo: SnapshotMemo, relations?: number): Located | undefined => {
  const lengths = lengthsOf(memo)
  if (lengths === undefined || lengths.length < 1 + memo.entities) return undefined
  const relationCount = lengths.length - 1 - memo.entities
  if (relations !== undefined && relationCount !== relations) return undefined
  let at = lengths[0]!
  let next = 1
  const place = (starts: Float64Array): boolean => {
    for (let index = 0; index < starts.length; index++) {
      if (index > 0 && bytes[at++] !== 44) return false
      const end = at + lengths[next++]!
      if (bytes[at] !== 123 || bytes[end - 1] !== 125) return false
      starts[index] = at
      at = end
    }
    return true
  }
  const holds = (text: string, from: number) => from >= 0 && bytes.toString("latin1", from, from + text.length) === text
  if (!holds(ENTITIES_OPEN, at - ENTITIES_OPEN.length)) return undefined
  const entityStart = new Float64Array(memo.entities)
  if (!place(entityStart) || !holds(ENTITIES_TO_RELATIONS, at)) return undefined
  at += ENTITIES_TO_RELATIONS.length
  const relationStart = new Float64Array(relationCount)
  return place(relationStart) && holds(COVERAGE_OPEN, at) ? { lengths, entityStart, relationStart, tail: at } : undefined
}

/**
 * Each JSON piece the memo places in the bytes, entities then relations (see `locate`): slices of
 * `text` when the bytes are all ASCII (a byte is a character), else each piece decoded on its own.
 */
const cut = (bytes: Buffer, text: string, memo: SnapshotMemo, relations: number): { entities: Array<string>; relations: Array<string> } | undefined => {
  const located = locate(bytes, memo, relations)
  if (located === undefined) return undefined
  const { lengths, entityStart, relationStart } = located
  const entities = memo.entities
  const piece = text.length === bytes.length
    ? (start: number, length: number) => text.slice(start, start + length)
    : (start: number, length: number) => bytes.toString("utf8", start, start + length)
  return {
    entities: Array.from(entityStart, (start, i) => piece(start, lengths[1 + i]!)),
    relations: Array.from(relationStart, (start, i) => piece(start, lengths[1 + entities + i]!))
  }
}

const looksLikeHeader = (value: unknown): value is SnapshotHeader =>
  isRecord(value) && typeof value["schemaVersion"] === "number" && typeof value["pipelineVersion"] === "string" &&
  isRecord(value["analyzerVersions"]) && typeof value["configurationHash"] === "string" &&
  (value["sourceRevision"] === null || typeof value["sourceRevision"] === "string") && Array.isArray(value["compilerOptions"]) &&
  Object.keys(value).join(",") === "schemaVersion,pipelineVersion,analyzerVersions,configurationHash,sourceRevision,compilerOptions"

/** The memo of bytes stored under `stamp`. */
const memoOf = (stamp: string, snapshotHash: string, digests: Uint8Array, lengths: ReadonlyArray<number>, entities: number, keys: Keys): SnapshotMemo => {
  const packed = new DataView(new ArrayBuffer(4 * lengths.length))
  lengths.forEach((length, i) => packed.setUint32(4 * i, length, true))
  return {
    format: MEMO_FORMAT,
    snapshotHash,
    stamp,
    digests: Buffer.from(digests.buffer, digests.byteOffset, digests.byteLength).toString("base64"),
    lengths: Buffer.from(packed.buffer).toString("base64"),
    entities,
    moduleKey: keys.moduleKey,
    resolutionKey: keys.resolutionKey
  }
}


/** A JSON text's value; undefined (which no JSON text gives) when it is not JSON. */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/**
 * The snapshot stored as `bytes`, adopted into `cache`, or none when they are not a snapshot. A
 * `memo` hands the units' digests and the snapshot's fingerprints to the cache, when it names this
 * snapshot and places its pieces; with `json`, the units' JSON as well, which (as slices of the
 * text when it is all ASCII) may keep all of that text alive as long as any of them is: for a run
 * that ends with its process, not for a long-lived one. The caller vouches that the memo was made
 * for these very bytes (their stamp is the memo's), and gives none otherwise.
 */
export const decode = (
  stored: Uint8Array,
  cache: ScanCache,
  memo?: { readonly memo: SnapshotMemo; readonly json: boolean }
): Option.Option<Snapshot> => {
  const bytes = asBuffer(stored)
  const text = bytes.toString("utf8", 0, bytes.length)
  const parsed = parseJson(text)
  if (!looksLikeSnapshot(parsed)) return Option.none()
  adopt(parsed, cache)
  const known = memo?.memo
  if (known === undefined || known.snapshotHash !== parsed.contentHash || known.entities !== parsed.entities.length) return Option.some(parsed)
  const pieces = cut(bytes, text, known, parsed.relations.length)
  if (pieces !== undefined) {
    rememberUnits(parsed, cache, { digests: new Uint8Array(Buffer.from(known.digests, "base64")), ...(memo!.json ? pieces : {}) })
    snapshotKeys(cache).set(parsed, { moduleKey: known.moduleKey, resolutionKey: known.resolutionKey })
  }
  return Option.some(parsed)
}

/** A stored snapshot's bytes and where its pieces lie, for a patch of it (`encodePatched`). */
interface StoredBytes {
  readonly bytes: Buffer
  readonly located: Located
  readonly digests: Uint8Array
}

// The bytes behind each StoredSnapshot `decodeStored` gave, held for as long as the snapshot is.
const storedBytes = new WeakMap<StoredSnapshot, StoredBytes>()

/**
 * The snapshot stored as `bytes` in its pieces, without decoding it: only its header and coverage
 * are read as JSON, and a piece when asked for. Given only with the memo of these very bytes (the
 * caller vouches for their stamp), or none when the memo does not place their pieces.
 */
export const decodeStored = (stored: Uint8Array, memo: SnapshotMemo): Option.Option<StoredSnapshot> => {
  const bytes = asBuffer(stored)
  const located = locate(bytes, memo)
  const digests = new Uint8Array(Buffer.from(memo.digests, "base64"))
  if (located === undefined || digests.length !== 32 * memo.entities) return Option.none()
  const header = parseJson(`${bytes.toString("utf8", 0, located.lengths[0]! - ENTITIES_OPEN.length - 1)}}`)
  const tail = parseJson(`{${bytes.toString("utf8", located.tail + 2, bytes.length)}`)
  if (!looksLikeHeader(header) || !isRecord(tail) || tail["contentHash"] !== memo.snapshotHash || !every(tail["coverage"], (entry) => typeof entry["scope"] === "string")) {
    return Option.none()
  }
  const { lengths, entityStart, relationStart } = located
  const entities = memo.entities
  const snapshot: StoredSnapshot = {
    header,
    coverage: tail["coverage"] as ReadonlyArray<Coverage>,
    contentHash: memo.snapshotHash,
    entities,
    relations: relationStart.length,
    entityJson: (index) => bytes.toString("utf8", entityStart[index]!, entityStart[index]! + lengths[1 + index]!),
    relationJson: (index) => bytes.toString("utf8", relationStart[index]!, relationStart[index]! + lengths[1 + entities + index]!),
    digest: (index) => digests.subarray(32 * index, 32 * index + 32),
    keys: { moduleKey: memo.moduleKey, resolutionKey: memo.resolutionKey }
  }
  storedBytes.set(snapshot, { bytes, located, digests })
  return Option.some(snapshot)
}

/** A snapshot's bytes to store, and their memo once a store has stamped them. */
export interface Encoded {
  /** The bytes in consecutive parts (text or bytes), as `StagedFile.stageWhole` writes them. */
  readonly parts: ReadonlyArray<string | Uint8Array>
  /** The memo of these bytes stored under `stamp`; undefined when the cache did not know every unit. */
  readonly memo: (stamp: string) => SnapshotMemo | undefined
}

/** `snapshot` as it is stored; given the cache of the scan that made it, with its memo. */
export const encode = (snapshot: Snapshot, cache: ScanCache): Encoded => {
  const pieces = serializedUnits(snapshot, cache)
  const digests = pieces === undefined ? undefined : unitDigests(snapshot, cache)
  const keys = snapshotKeys(cache).get(snapshot)
  const parts = pieces === undefined ? serializeParts(snapshot) : joinUnits(pieces)
  const snapshotHash = snapshot.contentHash
  return {
    parts: [...parts, "\n"],
    memo: (stamp) => {
      if (pieces === undefined || digests === undefined || keys === undefined) return undefined
      const lengths = [pieces.head, ...pieces.entities, ...pieces.relations].map((json) => Buffer.byteLength(json))
      return memoOf(stamp, snapshotHash, digests, lengths, pieces.entities.length, keys)
    }
  }
}

/** Pieces in a row: a stretch of the stored bytes holding consecutive pieces, or a new piece's JSON. */
type Stretch = { readonly from: number; readonly to: number } | string

/**
 * The patched snapshot as it is stored, with its memo: the stored bytes where nothing moved (long
 * stretches of them, not piece by piece), the patched units' JSON where they did. `stored` is one
 * `decodeStored` gave; any other is a programming error.
 */
export const encodePatched = (snapshot: StoredSnapshot, patched: Patched): Encoded => {
  const stored = storedBytes.get(snapshot)
  if (stored === undefined) throw new Error("encodePatched: the stored snapshot was not read by decodeStored")
  const { lengths, entityStart, relationStart } = stored.located
  const entities = snapshot.entities
  const relationCount = relationStart.length
  const entityEnd = (index: number) => entityStart[index]! + lengths[1 + index]!
  const relationEnd = (index: number) => relationStart[index]! + lengths[1 + entities + index]!
  const newLengths: Array<number> = []
  const parts: Array<string | Uint8Array> = []
  // Pieces `[start, end)` of one list, with the patched units' pieces in place of the ones they replace.
  const list = (count: number, start: (index: number) => number, end: (index: number) => number, lengthAt: (index: number) => number, replacements: ReadonlyArray<{ readonly from: number; readonly to: number; readonly json: ReadonlyArray<string> }>) => {
    const stretches: Array<Stretch> = []
    let at = 0
    for (const replacement of replacements) {
      if (replacement.from > at) stretches.push({ from: at, to: replacement.from })
      stretches.push(...replacement.json)
      at = replacement.to
    }
    if (at < count) stretches.push({ from: at, to: count })
    stretches.forEach((stretch, i) => {
      if (i > 0) parts.push(",")
      if (typeof stretch === "string") {
        parts.push(stretch)
        newLengths.push(Buffer.byteLength(stretch))
      } else {
        parts.push(stored.bytes.subarray(start(stretch.from), end(stretch.to - 1)))
        for (let index = stretch.from; index < stretch.to; index++) newLengths.push(lengthAt(index))
      }
    })
  }
  const head = `${JSON.stringify(patched.header).slice(0, -1)},${ENTITIES_OPEN}`
  parts.push(head)
  newLengths.push(Buffer.byteLength(head))
  list(entities, (i) => entityStart[i]!, entityEnd, (i) => lengths[1 + i]!, patched.units.map((unit) => ({ from: unit.index, to: unit.index + 1, json: [unit.entityJson] })))
  parts.push(ENTITIES_TO_RELATIONS)
  list(relationCount, (i) => relationStart[i]!, relationEnd, (i) => lengths[1 + entities + i]!, patched.units.map((unit) => ({ from: unit.replaces[0], to: unit.replaces[1], json: unit.relationJson })))
  parts.push(`${COVERAGE_OPEN}${JSON.stringify(patched.coverage)},"contentHash":${JSON.stringify(patched.contentHash)}}`, "\n")
  const digests = new Uint8Array(stored.digests)
  for (const unit of patched.units) digests.set(unit.digest, 32 * unit.index)
  return { parts, memo: (stamp) => memoOf(stamp, patched.contentHash, digests, newLengths, entities, patched.keys) }
}
