/** What `cairn snapshot` does (its flags are declared in SnapshotCommand.ts, so this module loads only when it runs). */
import type { SnapshotInput } from "./SnapshotCommand.ts"
import { Console, Effect, FileSystem, Option } from "effect"
import * as NodePath from "node:path"
import { DiscoveryError, PreviousInvalid, SnapshotUnwritable } from "../../src/domain/DiscoveryError.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { decodeSnapshotJson } from "../../src/domain/Snapshot.ts"
import { serialize } from "../../src/discovery/Assemble.ts"
import { scanWithProgress } from "./Progress.ts"

// A schema message puts the field on its second line ("Missing key\n  at ["schemaVersion"]"): keep both.
const previousInvalid = (path: string) => (error: { readonly message: string }) =>
  new DiscoveryError({
    reason: new PreviousInvalid({ path, detail: error.message.split("\n").slice(0, 2).map((line) => line.trim()).join(" ") })
  })

const readPrevious = Effect.fn("SnapshotAction.readPrevious")(function*(path: string): Effect.fn.Return<Snapshot, DiscoveryError, FileSystem.FileSystem> {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(Effect.mapError(previousInvalid(path)))
  return yield* decodeSnapshotJson(text).pipe(Effect.mapError(previousInvalid(path)))
})

const writeSnapshot: (path: string, text: string) => Effect.Effect<void, DiscoveryError, FileSystem.FileSystem> = Effect.fn("SnapshotAction.writeSnapshot")(
  function*(path: string, text: string) {
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(NodePath.dirname(path), { recursive: true })
    yield* fs.writeFileString(path, `${text}\n`)
  },
  (effect, path) => effect.pipe(Effect.mapError((error) => new DiscoveryError({ reason: new SnapshotUnwritable({ path, detail: error.message }) })))
)

export const run = Effect.fn("cli.snapshot")(function*({ json, out, previous, root }: SnapshotInput) {
  const prior = Option.isSome(previous) ? yield* readPrevious(previous.value) : undefined
  const snapshot = yield* scanWithProgress({ root, previous: prior })
  const text = serialize(snapshot)
  if (json) {
    yield* Console.log(text)
    return
  }
  const target = Option.getOrElse(out, () => NodePath.join(root, ".cairn", "snapshot.json"))
  yield* writeSnapshot(target, text)
  const reuse = snapshot.coverage.find((entry) => entry.scope === "reused-entities")
  yield* Console.log(
    `wrote ${target}: ${snapshot.entities.length} entities, ${snapshot.relations.length} relations, ` +
      `${snapshot.coverage.length} coverage notes, contentHash ${snapshot.contentHash.slice(0, 12)}` +
      (reuse === undefined ? "" : `\n${reuse.status}: ${reuse.reason}`)
  )
})
