/**
 * A file written whole under a temporary name beside its place, then renamed into it: a reader sees
 * the old file or the new one, never half of one, even if the writer dies mid-write. Temporaries
 * left by writers that are gone are cleared by the next staging. Knows nothing of what it writes.
 */
import { Clock, Effect, FileSystem, Option } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"

/**
 * A file's stamp: its size, modification time (sub-millisecond, as discovery's stamps take it) and
 * inode, all of which the rename into place keeps; undefined when it cannot be taken.
 */
export const stampOf = (file: string): string | undefined => {
  try {
    const info = NodeFs.statSync(file, { throwIfNoEntry: false })
    return info === undefined ? undefined : `${info.size}:${info.mtimeMs}:${info.ino}`
  } catch {
    return undefined
  }
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

/** The longest stretch of text encoded at once: it fits the buffer whatever its characters. */
const WINDOW_CHARS = Math.floor(WRITE_BUFFER_BYTES / 3)

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff

/** A file written under a temporary name: `commit` renames it into place, `discard` removes it. */
export interface Staged {
  readonly commit: Effect.Effect<void, PlatformError>
  readonly discard: Effect.Effect<void>
}

/** A staged file, with the stamp it was written with (`stampOf`), unless it could not be taken. */
export interface StagedFile extends Staged {
  readonly stamp: string | undefined
}

/**
 * How old a dead writer's temporary must be to be removed when it may have been written in another
 * pid namespace (another container or host sharing the folder), where a live writer looks dead from
 * here. A staged file lives from the end of a scan to the index commit, seconds to minutes.
 */
const STALE_TEMPORARY_MS = 60 * 60 * 1000

/** Temporaries staged by this process so far: each staging writes a name of its own. */
let staged = 0

/**
 * Which pid namespace of which host this process's pids belong to: 8 hex digits of the host name
 * and the namespace's inode. Pids of temporaries carrying the same tag are this machine's own, so a
 * dead one is known dead (kill -9 leaves its temporary behind) and its temporary removed at once.
 */
const namespaceTag: string = (() => {
  let namespace = ""
  try {
    namespace = NodeFs.readlinkSync("/proc/self/ns/pid")
  } catch {
    // No procfs (macOS, Windows): the host name alone, one namespace per host.
  }
  return NodeCrypto.createHash("sha256").update(`${NodeOs.hostname()}\u0000${namespace}`).digest("hex").slice(0, 8)
})()

/**
 * `<file>.<pid>.<n>.<tag>.tmp`, or `<file>.<pid>.<n>.tmp` and `<file>.<pid>.tmp` as earlier versions
 * named them: the writer's pid, and whether it ran in this namespace (`namespaceTag`). A temporary
 * index's own files (its write-ahead log, shared memory and stamp) go with it.
 */
const writerOf = (name: string, prefix: string): { readonly pid: number; readonly local: boolean } | undefined => {
  const match = name.startsWith(prefix) ? /^(\d+)(?:\.\d+)?(?:\.([0-9a-f]{8}))?\.tmp(?:-wal|-shm|-journal|\.stamp)?$/.exec(name.slice(prefix.length)) : null
  return match === null ? undefined : { pid: Number(match[1]), local: match[2] === namespaceTag }
}

/** A name next to `file` for this process to write aside, its own among every staging's. */
export const temporaryName = (file: string): string => `${file}.${process.pid}.${staged++}.${namespaceTag}.tmp`

/**
 * Removes the temporaries of `file` whose writer is gone (see `namespaceTag`), and those of
 * another namespace once they are an hour old; a live writer's stay.
 */
export const removeStaleTemporaries = Effect.fn("StagedFile.removeStaleTemporaries")(function*(fs: FileSystem.FileSystem, file: string): Effect.fn.Return<void> {
    const directory = NodePath.dirname(file)
    const prefix = `${NodePath.basename(file)}.`
    const now = yield* Clock.currentTimeMillis
    for (const name of yield* fs.readDirectory(directory).pipe(Effect.orElseSucceed(() => []))) {
      const writer = writerOf(name, prefix)
      if (writer === undefined) continue
      const { local, pid } = writer
      if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue
      if (local) {
        yield* fs.remove(NodePath.join(directory, name)).pipe(Effect.ignore)
        continue
      }
      // A writer in another pid namespace (a container) looks dead from here: only an old temporary is its leftover.
      const modified = yield* fs.stat(NodePath.join(directory, name)).pipe(
        Effect.map((info) => Option.getOrElse(Option.map(info.mtime, (date) => date.getTime()), () => now)),
        Effect.orElseSucceed(() => now)
      )
      if (now - modified >= STALE_TEMPORARY_MS) yield* fs.remove(NodePath.join(directory, name)).pipe(Effect.ignore)
    }
  })

/**
 * `text` (one string, or consecutive parts) written to a temporary file of this staging's own, next
 * to `file`; `commit` renames it over `file`, so readers see the old file or the new one, and two
 * writers at once do not take each other's temporary. Parts are encoded one by one into a buffer of
 * a few MB, so text given in parts is never joined or encoded whole; a part must not end inside a
 * surrogate pair, and a part given as bytes is written as it is. A temporary whose writer is gone
 * is removed, so none accumulate (see `namespaceTag`); one of another namespace once it is an hour old.
 */
export const stageWhole = Effect.fn("StagedFile.stageWhole")(function*(fs: FileSystem.FileSystem,
  file: string,
  text: string | ReadonlyArray<string | Uint8Array>): Effect.fn.Return<StagedFile, PlatformError> {
  yield* removeStaleTemporaries(fs, file)
  const temporary = temporaryName(file)
  const discard = fs.remove(temporary).pipe(Effect.ignore)
  yield* Effect.scoped(Effect.gen(function*() {
    const handle = yield* fs.open(temporary, { flag: "w" })
    const parts = typeof text === "string" ? [text] : text
    // Each part straight into the buffer: joining parts into batches and encoding each batch anew
    // took about a third of staging a 33 MB snapshot. A long part goes in windows.
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES)
    let used = 0
    for (const part of parts) {
      if (typeof part !== "string") {
        if (used > 0) yield* handle.writeAll(buffer.subarray(0, used))
        used = 0
        yield* handle.writeAll(part)
        continue
      }
      for (let from = 0; from < part.length;) {
        let to = Math.min(part.length, from + WINDOW_CHARS)
        // Never between the two halves of a surrogate pair.
        if (to < part.length && isHighSurrogate(part.charCodeAt(to - 1))) to--
        const window = from === 0 && to === part.length ? part : part.slice(from, to)
        // A UTF-16 code unit takes at most 3 bytes of UTF-8.
        if (used + 3 * window.length > buffer.length) {
          yield* handle.writeAll(buffer.subarray(0, used))
          used = 0
        }
        used += buffer.write(window, used, "utf8")
        from = to
      }
    }
    if (used > 0) yield* handle.writeAll(buffer.subarray(0, used))
  })).pipe(Effect.onError(() => discard))
  return { commit: fs.rename(temporary, file), discard, stamp: stampOf(temporary) }
})
