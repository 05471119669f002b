/**
 * An index run that gets past a damaged index file. When opening the file, or a read or write of
 * the run, finds it damaged (layers/sqlite/Damage.ts), a retry would fail alike, so the index is
 * built again from the repository into a new file beside the old one, which is then renamed over
 * it: a reader opens the damaged file or the whole new one, never a half. A build that fails or is
 * interrupted removes its file and leaves the damaged one where it was, for the next run to try.
 */
import { Effect, FileSystem } from "effect"
import * as Database from "../layers/sqlite/Database.ts"
import { recordStamp, stampPath } from "../layers/sqlite/Damage.ts"
import { DatabaseError } from "../layers/sqlite/DatabaseError.ts"
import { IndexWriteError } from "../src/ports/IndexStore.ts"
import { indexLayer, type IndexOptions, indexRepository } from "./indexRepository.ts"
import { removeStaleTemporaries, temporaryName } from "../layers/node/StagedFile.ts"

/** How the file is damaged, when the error says it is. */
const damageOf = (error: unknown): string | undefined =>
  (error instanceof DatabaseError || error instanceof IndexWriteError) && error.reason === "damaged" ? error.detail : undefined

/** What SQLite keeps beside a database file: it belongs to that file and must not outlive it. */
const SIDECARS = ["-wal", "-shm", "-journal"]

const filesOf = (file: string): ReadonlyArray<string> => [file, ...SIDECARS.map((suffix) => `${file}${suffix}`), stampPath(file)]

/** Builds the index of `options.root` from scratch into a new file, then renames it over the damaged one. */
const repair = Effect.fn("repairIndex")(function*(options: IndexOptions, damage: string, onDamaged: (file: string, damage: string) => void) {
  const fs = yield* FileSystem.FileSystem
  const file = Database.defaultPath(options.root)
  onDamaged(file, damage)
  const remove = (paths: ReadonlyArray<string>) => Effect.forEach(paths, (path) => fs.remove(path, { force: true }).pipe(Effect.ignore), { discard: true })
  // What a killed repair left behind, then a name of this run's own.
  yield* removeStaleTemporaries(fs, file)
  const temporary = temporaryName(file)
  const report = yield* indexRepository({ ...options, rebuild: true }).pipe(
    Effect.provide(indexLayer(options.root, temporary)),
    Effect.onError(() => remove(filesOf(temporary)))
  )
  // Closed, so the new file is whole and has no log of its own. The damaged file's log and shared
  // memory would be read as the new file's, so they go first.
  yield* remove(SIDECARS.map((suffix) => `${file}${suffix}`))
  yield* fs.rename(temporary, file).pipe(
    Effect.mapError((error) => new DatabaseError({ reason: "open_failed", path: file, detail: `the rebuilt index could not replace it (${error.message})` })),
    Effect.onError(() => remove(filesOf(temporary)))
  )
  recordStamp(file)
  yield* remove([stampPath(temporary)])
  return { ...report, replacedDamaged: damage }
})

/**
 * `indexRepository` over the index file of `options.root`, replacing the file when it is damaged;
 * `onDamaged` hears of it before the new build starts.
 */
export const indexOrRepair = (options: IndexOptions, onDamaged: (file: string, damage: string) => void = () => {}) =>
  indexRepository(options).pipe(
    Effect.provide(indexLayer(options.root)),
    Effect.catch((error) => {
      const damage = damageOf(error)
      return damage === undefined ? Effect.fail(error) : repair(options, damage, onDamaged)
    })
  )
